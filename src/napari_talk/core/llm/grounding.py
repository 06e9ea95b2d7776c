"""Whether a model's command says only what the line says: a small model fills a parameter it was
not given from the context (a layer nobody named, a number nobody typed, the word "string" copied
from a signature). Such a command is refused, not run: wrong is worse than not understood.

- A value that names a live object (a layer, a glass, a segment, ...) must be named in the line,
  loosely (a unique part, a slip of the keyboard), or the line must point at it: a pronoun ("it",
  "them", "this one"), "selected", "current", or the colour or kind the context shows it by ("the
  blue blobs").
- When the line says numbers, every number of the command is one of them, or one of them as a share
  ("30%" is 0.3) or with its sign turned. A line with no number leaves the model free ("zoom in a
  bit").
- A number the command needs (a required parameter) comes from the line: a line with no number
  and no word of quantity ("a bit", "closer", "more") gives the model none to invent ("hold on,
  my coffee is getting cold" is no zoom box).
- No value is a JSON type's name ("string", "number"): that is a signature copied, not a value;
  nor the road's own hint of the names a line holds: that is the prompt copied, not the line.
- What the line names is acted on: a reply that leaves out a live object the line names ("rotate
  Wedge B 10 degrees" answered by turning the view) says something else; a pronoun or a
  description points at an unnamed object only in a line that names none.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from ..rules.tokens import every_number
from .prompt import HINT_OPENING

POINTING = re.compile(
    r"\b(?:it|its|them|they|this|that|these|those|selected|current|active|same|one|ones|all|every|each)\b"
)
"""Words by which a line points at something it does not name."""
DESCRIBING = re.compile(
    r"\b(?:red|green|blue|cyan|magenta|yellow|gr[ae]y|white|black|orange|purple|pink|bright|dim|dark|"
    r"image|images|points|dots|spots|blobs|labels|mask|masks|shapes|surface|mesh|tracks|vectors|"
    r"top|bottom|first|last|new|old|other)\b"
)
"""Words by which a line describes a layer as the context shows it (colour, kind, place)."""
PLACEHOLDERS = frozenset({"string", "number", "integer", "boolean", "array", "object", "null", "name"})
LOOSE = 0.8
"""How alike (letter by letter) a word of the line and a word of a name must be."""


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+", text.casefold())


def named(name: str, line: str) -> bool:
    """Whether ``line`` names ``name``: the whole name, or each of its words (nearly) in the line, or
    a word of the line that is a unique-looking part of it."""
    folded, wanted = line.casefold(), name.casefold().strip()
    if not wanted:
        return False
    if wanted in folded:
        return True
    said = _words(line)
    parts = _words(wanted)
    if parts and all(
        any(w == p or difflib.SequenceMatcher(None, w, p).ratio() >= LOOSE for w in said) for p in parts
    ):
        return True
    return any(len(w) >= 3 and w in parts for w in said)


def _numbers(value: Any) -> Iterable[float]:
    if isinstance(value, bool):
        return
    if isinstance(value, int | float):
        yield float(value)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from _numbers(item)


def _strings(value: Any) -> Iterable[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, list | tuple):
        for item in value:
            yield from _strings(item)


def _near(value: float, said: Sequence[float]) -> bool:
    for n in said:
        for candidate in (n, -n, n / 100, -n / 100):
            if abs(candidate - value) <= 1e-6 + 0.01 * abs(candidate):
                return True
    return False


def mentioned(line: str, live: Iterable[str]) -> list[str]:
    """The live names ``line`` says whole (as words, without case)."""
    folded = f" {' '.join(_words(line))} "
    return [n for n in live if _words(n) and f" {' '.join(_words(n))} " in folded]


def left_out(wires: Sequence[Mapping[str, Any]], line: str, live: Iterable[str]) -> str | None:
    """The live name ``line`` says that no command of the reply acts on, if any."""
    used = {text.strip().casefold() for wire in wires for v in wire.values() for text in _strings(v)}
    for name in mentioned(line, live):
        if name.casefold() not in used:
            return f"the line names {name!r}, which the reply does not act on"
    return None


QUANTITY = re.compile(
    r"\b(?:bit|little|lot|tad|touch|more|less|fewer|closer|further|farther|bigger|smaller|larger|much|"
    r"lots|way|slightly|somewhat|heaps|tons)\b"
)
"""Words that say how much without a number: the model may choose one."""


def invented(wire: Mapping[str, Any], line: str, required: Iterable[str]) -> str | None:
    """The required parameter of ``wire`` holding a number ``line`` gives no ground for, if any."""
    if every_number(line) or QUANTITY.search(line.casefold()):
        return None
    for key in required:
        if any(True for _ in _numbers(wire.get(key))):
            return f"the line gives no number for {key}"
    return None


def ungrounded(wire: Mapping[str, Any], line: str, live: Iterable[str]) -> str | None:
    """Why the command ``wire`` says something ``line`` does not (None: it says only what the line
    says). ``live``: the names of the objects in play."""
    live = list(live)
    live_names = {n.casefold(): n for n in live if n}
    folded = line.casefold()
    # a pronoun or a description points at something only when the line names nothing itself
    pointing = not mentioned(line, live) and bool(POINTING.search(folded) or DESCRIBING.search(folded))
    said = every_number(line)
    for key, value in wire.items():
        if key == "action":
            continue
        for text in _strings(value):
            if text.strip().casefold() in PLACEHOLDERS:
                return f"{key} is {text!r}, a placeholder"
            if HINT_OPENING.casefold() in text.casefold():
                return f"{key} copies the prompt, not the line"
            name = live_names.get(text.strip().casefold())
            if name is not None and not named(name, line) and not pointing:
                return f"the line does not name {name!r}"
        if said:
            for number in _numbers(value):
                if not _near(number, said):
                    return f"the line does not say {number:g}"
    return None
