"""Slot kinds a grammar template can name, as ``{field:kind}``: a regex and a converter each.

Numbers are read as people type them: ``300%``, ``2x``, ``x2``, ``10,20``, ``(10, 20)``,
``[10, 20]``, ``x=10 y=20``, decimals and negatives.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

NUMBER = r"[-+]?(?:\d+(?:\.\d+)?|\.\d+)(?![\d.])"
_NUMBER_RE = re.compile(r"(?<![\w.])" + NUMBER)
_LABELLED_RE = re.compile(r"\b([xy])\s*[=:]?\s*(" + NUMBER + ")", re.IGNORECASE)
_SEP = r"(?:\s*[,;]\s*|\s+)"
_OPEN, _CLOSE = r"[(\[]?\s*", r"\s*[)\]]?"
_AXIS_LABEL = r"(?:[xy]\s*[=:]?\s*)?"
_PAIR = _OPEN + rf"{_AXIS_LABEL}{NUMBER}{_SEP}{_AXIS_LABEL}{NUMBER}" + _CLOSE
_CORNER_SEP = r"(?:\s*[,;]\s*|\s+(?:-|–|to|and)\s+|\s*[-–]\s*(?=[(\[])|\s+)"
_QUAD = rf"[(\[]?\s*{NUMBER}{_SEP}{NUMBER}{_SEP}{NUMBER}{_SEP}{NUMBER}\s*[)\]]?"
_BOX = rf"(?:from\s+)?(?:{_QUAD}|{_PAIR}{_CORNER_SEP}{_PAIR})"


def trie_pattern(words: Sequence[str]) -> str:
    """An alternation of words as a trie ("t(?:en|hree|wo)"): a slot that holds spelled-out words
    is tried at every word boundary of a free name, so a miss must cost one look at each letter."""
    tree: dict = {}
    for word in words:
        node = tree
        for char in word:
            node = node.setdefault(char, {})
        node[""] = {}

    def walk(node: dict) -> str:
        ends = "" in node
        branches = [re.escape(c) + walk(child) for c, child in sorted(node.items()) if c]
        if not branches:
            return ""
        body = branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"
        if ends:
            return f"(?:{body})?"
        return body

    return walk(tree).replace(r"\ ", r"\s+")


_UNITS = (
    "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
    "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen",
)  # fmt: skip
_TENS = ("twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety")
WORD_VALUES: dict[str, int] = {
    **{w: i for i, w in enumerate(_UNITS)},
    **{w: 20 + 10 * i for i, w in enumerate(_TENS)},
    "hundred": 100,
    "thousand": 1000,
    "a hundred": 100,
    "one hundred": 100,
    "a thousand": 1000,
}
_SCALES = {"hundred": 100, "thousand": 1000, "million": 1_000_000}
_DIGIT_WORDS = trie_pattern(_UNITS[:10])
_NUMBER_WORD = (
    rf"(?:{trie_pattern(_TENS)}(?:[- ]{trie_pattern(_UNITS[1:10])})?|{trie_pattern(_UNITS)}|hundred|thousand)"
)
WORD_NUMBER = (
    rf"\b(?:(?:a|one) (?=hundred|thousand))?{_NUMBER_WORD}"
    rf"(?:(?:[- ]|(?<=hundred) and ){_NUMBER_WORD})*"
    rf"(?: point(?: {_DIGIT_WORDS})+)?\b"
)
"""A number spelled out: "ninety", "seventy-five", "three hundred", "three thousand two hundred",
"one point two". Each word's pattern is written twice, not once per way to join it: number slots
are in many templates, and this is most of their length."""
_WORD_NUMBER_RE = re.compile(WORD_NUMBER, re.IGNORECASE)
FRACTIONS: dict[str, float] = {
    **dict.fromkeys(("half", "a half", "one half"), 0.5),
    **dict.fromkeys(("quarter", "a quarter", "one quarter"), 0.25),
    **dict.fromkeys(("third", "a third", "one third"), round(1 / 3, 6)),
    "three quarters": 0.75,
    "two thirds": round(2 / 3, 6),
    **dict.fromkeys(("fully", "completely", "totally", "entirely", "all the way", "full"), 1.0),
}
_PARTS = {"fifth": 5, "sixth": 6, "eighth": 8, "tenth": 10}
_HOW_MANY_PARTS = {"two": 2, "three": 3, "four": 4}
FRACTIONS |= {f"{a} {part}": round(1 / n, 6) for part, n in _PARTS.items() for a in ("a", "one")}
FRACTIONS |= {
    f"{word} {part}s": round(k / n, 6)
    for part, n in _PARTS.items()
    for word, k in _HOW_MANY_PARTS.items()
    if k < n
}
"""Shares said in words: "to a half", "by half the screen", "fully opaque", "a tenth of the view",
"three fifths"."""
_FRACTION = rf"\b{trie_pattern(list(FRACTIONS))}\b"
MULTIPLES = {"twice": 2.0, "thrice": 3.0, "double": 2.0, "triple": 3.0, "half": 0.5}
"""How many times as much, in one word: "twice as bright", "half as bright"."""


class NoMatch(Exception):
    """A slot's text matched the pattern but does not mean a value of its kind."""


def numbers_in(text: str) -> list[float]:
    return [float(n) for n in _NUMBER_RE.findall(text)]


def every_number(text: str) -> list[float]:
    """The numbers ``text`` says, in digits or in words ("one point three three", "a quarter",
    "twice"), in no particular order."""
    found = numbers_in(text)
    for match in _WORD_NUMBER_RE.finditer(text):
        value = _spelled(match.group())
        if value is not None:
            found.append(value)
    folded = text.casefold()
    found += [v for w, v in {**FRACTIONS, **MULTIPLES}.items() if re.search(rf"\b{w}\b", folded)]
    return found


def _spelled(text: str) -> float | None:
    """The value of a number spelled out in ``text`` ("three hundred and five" → 305), or None."""
    found = _WORD_NUMBER_RE.search(text)
    if found is None:
        return None
    whole, _, fraction = found.group().casefold().replace("-", " ").partition(" point ")
    total = current = 0
    for word in whole.split():
        if word in ("a", "and"):
            current = max(current, 1) if word == "a" else current
            continue
        scale = _SCALES.get(word)
        if scale is None:
            current += WORD_VALUES[word]
        elif scale == 100:
            current = max(current, 1) * 100
        else:
            total += max(current, 1) * scale
            current = 0
    value = float(total + current)
    if fraction:
        value += float("0." + "".join(str(WORD_VALUES[w]) for w in fraction.split()))
    return value


def _value(text: str) -> float:
    """The one number in ``text``, in digits or spelled out."""
    values = numbers_in(text)
    if len(values) == 1:
        return values[0]
    spelled = _spelled(text) if not values else None
    if spelled is None:
        raise NoMatch(text)
    return spelled


_RANGE_JOINT = re.compile(r"\s+(?:to|and)\s+(?=\S)", re.IGNORECASE)


def to_range(text: str) -> list[float]:
    """Two numbers, in digits or words: "100-900", "(100, 900)", "two hundred to three thousand"."""
    values = numbers_in(text)
    if len(values) == 2:
        return values
    parts = [p for p in _RANGE_JOINT.split(text.strip()) if p]
    if len(parts) != 2:
        raise NoMatch(text)
    return [_value(parts[0]), _value(parts[1])]


_ROW = r"(?:rows?|y)"
_COLUMN = r"(?:col(?:umn)?s?|x)"
_TO = r"\s*(?:to|-|–|\.\.|through)\s*"
_AND = r"\s*(?:,|;)?\s*(?:and\s+)?"
_GRID_RE = re.compile(
    rf"(?P<axis>{_ROW}|{_COLUMN})\s*[=:]?\s*(?P<a>{NUMBER})(?:{_TO}(?P<b>{NUMBER}))?", re.IGNORECASE
)
GRID_POINT = (
    rf"(?:{_ROW}\s*[=:]?\s*{NUMBER}{_AND}{_COLUMN}\s*[=:]?\s*{NUMBER}"
    rf"|{_COLUMN}\s*[=:]?\s*{NUMBER}{_AND}{_ROW}\s*[=:]?\s*{NUMBER})"
)
"""A point said as a row and a column ("row 80, column 310"): x is the column, y the row."""
_SPAN = rf"(?:from\s+)?{NUMBER}{_TO}{NUMBER}"
AXIS_BOX = (
    rf"(?:{_ROW}\s*[=:]?\s*{_SPAN}{_AND}{_COLUMN}\s*[=:]?\s*{_SPAN}"
    rf"|{_COLUMN}\s*[=:]?\s*{_SPAN}{_AND}{_ROW}\s*[=:]?\s*{_SPAN})"
)
"""A box said as two ranges: "x 200 to 600 and y 100 to 400", "rows 10-200, columns 30-300"."""


def _by_axis(text: str) -> dict[str, tuple[float, float | None]]:
    found = {}
    for m in _GRID_RE.finditer(text.replace("from ", "")):
        axis = "y" if m["axis"].casefold()[0] in "ry" else "x"
        found[axis] = (float(m["a"]), float(m["b"]) if m["b"] is not None else None)
    if set(found) != {"x", "y"}:
        raise NoMatch(text)
    return found


def to_grid_point(text: str) -> list[float]:
    found = _by_axis(text)
    return [found["x"][0], found["y"][0]]


def to_axis_box(text: str) -> list[float]:
    found = _by_axis(text)
    (x1, x2), (y1, y2) = found["x"], found["y"]
    if x2 is None or y2 is None:
        raise NoMatch(text)
    return [x1, y1, x2, y2]


def to_point(text: str) -> list[float]:
    labelled = {axis.lower(): float(value) for axis, value in _LABELLED_RE.findall(text)}
    if len(labelled) == 2:
        return [labelled["x"], labelled["y"]]
    values = numbers_in(text)
    if len(values) != 2:
        raise NoMatch(text)
    return values


def to_box(text: str) -> list[float]:
    values = numbers_in(text)
    if len(values) != 4:
        raise NoMatch(text)
    return values


def to_axis(text: str) -> int | str:
    text = text.strip()
    return int(text) if text.isdigit() else text


_CORNER_RE = re.compile(r"\b([xy])([12])\s*[=:]?\s*(" + NUMBER + ")", re.IGNORECASE)


def to_labelled_box(text: str) -> list[float]:
    """``x1=0 y1=0 x2=256 y2=128`` → [0, 0, 256, 128], whatever order they are typed in."""
    found = {f"{a.lower()}{i}": float(v) for a, i, v in _CORNER_RE.findall(text)}
    if len(found) != 4:
        raise NoMatch(text)
    return [found["x1"], found["y1"], found["x2"], found["y2"]]


def to_scale(text: str) -> float:
    """``300%`` → 3, ``2x`` and ``x2`` → 2, ``0.5`` → 0.5."""
    value = _value(text.lstrip("x×* "))
    return value / 100 if "%" in text or "percent" in text.lower() else value


def to_amount(text: str) -> float:
    """A share: a scale ("30%", "0.3") or words ("a half", "three quarters", "fully")."""
    share = FRACTIONS.get(" ".join(text.casefold().split()))
    return share if share is not None else to_scale(text)


def to_times(text: str) -> float:
    """How many times as much: "3x", "three times", "twice", "half"."""
    multiple = MULTIPLES.get(text.strip().casefold())
    return multiple if multiple is not None else _value(text)


def to_number(text: str) -> float:
    return _value(text)


def to_int(text: str) -> int:
    value = to_number(text)
    if value != int(value):
        raise NoMatch(text)
    return int(value)


def to_text(text: str) -> str:
    text = text.strip()
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"":
        text = text[1:-1]
    if not text.strip():
        raise NoMatch(text)
    return text


_SCALE = rf"(?:[x×*]\s*{NUMBER}|(?:{NUMBER}|{WORD_NUMBER})\s*(?:%|percent\b|x\b|×|times\b|fold\b)?)"


@dataclass(frozen=True)
class Slot:
    pattern: str
    convert: Callable[[str], Any]


SLOTS: dict[str, Slot] = {
    "number": Slot(rf"(?:{NUMBER}|{WORD_NUMBER})", to_number),
    "int": Slot(rf"(?:\+?\d+(?![\d.])|{WORD_NUMBER})", to_int),
    "scale": Slot(_SCALE, to_scale),
    "amount": Slot(rf"(?:{_SCALE}|{_FRACTION})", to_amount),
    "share": Slot(rf"(?:(?:{NUMBER}|{WORD_NUMBER}) ?(?:%|percent\b)|{_FRACTION})", to_amount),
    "times": Slot(
        rf"(?:(?:{NUMBER}|{WORD_NUMBER}) ?(?:x\b|×|times\b|-?fold\b)|{'|'.join(MULTIPLES)})", to_times
    ),
    "point": Slot(_PAIR, to_point),
    "grid_point": Slot(GRID_POINT, to_grid_point),
    "axis_box": Slot(AXIS_BOX, to_axis_box),
    "pair": Slot(_PAIR, numbers_in),
    "box": Slot(_BOX, to_box),
    "labelled_box": Slot(
        rf"(?:[xy][12]\s*[=:]?\s*{NUMBER}(?:\s*[,;]\s*|\s+)){{3}}[xy][12]\s*[=:]?\s*{NUMBER}",
        to_labelled_box,
    ),
    "range": Slot(
        rf"(?:[(\[]?\s*{NUMBER}\s*(?:[,;]|-|–|\.\.|\s(?:to|and)\s|\s)\s*{NUMBER}\s*[)\]]?"
        rf"|(?:{NUMBER}|{WORD_NUMBER}) (?:to|and) (?:{NUMBER}|{WORD_NUMBER}))",
        to_range,
    ),
    "axis": Slot(r"(?:\d+|[a-z]|time|channel|depth)", to_axis),
    "axis_word": Slot(r"(?:[ztc]|time|channel|depth)", to_axis),
    # a value that opens with a quote ends at its closing quote: in "search for 'tide' and only show
    # the first 10 hits" the query is 'tide', and the rest must be read by the rule or not at all
    "text": Slot(r"""(?:"[^"]+"|'[^']+'|(?!["'])(?:(?!\s["']).)+?)""", to_text),
    "word": Slot(r"[^\s,;]+", to_text),
    "path": Slot(r"""(?:"[^"]+"|'[^']+'|[^\s"']+)""", to_text),
}

QUOTED = r"""(?:"[^"]+"|'[^']+')"""
_FREE_WORD = r"""(?!(?:and|then|is|are|was|were)\b)[^\s,;"'()]+"""
GENERIC_NAME = rf"{_FREE_WORD}(?:\s+{_FREE_WORD})*?"
"""Words that are not (yet) a known name; "and"/"then" join requests, so a free name stops there,
and it never spans "is"/"are" ("the refractive index of agarose is about 1.34" tells, it names no
"agarose is about 1.34") nor brackets ("water (1.33)" gives an index, not a name)."""


def name_pattern(kind: str, generic: bool) -> str:
    """A name slot: quoted, a live name of ``kind`` marked in the line (:mod:`.lookup`), or
    (generic) a run of words. The live names are never part of the pattern, so it is compiled once
    however many there are."""
    from .lookup import mark_pattern

    alternatives = [QUOTED, mark_pattern(kind)]
    if generic:
        alternatives.append(GENERIC_NAME)
    return "(?:" + "|".join(alternatives) + ")"
