"""What a reading must keep of the line, whichever command the classifier chose: its directions
and any number it spells out. A classifier chooses the command well from a paraphrase, but the
phrasing it then fills may say "down" for "up", "in" for "out", or leave out a "five" the
sentence model's vector hardly shows; such a reading is not offered."""

from __future__ import annotations

import re

from ...rules.tokens import WORD_NUMBER

DIRECTIONS = frozenset((
    "up", "down", "left", "right", "out", "clockwise", "counterclockwise", "anticlockwise", "forward",
    "forwards", "backward", "backwards", "back", "next", "previous", "more", "fewer", "less",
    "increase", "decrease", "brighter", "darker", "bigger", "smaller", "larger",
    "above", "below", "front", "behind", "top", "bottom", "upwards", "downwards", "leftwards",
    "rightwards", "upward", "downward",
))  # fmt: skip
"""Words that each say one way of a request: a reading says each the line says, and no other
("on" and "off" are left out: as prepositions they say where, "centre the view on nuclei")."""
_WORDS = re.compile(r"[a-z]+")
_SPELLED = re.compile(WORD_NUMBER, re.IGNORECASE)


def directions(text: str) -> frozenset[str]:
    return frozenset(w for w in _WORDS.findall(text.casefold()) if w in DIRECTIONS)


def spelled_numbers(text: str) -> list[str]:
    """Numbers spelled out ("five", "twenty one"), "one" alone left out: it is as often a pronoun."""
    return [m.group().casefold() for m in _SPELLED.finditer(text) if m.group().casefold() != "one"]


def unknown_names(line: str) -> list[str]:
    """Words the line capitalises past its first (a name: "The Lattice", "Red Wastes"), but "I"."""
    words = re.findall(r"[A-Za-z][\w'-]*", line)
    return [w for w in words[1:] if w[0].isupper() and w != "I"]


def keeps(bare: str, line: str, canonical: str) -> bool:
    """Whether ``canonical`` says the line's directions (and no other), every number it spells,
    and every name it capitalises; ``bare``: the line with its known values put aside."""
    if directions(bare) != directions(canonical):
        return False
    folded = canonical.casefold()
    said = [*spelled_numbers(bare), *(n.casefold() for n in unknown_names(line))]
    return all(re.search(rf"(?<!\w){re.escape(n)}(?!\w)", folded) for n in said)
