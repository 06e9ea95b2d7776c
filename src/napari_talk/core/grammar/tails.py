"""Options said after a request: "search for 'tide' and only show the first 10 hits", "add GFP to
the catalogue as Blue Seer, domain The Lattice, type Oracle".

A free-text slot would otherwise run on to the end of the line and swallow them (a query "'tide' and
only show the first 10 hits"). A command says which tails it takes in its ``tails`` class variable,
a tail's kind mapped to the field it fills: ``{"count": "max_results"}`` for "the first 10 hits",
or a label word such as ``{"domain": "domain"}`` for ", domain The Lattice" and "in the domain The
Lattice". The parser peels tails off the end of a clause, reads what is left with its rules, and
gives each tail to the field the command names; a command that takes no such tail, or already set
that field from its own words, keeps the clause's plain reading.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from ..rules.tokens import NUMBER, WORD_NUMBER, NoMatch, to_int

COUNT = "count"
MAX_TAILS = 3
"""At most this many tails peeled off one clause (", domain X, type Y, class Z")."""

_JOIN = r"(?:\s*,|\s*;)?\s+(?:and\s+)?(?:then\s+)?"
_THINGS = r"(?:hits|matches|results|lines|entries|items|ones|answers)"
_HOW_MANY = rf"(?:{NUMBER}|{WORD_NUMBER})"
_COUNT = re.compile(
    rf"{_JOIN}(?:"
    rf"(?:(?:only|just)\s+)?(?:(?:show|return|give|list|display|keep|get|print)(?:\s+me)?\s+)?"
    rf"(?:(?:only|just)\s+)?(?:(?:the\s+)?(?:first|top)\s+|at\s+most\s+|no\s+more\s+than\s+|up\s+to\s+"
    rf"|max(?:imum)?(?:\s+of)?\s+)?(?P<shown>{_HOW_MANY})\s+{_THINGS}"
    rf"|stop\s+(?:after|at)\s+(?P<stop>{_HOW_MANY})(?:\s+{_THINGS})?"
    rf"|(?:limit|cap)(?:\s+(?:it|them|the\s+results))?\s+(?:to|at)\s+(?P<limit>{_HOW_MANY})(?:\s+{_THINGS})?"
    rf")\s*[.!]?$",
    re.IGNORECASE,
)
_LABEL_FRAME = (
    r"(?:\s*,\s*|\s+(?:and\s+)?(?:(?:in|with|of)\s+)?(?:the|its|a)\s+)"
    r"(?P<label>{labels})(?:\s+(?:is|=|of|named|called))?\s*[:=]?\s+(?P<value>[^,;:]+?)\s*[.!]?$"
)


@lru_cache(maxsize=8)
def _labelled(labels: frozenset[str]) -> re.Pattern[str]:
    words = "|".join(sorted(map(re.escape, labels))) or r"(?!)"
    return re.compile(_LABEL_FRAME.format(labels=words), re.IGNORECASE)


_HINT = re.compile(rf"\b(?:{_THINGS}|stop|limit|cap)\b|,", re.IGNORECASE)


@dataclass(frozen=True)
class Tail:
    """One option read off the end of a clause: its kind (``count`` or a label word) and value."""

    kind: str
    value: Any


def peel(clause: str, labels: frozenset[str]) -> Iterator[tuple[str, tuple[Tail, ...]]]:
    """The clause's readings as (what is left, the tails peeled off), most tails first.

    ``labels`` are the label words any command takes ("domain", "type"): only those are peeled."""
    if not _HINT.search(clause) and not _labelled(labels).search(clause):
        return
    found: list[tuple[str, tuple[Tail, ...]]] = []
    left = clause
    tails: tuple[Tail, ...] = ()
    for _ in range(MAX_TAILS):
        tail, left = _one(left, labels)
        if tail is None or not left.strip():
            break
        tails = (tail, *tails)
        found.append((left.strip(), tails))
    yield from reversed(found)


def _one(clause: str, labels: frozenset[str]) -> tuple[Tail | None, str]:
    count = _COUNT.search(clause)
    if count is not None:
        try:
            said = count.group("shown") or count.group("stop") or count.group("limit")
            return Tail(COUNT, to_int(said)), clause[: count.start()]
        except NoMatch:
            return None, clause
    labelled = _labelled(labels).search(clause)
    if labelled is not None:
        return Tail(labelled.group("label").casefold(), labelled.group("value")), clause[: labelled.start()]
    return None, clause


def given(
    wire: Mapping[str, Any], tails: tuple[Tail, ...], takes: Mapping[str, str]
) -> dict[str, Any] | None:
    """``wire`` with each tail in the field ``takes`` names for it; None when a tail has no field
    there or would overwrite what the clause itself said."""
    filled = dict(wire)
    for tail in tails:
        field = takes.get(tail.kind)
        if field is None or field in filled:
            return None
        filled[field] = tail.value
    return filled
