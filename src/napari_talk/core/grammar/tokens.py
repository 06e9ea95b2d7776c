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


class NoMatch(Exception):
    """A slot's text matched the pattern but does not mean a value of its kind."""


def numbers_in(text: str) -> list[float]:
    return [float(n) for n in _NUMBER_RE.findall(text)]


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
    (value,) = numbers_in(text.lstrip("x×* "))
    return value / 100 if "%" in text or "percent" in text.lower() else value


def to_number(text: str) -> float:
    (value,) = numbers_in(text)
    return value


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


@dataclass(frozen=True)
class Slot:
    pattern: str
    convert: Callable[[str], Any]


SLOTS: dict[str, Slot] = {
    "number": Slot(NUMBER, to_number),
    "int": Slot(r"\+?\d+(?![\d.])", to_int),
    "scale": Slot(rf"(?:[x×*]\s*{NUMBER}|{NUMBER}\s*(?:%|percent\b|x\b|×|times\b|fold\b)?)", to_scale),
    "point": Slot(_PAIR, to_point),
    "pair": Slot(_PAIR, numbers_in),
    "box": Slot(_BOX, to_box),
    "labelled_box": Slot(
        rf"(?:[xy][12]\s*[=:]?\s*{NUMBER}(?:\s*[,;]\s*|\s+)){{3}}[xy][12]\s*[=:]?\s*{NUMBER}",
        to_labelled_box,
    ),
    "range": Slot(
        rf"[(\[]?\s*{NUMBER}\s*(?:[,;]|-|–|\.\.|\s(?:to|and)\s|\s)\s*{NUMBER}\s*[)\]]?",
        numbers_in,
    ),
    "axis": Slot(r"(?:\d+|[a-z]|time|channel|depth)", to_axis),
    "axis_word": Slot(r"(?:[ztc]|time|channel|depth)", to_axis),
    "text": Slot(r"""(?:"[^"]+"|'[^']+'|.+?)""", to_text),
    "word": Slot(r"[^\s,;]+", to_text),
    "path": Slot(r"""(?:"[^"]+"|'[^']+'|[^\s"']+)""", to_text),
}

QUOTED = r"""(?:"[^"]+"|'[^']+')"""
_FREE_WORD = r"""(?!(?:and|then)\b)[^\s,;"']+"""
GENERIC_NAME = rf"{_FREE_WORD}(?:\s+{_FREE_WORD})*?"
"""Words that are not (yet) a known name; "and"/"then" join requests, so a free name stops there."""


def name_pattern(known: Sequence[str], generic: bool) -> str:
    """A name slot: quoted, one of the known names (longest first), or (generic) a run of words."""
    spelled = sorted(known, key=len, reverse=True)
    alternatives = [QUOTED, *(r"\s+".join(map(re.escape, n.split())) for n in spelled if n.strip())]
    if generic:
        alternatives.append(GENERIC_NAME)
    return "(?:" + "|".join(alternatives) + ")"
