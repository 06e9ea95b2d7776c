"""Grammar rules: readable templates that build wire commands.

A template is a regular expression in which a space means "some white space" (`` ?`` "maybe
some") and
``{field:kind}`` is a slot filled into the command's ``field``. A slot's kind is one of the value
kinds of :mod:`.tokens` (``number``, ``scale``, ``point``, ``box``, ``text``, ...), the name of a
keyword argument holding a word map (``op=VISIBILITY`` maps "hide"/"unhide"/... to values), or the
kind of names the session knows (``layers``, ``panels``, ...), resolved case-insensitively to their
real spelling. ``{field}`` alone means ``{field:field}``. Keyword arguments that are not word maps
are constants of the command.

    Rule(LayerVisibility, "{op} {name:layers}", op={"hide": "hide", "show": "show"})

A rule names its command class, so the registry checks, when a pack joins, that each rule's
command is one of that pack's commands and each command is read by a rule or says why not.
"""

from __future__ import annotations

import contextlib
import gc
import itertools
import re
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from . import factor
from .lookup import SEP, SPACE, SomeNames, is_marked, known, mark, unmark
from .names import resolve_name
from .tokens import NUMBER, SLOTS, NoMatch, name_pattern

_NUMERIC = re.compile(rf"{NUMBER}\s*%?")
_SLOT_RE = re.compile(r"\{(\w+)(?::(\w+))?\}")
_THE_BEFORE_SLOT = re.compile(r"\(\?:the \)\?\{(\w+)(?::(\w+))?\}")
_COMPILING = threading.Lock()
"""One rule compiled at a time: a thread that needs a pass another is compiling waits for it
(without the GIL) instead of compiling it again beside it, which starved the GUI thread."""


@contextlib.contextmanager
def _uncollected() -> Iterator[None]:
    """No garbage collection while a pass compiles. Its parse tree lives only until the pattern is
    made; a collection meanwhile moves it to the oldest generation, and enough of that sets off a
    full collection, which holds the GIL while it scans the whole heap (a stalled GUI, seconds in a
    loaded process). The tree holds no cycles: reference counting frees it all the same."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


NAME_FILLERS: dict[str, tuple[str, str]] = {
    "layers": (
        r"(?:the\s+)?(?:(?:layer|channel|image)\s+(?:named\s+|called\s+)?)?",
        r"(?:\s+(?:layer|channel|image))?",
    ),
    "panels": (r"(?:the\s+)?", r"(?:\s+(?:panel|dock|widget|window|pane))?"),
}
DEFAULT_FILLERS = (r"(?:the\s+)?", "")
_rule_ids = itertools.count()

MAX_WORDS_AROUND_NAME = 3
MAX_PATTERN = 30_000
"""A pass's alternation longer than this is compiled with the shared text of its templates written
once (:mod:`.factor`): a rule of many variants of a few sentences ("rays at 10 to 20 degrees to"
each way of naming an edge) would otherwise be hundreds of thousands of characters, a second or
more to compile."""
MAX_RUN = 16
"""At most this many templates in one factored branch: when it fits, they are tried alone in order."""
if TYPE_CHECKING:
    from ..basics.commands import Command

Context = Mapping[str, Sequence[str]]
Post = Callable[[dict[str, Any]], dict[str, Any]]


@dataclass(frozen=True, eq=False)
class _Slot:
    field: str
    kind: str
    convert: Callable[[str], Any] | None = None
    choices: Mapping[str, Any] | None = None


class _Alone:
    """A template's regex on its own, compiled on first use: only a line that fits a template
    but means nothing there tries the next ones alone, so most are never needed."""

    __slots__ = ("_compiled", "source")

    def __init__(self, source: str) -> None:
        self.source = source
        self._compiled: re.Pattern | None = None

    def fullmatch(self, text: str) -> re.Match | None:
        if self._compiled is None:
            self._compiled = re.compile(self.source, re.IGNORECASE)
        return self._compiled.fullmatch(text)


_Template = tuple[_Alone, list[_Slot], str]
"""A template alone, its slots, and the prefix of its group names."""
_Branch = tuple[str, int, int]
"""A branch of a pass's alternation: its group's name, and the templates it stands for (a range)."""


@dataclass(frozen=True, eq=False)
class Pass:
    """A rule's templates compiled for some known names: one alternation, and each alone.

    A branch of the alternation is a template, or a run of templates factored into one pattern
    (:mod:`.factor`) that says whether one of them fits, not which fits first."""

    name: str
    generic: bool
    source: str
    combined: re.Pattern
    templates: list[_Template]
    branches: tuple[_Branch, ...]

    def first(self, found: re.Match) -> tuple[int, re.Match | None]:
        """The first template that reads ``found``'s text, and its match of it."""
        for group, start, end in self.branches:
            if found.group(group) is None:
                continue
            if end - start == 1:
                return start, found
            for index in range(start, len(self.templates)):
                alone = self.templates[index][0].fullmatch(found.string)
                if alone is not None:
                    return index, alone
        return len(self.templates), None


def _choice_pattern(choices: Mapping[str, Any]) -> str:
    words = sorted(choices, key=len, reverse=True)
    return "(?:" + "|".join(r"\s+".join(map(re.escape, w.split())) for w in words) + ")"


def _fold(choices: Mapping[str, Any]) -> dict[str, Any]:
    return {" ".join(k.split()).casefold(): v for k, v in choices.items()}


@dataclass(eq=False)
class Rule:
    command: type[Command]
    action: str
    templates: tuple[str, ...]
    constants: dict[str, Any]
    choices: dict[str, Mapping[str, Any]]
    post: Post | None = None
    priority: int = 0
    requires: tuple[str, ...] = ()
    only: Mapping[str, str] = field(default_factory=dict)
    free_names: bool = True
    _passes: dict[bool, Pass] = field(default_factory=dict)
    """The templates compiled with known names only (False) and with free words (True)."""

    def __init__(
        self,
        command: type[Command],
        *templates: str,
        post: Post | None = None,
        priority: int = 0,
        requires: tuple[str, ...] = (),
        only: Mapping[str, str] | None = None,
        free_names: bool = True,
        when: tuple[str, ...] = (),
        unless: tuple[str, ...] = (),
        **parameters: Any,
    ) -> None:
        """``only={"glass_name": "glasses"}``: a template may leave the field out when exactly one
        name of that kind is known ("rays crossing edge N" with one glass in the scene).
        ``free_names=False``: its names must be known (or quoted), never free words: for templates
        with no verb ("only GFP", "GFP and nothing else"), which chat could otherwise fill.
        ``when=("entities",)``: tried only while names of that kind are live (a catalogue is in
        play); ``unless=("entities",)``: only while none are. How a pack weighs what is in play:
        "search for a blue ocean scene" is the catalogue's with a catalogue, else the files'."""
        if isinstance(command, str) or not hasattr(command, "action_name"):
            raise TypeError(f"a rule names its command class, not {command!r}")
        self.command = command
        self.action = command.action_name()
        self.only = dict(only or {})
        self.free_names = free_names
        self.when = tuple(when)
        self.unless = tuple(unless)
        self.requires = tuple(word.casefold() for word in requires)
        self._required = re.compile("|".join(map(re.escape, self.requires))) if requires else None
        """Words one of which a clause must contain for this rule to be tried: a cheap first test
        that keeps a pack's grammar from costing anything on lines that are not about it."""
        self.templates = templates
        self.choices = {k: _fold(v) for k, v in parameters.items() if isinstance(v, Mapping)}
        self.constants = {k: v for k, v in parameters.items() if not isinstance(v, Mapping)}
        self.post = post
        self.priority = priority
        self._passes = {}
        self._id = next(_rule_ids)
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

    def compiled(self, context: Context) -> list[Pass]:
        """Known names only first, then (when names are known) free words for the rest. Which
        passes apply depends on which kinds of name are known; what each pass is, on nothing but
        the rule, so each is compiled once."""
        if not self.free_names:
            passes: tuple[bool, ...] = (False,)
        elif any(context.get(kind) for kind in self.name_kinds):
            passes = (False, True)
        else:  # with nothing known to prefer: free words for names, or a rule without names
            passes = (bool(self.name_kinds),)
        return [self._pass(generic) for generic in passes]

    def _pass(self, generic: bool) -> Pass:
        found = self._passes.get(generic)
        if found is None:
            with _COMPILING, _uncollected():
                found = self._passes.get(generic)
                if found is None:
                    found = self._passes[generic] = self._compile_pass(generic)
        return found

    def _compile_pass(self, generic: bool) -> Pass:
        name = f"r{self._id}{'g' if generic else 'k'}"
        sources, templates = [], []
        for index, template in enumerate(self.templates):
            prefix = f"{name}t{index}"
            source, slots = self._template_source(template, generic, prefix)
            sources.append(f"(?P<{prefix}>{source})")
            templates.append((_Alone(source), slots, prefix))
        branches = [(prefix, index, index + 1) for index, (_, _, prefix) in enumerate(templates)]
        if sum(map(len, sources)) > MAX_PATTERN:
            branches, sources = self._factored(generic, name, sources)
        source = "|".join(sources)
        return Pass(name, generic, source, re.compile(source, re.IGNORECASE), templates, tuple(branches))

    def _factored(self, generic: bool, name: str, sources: list[str]) -> tuple[list[_Branch], list[str]]:
        """The alternation's branches with each run of similar templates written as one."""
        items = [factor.items(self._template_source(t, generic, "")[0]) for t in self.templates]
        branches, factored = [], []
        for start, end in factor.runs(items, MAX_RUN):
            if end - start == 1:
                branches.append((f"{name}t{start}", start, end))
                factored.append(sources[start])
            else:
                group = f"{name}f{start}"
                branches.append((group, start, end))
                run = [sequence for sequence in items[start:end] if sequence is not None]  # all, in a run
                factored.append(f"(?P<{group}>{factor.union(run)})")
        return branches, factored

    def _template_source(self, template: str, generic: bool, prefix: str) -> tuple[str, list[_Slot]]:
        """The template's regex; its slots are groups named after ``prefix`` (none without one)."""
        slots: list[_Slot] = []

        def group(pattern: str) -> str:
            return f"(?P<{prefix}s{len(slots)}>{pattern})" if prefix else f"(?:{pattern})"

        def slot(match: re.Match) -> str:
            name, kind = match.group(1), match.group(2) or match.group(1)
            if kind in self.choices:
                found = group(_choice_pattern(self.choices[kind]))
                slots.append(_Slot(name, kind, choices=self.choices[kind]))
                return found
            if kind in SLOTS:
                found = group(SLOTS[kind].pattern)
                slots.append(_Slot(name, kind, convert=SLOTS[kind].convert))
                return found
            before, after = NAME_FILLERS.get(kind, DEFAULT_FILLERS)
            found = f"{before}{group(name_pattern(kind, generic))}{after}"
            slots.append(_Slot(name, kind))
            return found

        def drop_the(match: re.Match) -> str:
            kind = match.group(2) or match.group(1)
            is_name = kind not in SLOTS and kind not in self.choices
            return match.group(0).removeprefix("(?:the )?") if is_name else match.group(0)

        # a name slot reads its own "the": a second one before it only multiplies the ways to fail
        template = _THE_BEFORE_SLOT.sub(drop_the, template)
        spaced = template.replace(" ?", r"\s*").replace(" ", r"\s+")
        return _SLOT_RE.sub(slot, spaced), slots

    def in_play(self, live_kinds: Sequence[str]) -> bool:
        """Whether the rule applies while names of ``live_kinds`` are live (see ``when``)."""
        return all(k in live_kinds for k in self.when) and not any(k in live_kinds for k in self.unless)

    def may_match(self, folded_clause: str) -> bool:
        return self._required is None or self._required.search(folded_clause) is not None

    def match(self, clause: str, context: Context) -> dict[str, Any] | None:
        """The wire command this clause means under this rule, or None."""
        if not self.may_match(clause.casefold()):
            return None
        marked = mark(clause, context)
        for compiled in self.compiled(context):
            found = compiled.combined.fullmatch(marked) or compiled.combined.fullmatch(clause)
            if found is not None:
                wire = self.complete(clause, found, compiled, context)
                if wire is not None:
                    return wire
        return None

    def complete(
        self, clause: str, found: re.Match, compiled: Pass, context: Context
    ) -> dict[str, Any] | None:
        """The command from a match of ``compiled``'s alternation (also inside a larger regex)."""
        first, match = compiled.first(found)
        if match is not None:
            try:
                return self._wire(match, compiled.templates[first], context)
            except (NoMatch, ValueError):
                pass
        for template in compiled.templates[first + 1 :]:
            # the text fit that template but meant nothing there: let the others try
            alone = template[0].fullmatch(clause)
            if alone is not None:
                try:
                    return self._wire(alone, template, context)
                except (NoMatch, ValueError):
                    continue
        return None

    def _wire(self, found: re.Match, template: _Template, context: Context) -> dict[str, Any]:
        _, slots, prefix = template
        return {"action": self.action, **self._fill(found, slots, prefix, context)}

    def _fill(self, found: re.Match, slots: list[_Slot], prefix: str, context: Context) -> dict[str, Any]:
        values: dict[str, Any] = dict(self.constants)
        for index, slot in enumerate(slots):
            text = found.group(f"{prefix}s{index}")
            if text is None:
                continue
            if slot.choices is not None:
                values[slot.field] = slot.choices[" ".join(unmark(text).split()).casefold()]
            elif slot.convert is not None:
                values[slot.field] = slot.convert(unmark(text))
            else:
                values[slot.field] = _resolve(text, context.get(slot.kind, ()))
        for name, kind in self.only.items():
            if name not in values:
                known = context.get(kind, ())
                if len(known) != 1:
                    raise NoMatch(name)  # which one? the person is asked by the parser's miss
                values[name] = known[0]
        return self.post(values) if self.post else values


_NOT_NAMES = frozenset({"the", "a", "an", "it", "its", "this", "that", "these", "those", "them"})
"""Words that are never a name, unquoted: "the N edge" names no glass called "the"."""
_CLAUSE_WORDS = frozenset((
    "is", "are", "was", "were", "am", "be", "been", "isn't", "aren't", "wasn't", "why", "how", "when",
    "where", "who", "whom", "whose", "does", "do", "did", "doesn't", "don't", "didn't", "should",
    "would", "could", "can", "will", "shall", "might", "must", "not", "i", "i'm", "you", "we", "they",
    "he", "she", "it",
))  # fmt: skip
"""Words that, first in a run of words, make it a question or a sentence, not a name: "is GFP" (in
"is GFP at 75% transparency?") names no layer, though it mentions one; a quoted name may hold them."""


def _says_something(text: str) -> bool:
    return text.split(maxsplit=1)[0].casefold() in _CLAUSE_WORDS


def _as_typed(text: str, quoted: bool) -> str:
    """Free words as a name, when no name of the kind is known to hold them."""
    if not quoted and (_NUMERIC.fullmatch(text) or text.casefold() in _NOT_NAMES):
        raise NoMatch(text)  # "zoom to 0" is a bad zoom, not a layer named "0"
    if not quoted and " " in text and _says_something(text):
        raise NoMatch(text)  # "why is it 50% transparent" asks; it names no layer "why is it"
    return text


def _resolve(text: str, names: Sequence[str]) -> str:
    text = text.strip()
    if is_marked(text):  # a live name found by lookup: what was typed, the kinds already checked
        typed = text[text.index(SEP) + 1 : -1].replace(SPACE, " ")
        if typed in names:
            return typed
        said = known(names).lookup.said(typed) if typed.strip() else None
        if said is not None:
            return said
        match = resolve_name(typed, names)
        if match.found is None:
            raise NoMatch(typed)
        return match.found
    text = unmark(text)
    quoted = len(text) >= 2 and text[0] == text[-1] and text[0] in "'\""
    if quoted:
        text = text[1:-1]
    if not names:
        return _as_typed(text, quoted)
    if isinstance(names, SomeNames):
        found = resolve_name(text, names).found
        return found if found is not None else _as_typed(text, quoted)
    if not quoted and text.casefold() in _NOT_NAMES:
        raise NoMatch(text)  # "it" is said of a name, it is none: the parser puts the name in its place
    match = resolve_name(text, names)
    if match.found is not None:
        return match.found
    if not quoted and len(text.split()) <= MAX_WORDS_AROUND_NAME and not _says_something(text):
        mentioned = {
            name for a, b, name in known(names).lookup.spans(text) if text[a:b].casefold() == name.casefold()
        }
        if len(mentioned) == 1:
            return mentioned.pop()  # "the python console" names "console"
    raise NoMatch(text)
