"""Grammar rules: readable templates that build wire commands.

A template is a regular expression in which a space means "some white space" (`` ?`` "maybe
some") and
``{field:kind}`` is a slot filled into the command's ``field``. A slot's kind is one of the value
kinds of :mod:`.tokens` (``number``, ``scale``, ``point``, ``box``, ``text``, ...), the name of a
keyword argument holding a word map (``op=VISIBILITY`` maps "hide"/"unhide"/... to values), or the
kind of names the session knows (``layers``, ``panels``, ...), resolved case-insensitively to their
real spelling. ``{field}`` alone means ``{field:field}``. Keyword arguments that are not word maps
are constants of the command.

    Rule("layer_visibility", "{op} {name:layers}", op={"hide": "hide", "show": "show"})
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .names import resolve_name
from .tokens import NUMBER, SLOTS, NoMatch, name_pattern

_NUMERIC = re.compile(rf"{NUMBER}\s*%?")
_SLOT_RE = re.compile(r"\{(\w+)(?::(\w+))?\}")

NAME_FILLERS: dict[str, tuple[str, str]] = {
    "layers": (
        r"(?:the\s+)?(?:(?:layer|channel|image)\s+(?:named\s+|called\s+)?)?",
        r"(?:\s+(?:layer|channel|image))?",
    ),
    "panels": (r"(?:the\s+)?", r"(?:\s+(?:panel|dock|widget|window|pane))?"),
}
DEFAULT_FILLERS = (r"(?:the\s+)?", "")

MAX_WORDS_AROUND_NAME = 3
Context = Mapping[str, Sequence[str]]
Post = Callable[[dict[str, Any]], dict[str, Any]]


@dataclass(frozen=True, eq=False)
class _Slot:
    field: str
    kind: str
    convert: Callable[[str], Any] | None = None
    choices: Mapping[str, Any] | None = None


def _choice_pattern(choices: Mapping[str, Any]) -> str:
    words = sorted(choices, key=len, reverse=True)
    return "(?:" + "|".join(r"\s+".join(map(re.escape, w.split())) for w in words) + ")"


def _fold(choices: Mapping[str, Any]) -> dict[str, Any]:
    return {" ".join(k.split()).casefold(): v for k, v in choices.items()}


@dataclass(eq=False)
class Rule:
    action: str
    templates: tuple[str, ...]
    constants: dict[str, Any]
    choices: dict[str, Mapping[str, Any]]
    post: Post | None = None
    priority: int = 0
    _compiled: dict[tuple, list[tuple[re.Pattern, list[_Slot]]]] = field(default_factory=dict)
    """Per known names: each template as known-names-only, then with free words for the rest."""

    def __init__(
        self,
        action: str,
        *templates: str,
        post: Post | None = None,
        priority: int = 0,
        **parameters: Any,
    ) -> None:
        self.action = action
        self.templates = templates
        self.choices = {k: _fold(v) for k, v in parameters.items() if isinstance(v, Mapping)}
        self.constants = {k: v for k, v in parameters.items() if not isinstance(v, Mapping)}
        self.post = post
        self.priority = priority
        self._compiled = {}
        self.name_kinds = tuple(
            sorted(
                {
                    kind or name
                    for t in templates
                    for name, kind in _SLOT_RE.findall(t)
                    if (kind or name) not in SLOTS and (kind or name) not in self.choices
                }
            )
        )

    def _compile(self, context: Context) -> list[tuple[re.Pattern, list[_Slot]]]:
        key = tuple(tuple(context.get(kind, ())) for kind in self.name_kinds)
        compiled = self._compiled.get(key)
        if compiled is None:
            passes = (False, True) if any(key) else (True,)
            compiled = [self._compile_template(t, context, g) for g in passes for t in self.templates]
            if len(self._compiled) > 32:
                self._compiled.clear()
            self._compiled[key] = compiled
        return compiled

    def _compile_template(
        self, template: str, context: Context, generic: bool
    ) -> tuple[re.Pattern, list[_Slot]]:
        slots: list[_Slot] = []

        def slot(match: re.Match) -> str:
            name, kind = match.group(1), match.group(2) or match.group(1)
            group = f"s{len(slots)}"
            if kind in self.choices:
                slots.append(_Slot(name, kind, choices=self.choices[kind]))
                return f"(?P<{group}>{_choice_pattern(self.choices[kind])})"
            if kind in SLOTS:
                slots.append(_Slot(name, kind, convert=SLOTS[kind].convert))
                return f"(?P<{group}>{SLOTS[kind].pattern})"
            slots.append(_Slot(name, kind))
            before, after = NAME_FILLERS.get(kind, DEFAULT_FILLERS)
            names = name_pattern(context.get(kind, ()), generic)
            return f"{before}(?P<{group}>{names}){after}"

        spaced = template.replace(" ?", r"\s*").replace(" ", r"\s+")
        pattern = _SLOT_RE.sub(slot, spaced)
        return re.compile(pattern, re.IGNORECASE), slots

    def match(self, clause: str, context: Context) -> dict[str, Any] | None:
        """The wire command this clause means under this rule, or None."""
        for pattern, slots in self._compile(context):
            found = pattern.fullmatch(clause)
            if found is None:
                continue
            try:
                values = self._fill(found, slots, context)
            except (NoMatch, ValueError):
                continue
            return {"action": self.action, **values}
        return None

    def _fill(self, found: re.Match, slots: list[_Slot], context: Context) -> dict[str, Any]:
        values: dict[str, Any] = dict(self.constants)
        for index, slot in enumerate(slots):
            text = found.group(f"s{index}")
            if text is None:
                continue
            if slot.choices is not None:
                values[slot.field] = slot.choices[" ".join(text.split()).casefold()]
            elif slot.convert is not None:
                values[slot.field] = slot.convert(text)
            else:
                values[slot.field] = _resolve(text, context.get(slot.kind, ()))
        return self.post(values) if self.post else values


def _resolve(text: str, known: Sequence[str]) -> str:
    text = text.strip()
    quoted = len(text) >= 2 and text[0] == text[-1] and text[0] in "'\""
    if quoted:
        text = text[1:-1]
    if not known:
        if not quoted and _NUMERIC.fullmatch(text):
            raise NoMatch(text)  # "zoom to 0" is a bad zoom, not a layer named "0"
        return text
    match = resolve_name(text, known)
    if match.found is not None:
        return match.found
    if not quoted and len(text.split()) <= MAX_WORDS_AROUND_NAME:
        mentioned = [n for n in known if re.search(rf"(?<!\w){re.escape(n)}(?!\w)", text, re.I)]
        if len(mentioned) == 1:
            return mentioned[0]  # "the python console" names "console"
    raise NoMatch(text)
