"""A free line mapped onto the grammar's canonical phrasings, for the parser to read.

The parser reads a controlled language exactly (:mod:`.canonical`). A line it does not read ("I'd
rather not see the atrium mask", "gimme the heart in magma") is compared, meaning for meaning, with
every canonical phrasing: both embedded by a sentence model with their values put aside (names,
numbers, quoted text and paths read as what they are, "a layer", "2", "a file"). The nearest
phrasings whose slots the line's own values fill, each value used once, are filled and handed back
to the parser, so validation, name resolution, consent and grounding stay the parser's. Only a
reading clearly nearer than any other command's is kept, and the session offers it to the person
("Did you mean …?") rather than running it: a wrong action is worse than none.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, get_args, get_origin

import numpy as np
from pydantic import BaseModel

from ..rules.lookup import CLOSE, OPEN, SEP, SPACE, mark
from ..rules.text import quoted_spans, separators
from ..rules.tokens import NUMBER
from .canonical import Phrasing, Slot, phrasings

if TYPE_CHECKING:
    from ..contract.registry import Registry

Embed = Callable[[Sequence[str]], np.ndarray]
"""Texts to unit-length rows (one per text)."""

NEAR_ENOUGH = 0.75
"""A phrasing must be at least this near the line (cosine) to be read..."""
CLEAR_BY = 0.04
"""...and this much nearer than the nearest phrasing of another command that the line's values fill."""
VALUE_LIST = 5
"""A field whose ``Literal`` allows this many values holds a value from a list (an edge's compass
label, a primitive); one of fewer holds an operation (hide/show/toggle), a way of asking."""
LOGIC_WORDS = frozenset((
    "not", "n't", "no", "never", "nothing", "except", "but", "only", "just", "alone", "every", "all",
    "others", "rest", "twice", "thrice", "double", "half", "triple", "times",
))  # fmt: skip
"""Words that turn any request into another ("not", "except", "twice"): a line and its canonical
reading must say the same of them. Words that choose a value of one command ("clockwise" for a
rotation, "up" for a pan) are held the same way, command by command, from its rules' word maps."""
_PLAIN = """
    the a an and or of to in on at by for with from into onto as is are was were be been being it its
    this that these those me my mine you your we our us they them their what which who whom whose there
    here have has had does did done doing will would could should shall might must can may about over
    under again then than when where while also very really please thanks thank some any each much many
    such quite rather still even well like want need would just going make made take give gimme show tell
    moment right left now today time bit little"""
PLAIN_WORDS = frozenset(_PLAIN.split())
"""Words too plain to tell what a line is about, whichever commands' phrasings hold them."""
COMMON = frozenset(["the", "a", "an", "my", "this", "that", "it", "its", "right", "left", "up", "down"])
"""Words that begin names ("The Shallows", "right leg") but are, alone, only words."""
_WORDS = re.compile(r"[a-z]+|n't", re.IGNORECASE)
_MARKED = re.compile(f"{OPEN}([^{SEP}]*){SEP}([^{CLOSE}]*){CLOSE}")
_PATH = re.compile(r"(?<![\w/.-])(?:[\w.-]+/)+[\w.-]+|(?<![\w/.-])[\w-]+\.[A-Za-z][A-Za-z0-9]{0,4}\b")
_NUMBER = re.compile(rf"(?<![\w.]){NUMBER}(?:\s*%)?")
_COUNTS = {"point": 2, "pair": 2, "range": 2, "grid_point": 2, "box": 4, "axis_box": 4, "labelled_box": 4}
_NUMERIC = {"number", "int", "scale", "amount", "share", "times"}
CORE_NOUNS = {"layers": "layer", "panels": "panel", "path": "file", "text": "something", "word": "something"}
"""The plain noun a kind of name or slot is read as; each pack adds its own kinds' (``Pack(nouns=...)``)."""


@dataclass
class Values:
    """What a line says besides its words: names by kind, numbers, quoted text and paths, in order."""

    names: list[tuple[frozenset[str], str]] = field(default_factory=list)
    numbers: list[str] = field(default_factory=list)
    quoted: list[str] = field(default_factory=list)
    paths: list[str] = field(default_factory=list)
    bare: str = ""
    """The line with each value replaced by what it is ("hide the layer", "zoom to 2")."""
    line: str = ""
    """The line as typed."""


def values_of(
    line: str,
    context: Mapping[str, Sequence[str]],
    common_words: frozenset[str] = frozenset(),
    nouns: Mapping[str, str] = CORE_NOUNS,
) -> Values:
    """The line's values, each name left as the noun of its kind (``nouns``); a name said as one of
    ``common_words`` alone (a word of the phrasings, or "the") is taken as that word, not as the
    name it begins."""
    found = Values(line=line)
    quotes = quoted_spans(line)
    for start, end in quotes:
        found.quoted.append(line[start + 1 : end - 1])
    text = line
    for start, end in reversed(quotes):
        text = text[:start] + " something " + text[end:]

    def path(match: re.Match) -> str:
        found.paths.append(match.group())
        return " file "

    text = _PATH.sub(path, text)
    marked = mark(text, {k: v for k, v in context.items() if v})

    def name(match: re.Match) -> str:
        kinds = frozenset(match.group(1).split(","))
        typed = match.group(2).replace(SPACE, " ")
        whole = any(typed.casefold() == n.casefold() for kind in kinds for n in context.get(kind, ()))
        if typed.casefold() in common_words and not whole:  # "the" of "The Shallows", "right" of "right leg"
            return typed
        found.names.append((kinds, typed))
        return " " + nouns.get(sorted(kinds)[0], "thing") + " "

    text = _MARKED.sub(name, marked)

    def number(match: re.Match) -> str:
        found.numbers.append(match.group())
        return " 2 "

    text = _NUMBER.sub(number, text)
    found.bare = " ".join(text.split())
    return found


def bare_phrasing(phrasing: Phrasing, nouns: Mapping[str, str] = CORE_NOUNS) -> str:
    """A phrasing as :func:`values_of` leaves a line: each slot read as what it holds."""
    words = []
    for slot in phrasing.slots:
        count = _COUNTS.get(slot.kind, 1)
        numeric = slot.kind in _NUMERIC or slot.kind in _COUNTS
        words.append(" ".join(["2"] * count) if numeric else nouns.get(slot.kind, "thing"))
    return " ".join(phrasing.filled(words).split())


def fill(phrasing: Phrasing, values: Values, fillers: Mapping[str, str] | None = None) -> str | None:
    """The phrasing with its slots filled by the line's values, every value used exactly once; None
    when they do not fit (a slot left empty, or a value the phrasing has no place for). A name fills
    a slot of its own kind, or one whose kind ``fillers`` says a name of its kind fills."""
    names = list(values.names)
    numbers = list(values.numbers)
    quoted = list(values.quoted)
    paths = list(values.paths)
    filled = []
    for slot in phrasing.slots:
        value = _take(slot, names, numbers, quoted, paths, fillers or {})
        if value is None:
            return None
        filled.append(value)
    if names or numbers or quoted or paths:
        return None
    return phrasing.filled(filled)


def _take(
    slot: Slot,
    names: list,
    numbers: list[str],
    quoted: list[str],
    paths: list[str],
    fillers: Mapping[str, str],
) -> str | None:
    kind = slot.kind
    if kind in _NUMERIC or kind in _COUNTS:
        count = _COUNTS.get(kind, 1)
        if len(numbers) < count:
            return None
        taken = [numbers.pop(0) for _ in range(count)]
        return " ".join(taken) if kind != "point" else f"({taken[0]}, {taken[1]})"
    if kind == "path":
        if paths:
            return paths.pop(0)
        if quoted:
            return f"'{quoted.pop(0)}'"
        return None
    if kind in ("text", "word"):
        return f"'{quoted.pop(0)}'" if quoted else None
    for index, (kinds, typed) in enumerate(names):
        if kind in kinds or fillers.get(kind) in kinds:
            del names[index]
            return typed
    return None


@dataclass(frozen=True)
class Reading:
    """The canonical line a free line was read as, its command, and how near it was."""

    canonical: str
    action: str
    similarity: float
    runner_up: float


def _signature(phrasing: Phrasing) -> tuple[int, int, int, int]:
    """How many names, numbers, quoted texts and paths a phrasing's slots take: a line fills only
    phrasings that take exactly what it says."""
    names = numbers = quoted = paths = 0
    for slot in phrasing.slots:
        if slot.kind in _NUMERIC or slot.kind in _COUNTS:
            numbers += _COUNTS.get(slot.kind, 1)
        elif slot.kind == "path":
            paths += 1
        elif slot.kind in ("text", "word"):
            quoted += 1
        else:
            names += 1
    return (names, numbers, quoted, paths)


class Rephraser:
    """The canonical phrasings embedded once; :meth:`read` finds the one a line means."""

    def __init__(self, registry: Registry, embed: Embed) -> None:
        self.phrasings = phrasings(registry)
        self._commands: Mapping[str, type[BaseModel]] = registry.commands
        self._choices: dict[str, dict[str, Any]] = {}
        """Per command, every word of its rules' word maps and the value it stands for."""
        for rule in registry.rules:
            words = self._choices.setdefault(rule.action, {})
            for field_name, choices in rule.choices.items():
                words.update({phrase: (field_name, value) for phrase, value in choices.items()})
        self.embed = embed
        self._nouns = {**CORE_NOUNS, **registry.nouns}
        self._fillers = registry.slot_fillers
        self.vectors = embed([bare_phrasing(p, self._nouns) for p in self.phrasings])
        self._by_signature: dict[tuple[int, int, int, int], list[int]] = {}
        vocabulary: dict[str, set[str]] = {}
        for index, phrasing in enumerate(self.phrasings):
            self._by_signature.setdefault(_signature(phrasing), []).append(index)
            for word in _WORDS.findall(phrasing.text.casefold()):
                vocabulary.setdefault(word, set()).add(phrasing.action)
        placeholders = {*self._nouns.values(), "thing"}
        self._vocabulary = {w: a for w, a in vocabulary.items() if w not in placeholders}
        self._telling = {w: a for w, a in self._vocabulary.items() if len(w) > 3 and w not in PLAIN_WORDS}
        """The grammar's words that tell what a line is about ("concept", "through", "opacity"):
        a reading whose command never uses one the line says is not kept ("give me concept images
        of the rover" is no "show only rover"; "see through the nuclei" no "see the whole nuclei")."""
        self._common = frozenset(self._vocabulary) | COMMON

    def read(
        self, line: str, context: Mapping[str, Sequence[str]], parses: Callable[[str], list[dict[str, Any]]]
    ) -> Reading | None:
        """The canonical line ``line`` means, if one is clearly nearest; ``parses(text)`` gives the
        wire commands the parser reads in a text (the reading must give exactly one, of its
        phrasing's command, and invent no value the line does not say)."""
        values = values_of(line, context, self._common, self._nouns)
        if not values.bare or separators(line):
            return None  # a chain of requests is read clause by clause by the parser, or by a model
        said = (len(values.names), len(values.numbers), len(values.quoted), len(values.paths))
        candidates = self._by_signature.get(said)
        if not candidates:
            return None
        scores = self.vectors[candidates] @ self.embed([values.bare])[0]
        best: tuple[float, Phrasing, str] | None = None
        for at in np.argsort(-scores):
            phrasing, score = self.phrasings[candidates[at]], float(scores[at])
            if score < NEAR_ENOUGH - CLEAR_BY and best is None:
                return None
            if best is not None and phrasing.action == best[1].action:
                continue
            canonical = fill(phrasing, values, self._fillers)
            if canonical is None or not self._agrees(values, canonical, phrasing):
                continue
            if best is not None:
                return self._kept(best, score)
            read = parses(canonical)
            if [c.get("action") for c in read] == [phrasing.action] and not self._invents(read[0], values):
                best = (score, phrasing, canonical)
        return self._kept(best, 0.0) if best is not None else None

    @staticmethod
    def _kept(best: tuple[float, Phrasing, str], runner_up: float) -> Reading | None:
        score, phrasing, canonical = best
        if score < NEAR_ENOUGH or score - runner_up < CLEAR_BY:
            return None
        return Reading(canonical, phrasing.action, score, runner_up)

    def _agrees(self, values: Values, canonical: str, phrasing: Phrasing) -> bool:
        """The reading says what the line says of the words that turn a request into another (of
        those its command's phrasings use), and says no word of the grammar its command never uses."""
        action = phrasing.action
        said = {w.casefold() for w in _WORDS.findall(values.bare)}
        if _logic(values.bare) != _logic(canonical):
            return False
        choices = self._choices.get(action, {})
        if not _chosen(values.bare, choices) <= _chosen(canonical, choices):
            return False
        return not any(action not in self._telling.get(w, {action}) for w in said)

    def _invents(self, wire: Mapping[str, Any], values: Values) -> bool:
        """Whether the reading holds a value the line never said: a word from a list of values (an
        edge label, a primitive, a colormap) that the phrasing chose, where an operation of a few
        ("hide" for "lose the scale bar") is a way of asking and may differ from the line's words."""
        said = [values.line.casefold(), *(typed.casefold() for _, typed in values.names)]
        numbers = [float(n) for text in values.numbers for n in re.findall(NUMBER, text)]
        model = self._commands.get(str(wire.get("action")))
        for key, value in wire.items():
            if key == "action":
                continue
            if any(not _said(n, numbers) for n in _numbers(value)):
                return True  # a number the phrasing brought ("opaque" is 1.0), not one the line said
            if not isinstance(value, str):
                continue
            folded = value.casefold()
            if any(_as_words(folded, text) or text in folded for text in said if text):
                continue
            options = _literal_options(model, key)
            if options is None or len(options) >= VALUE_LIST:
                return True
        return False


def _as_words(value: str, text: str) -> bool:
    """Whether ``text`` says ``value`` as whole words: the edge label "s" is not said by "slip"."""
    return re.search(rf"(?<!\w){re.escape(value)}(?!\w)", text) is not None


def _numbers(value: Any) -> list[float]:
    """The numbers a wire value holds (a number, or a list of them); names are not numbers."""
    if isinstance(value, bool):
        return []
    if isinstance(value, (int, float)):
        return [float(value)]
    if isinstance(value, (list, tuple)):
        return [n for item in value for n in _numbers(item)]
    return []


def _said(number: float, said: Sequence[float]) -> bool:
    """Whether the line said this number: as it is, as a percentage ("30%" is 0.3) or with the sign
    a direction gave it ("10 degrees clockwise" is -10)."""
    return any(abs(abs(number) - abs(x)) < 1e-6 or abs(abs(number) - abs(x) / 100) < 1e-6 for x in said)


def _literal_options(model: type[BaseModel] | None, field: str) -> tuple[Any, ...] | None:
    """The values a field's ``Literal`` type allows (through ``Optional``), or None."""
    if model is None or field not in model.model_fields:
        return None
    annotation = model.model_fields[field].annotation
    for candidate in (annotation, *get_args(annotation)):
        if get_origin(candidate) is Literal:
            return get_args(candidate)
    return None


def _logic(text: str) -> frozenset[str]:
    return frozenset(w.casefold() for w in _WORDS.findall(text) if w.casefold() in LOGIC_WORDS)


def _chosen(text: str, choices: Mapping[str, Any]) -> set[Any]:
    """The word-map values ``text`` says, each phrase matched whole and the longest first
    ("counter clockwise" is not also "clockwise")."""
    folded = " ".join(_WORDS.findall(text.casefold()))
    found = set()
    for phrase in sorted(choices, key=len, reverse=True):
        pattern = r"(?<![\w\x00])" + re.escape(" ".join(_WORDS.findall(phrase))) + r"(?![\w\x00])"
        if phrase and re.search(pattern, folded):
            found.add(repr(choices[phrase]))
            folded = re.sub(pattern, "\x00", folded)
    return found
