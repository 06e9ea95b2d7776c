"""Pronouns and the things they stand for: "rename A to B and then hide it" hides B, "its opacity"
is the opacity of the thing named before, "segment 2 ... isolate it" says segment 2 again."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from ..rules.text import separators

if TYPE_CHECKING:
    from ..basics.commands import Command

PRONOUN = re.compile(
    r"\b(?:it|them|they|those|these|that one|this one"
    r"|(?:that|this|the same) (?:layer|one|file|image|entity))\b"
    r"|(?<=\w )that(?=\s*(?:$|[,;.!?]))",  # "use that", "go with that": a bare "that" ending a request
    re.IGNORECASE,
)
POSSESSIVE = re.compile(
    r"\bits (?P<what>[a-z]+(?: [a-z]+)?)\b(?= (?:to|by|at|up|down|in|out)\b|$)", re.IGNORECASE
)
"""'its opacity to 0.6', 'its contrast up': a field of the thing named before."""
_SMALL = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")
_COUNTED = r"(?P<noun>[A-Za-z]+) (?:number |no\.? |#)?{}(?!\w)"


def first_request(text: str) -> str:
    """The text up to where a second request could begin."""
    spans = separators(text, limit=1)
    return text[: spans[0][0]] if spans else text


def said_again(text: str, said: str) -> str:
    """``text`` with its pronoun as ``said`` and "its X" as "the X of" ``said``."""

    def of_it(match: re.Match[str]) -> str:
        return f"the {match['what']} of {said}"

    def it(_: re.Match[str]) -> str:
        return said

    return PRONOUN.sub(it, POSSESSIVE.sub(of_it, text))


def ways_to_say(named: str, left_text: str) -> list[str]:
    """How a pronoun's thing may be said again: as its value, and a thing counted by number as
    the words that counted it ("segment 2", "concept #3")."""
    ways = [named]
    if named.isdigit():
        said = re.escape(named) if int(named) >= len(_SMALL) else f"(?:{named}|{_SMALL[int(named)]})"
        counted = re.search(_COUNTED.format(said), left_text, re.IGNORECASE)
        if counted is not None:
            ways.insert(0, f"{counted['noun']} {named}")
    return ways


def named_by(command: Command, fields: tuple[str, ...]) -> str | None:
    """What ``command`` names in the first of ``fields`` it fills; a pronoun after it stands for that."""
    wire = command.to_wire()
    return next((as_said(wire[f]) for f in fields if as_said(wire.get(f)) is not None), None)


def as_said(value: Any) -> str | None:
    """A named thing as text: a name, or a number that counts it (concept 2); not a yes/no."""
    if isinstance(value, str):
        return value
    return str(value) if isinstance(value, int) and not isinstance(value, bool) else None
