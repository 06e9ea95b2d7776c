"""The grammar as data: the canonical phrasings every rule reads, with their slots.

A rule's templates are regular expressions with ``{field:kind}`` slots (:mod:`..rules.rule`). Walking a
template's parse tree and taking one branch of each alternation, one choice of each optional part,
gives a sentence the parser reads exactly: a *canonical phrasing*. Word-map slots ("{op}" of
hide/show/...) are filled with one of their words, so "conceal {layers}" and "hide {layers}" are
two phrasings of the same command; value slots stay slots ("set opacity of {layers} to {share}").

The phrasings are the meeting point of everything that sits after the parser
(:mod:`.rephrase` maps a free line onto them); they come from the rules themselves, so a new rule
or word brings its phrasings with it and nothing is written twice.
"""

from __future__ import annotations

import importlib
import random
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..rules.rule import _SLOT_RE
from ..rules.tokens import SLOTS

if TYPE_CHECKING:
    from ..contract.registry import Registry
    from ..rules.rule import Rule


def _regex_parser() -> Any:
    """Python's own parser of regular expressions (``re._parser``; ``sre_parse`` before 3.11)."""
    try:
        return importlib.import_module("re._parser")
    except ImportError:  # pragma: no cover
        return importlib.import_module("sre_parse")


sre_parse = _regex_parser()

_SLOT_MARK = "qqslot{}qq"
_MARK_RE = re.compile(r"qqslot(\d+)qq")
_MAX_REPEAT = 2
SAMPLES_PER_TEMPLATE = 6
"""Random walks per template beside the shortest one: enough to meet most words of its
alternations without the bank growing past a few thousand phrasings."""


@dataclass(frozen=True)
class Slot:
    """A value the phrasing leaves open: its command field and its kind (a name kind such as
    ``layers``, or a value kind of :mod:`..rules.tokens` such as ``number`` or ``text``)."""

    field: str
    kind: str


@dataclass(frozen=True)
class Phrasing:
    """One canonical sentence of a rule: ``text`` holds its slots as ``{0}``, ``{1}``, ... in order."""

    action: str
    text: str
    slots: tuple[Slot, ...]

    def filled(self, values: Sequence[str]) -> str:
        return self.text.format(*values)


def phrasings(registry: Registry, samples: int = SAMPLES_PER_TEMPLATE, seed: int = 0) -> list[Phrasing]:
    """Every rule's canonical phrasings, deduplicated, in the registry's order (reproducible: each
    template's walks are seeded by the template itself, so a rule added or changed elsewhere leaves
    every other rule's phrasings as they were)."""
    seen: set[tuple[str, str]] = set()
    found = []
    for rule in registry.rules:
        for template in rule.templates:
            rng = random.Random(f"{seed}:{rule.action}:{template}")
            for phrasing in _of_template(rule, template, samples, rng):
                key = (phrasing.action, phrasing.text)
                if key not in seen:
                    seen.add(key)
                    found.append(phrasing)
    return found


def _of_template(rule: Rule, template: str, samples: int, rng: random.Random) -> Iterable[Phrasing]:
    slots: list[tuple[str, str]] = []

    def to_mark(match: re.Match) -> str:
        field, kind = match.group(1), match.group(2) or match.group(1)
        slots.append((field, kind))
        return _SLOT_MARK.format(len(slots) - 1)

    marked = _SLOT_RE.sub(to_mark, template)
    try:
        tree = sre_parse.parse(marked)
    except re.error:  # a template only the rule's own compiler understands: no phrasing from it
        return
    walks = [_walk(tree, None)] + [_walk(tree, rng) for _ in range(samples)]
    for walked in walks:
        text, open_slots = _fill(" ".join(walked.split()), slots, rule, rng)
        if text:
            yield Phrasing(rule.action, text, tuple(open_slots))


def _fill(
    walked: str, slots: list[tuple[str, str]], rule: Rule, rng: random.Random
) -> tuple[str, list[Slot]]:
    """The walked sentence with word-map slots given one of their words and value slots numbered."""
    open_slots: list[Slot] = []

    def replace(match: re.Match) -> str:
        field, kind = slots[int(match.group(1))]
        words = rule.choices.get(field) or rule.choices.get(kind)
        if words:
            return rng.choice(sorted(words))
        open_slots.append(Slot(field, kind))
        return "{" + str(len(open_slots) - 1) + "}"

    text = _MARK_RE.sub(replace, walked.replace("{", "{{").replace("}", "}}"))
    return text.strip(), open_slots


def _walk(tree: Any, rng: random.Random | None) -> str:
    """One sentence of a parsed regular expression: with ``rng`` None, the shortest (first branch,
    no optional part); else a random branch and a coin for each optional part."""
    out = []
    for op, value in tree:
        name = str(op)
        if name == "LITERAL":
            out.append(chr(value))
        elif name == "NOT_LITERAL" or name == "ANY":
            out.append("x")
        elif name == "IN":
            out.append(_one_of_set(value))
        elif name == "BRANCH":
            branches = value[1]
            out.append(_walk(branches[0] if rng is None else rng.choice(branches), rng))
        elif name == "SUBPATTERN":
            out.append(_walk(value[-1], rng))
        elif name in ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT"):
            low, high, inner = value
            if rng is None:
                times = low
            else:
                most = min(max(low, 1), _MAX_REPEAT)
                times = low if low > 0 and rng.random() < 0.7 else rng.randint(low, most)
                if low == 0 and high == 1:
                    times = int(rng.random() < 0.5)
            out.append("".join(_walk(inner, rng) for _ in range(times)))
        elif name == "ATOMIC_GROUP":
            out.append(_walk(value, rng))
        # AT (anchors), ASSERT, ASSERT_NOT, GROUPREF: no text of their own
    return "".join(out)


def _one_of_set(items: Any) -> str:
    for op, value in items:
        name = str(op)
        if name == "LITERAL":
            return chr(value)
        if name == "RANGE":
            return chr(value[0])
        if name == "CATEGORY":
            return " " if "SPACE" in str(value) else ("1" if "DIGIT" in str(value) else "a")
    return "x"


def is_value_kind(kind: str) -> bool:
    """Whether a slot holds a value (a number, a point, text) rather than a name of something."""
    return kind in SLOTS
