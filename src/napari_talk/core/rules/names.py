"""Resolve a typed name against the names a session knows.

One rule for the parser and every handler: exact, then case-insensitive, then a unique substring
(white space folded: "cell  boundaries" is "cell boundaries").
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from .lookup import known as as_known

MIN_SUBSTRING = 2


@dataclass(frozen=True)
class NameMatch:
    typed: str
    found: str | None
    candidates: tuple[str, ...] = ()
    """When ``found`` is None: the names that matched equally well (ambiguous) or none (unknown)."""

    @property
    def ambiguous(self) -> bool:
        return self.found is None and len(self.candidates) > 1


def resolve_name(typed: str, known: Iterable[str]) -> NameMatch:
    """Looked up in the names' index (:mod:`.lookup`): the cost does not grow with their number."""
    index = as_known(known).lookup
    typed = typed.strip()
    if typed in index.exact:
        return NameMatch(typed, typed)
    same = index.with_folded(typed)
    if len(same) == 1:
        return NameMatch(typed, same[0])
    if len(same) > 1:
        return NameMatch(typed, None, tuple(same))
    if len(typed.casefold()) < MIN_SUBSTRING:
        return NameMatch(typed, None)
    containing = index.containing(typed)
    if len(containing) == 1:
        return NameMatch(typed, containing[0])
    return NameMatch(typed, None, tuple(containing))


def describe_miss(match: NameMatch, kind: str, known: Iterable[str]) -> str:
    """The message for a name that did not resolve: it lists what the person can use instead."""
    if match.ambiguous:
        options = ", ".join(repr(c) for c in match.candidates)
        return f"{kind} {match.typed!r} is ambiguous; did you mean one of: {options}?"
    names = ", ".join(repr(n) for n in known) or "(none)"
    return f"no {kind} {match.typed!r}; {kind}s are: {names}"
