"""Which rules a clause tries, and in which order: the rules compiled once for each set of kinds of
name known, and the scope one line is read in (its plan, its names, what its parts read as)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..rules.lookup import KnownNames
from ..rules.recent import Recent

if TYPE_CHECKING:
    from ..basics.commands import Command
    from ..rules.rule import Pass, Rule

MAX_CACHED_TOKENS = 20_000


@dataclass(frozen=True)
class Plan:
    """The rules compiled for one set of known names, in priority order.

    Rules that name required words are gated: a clause tries them only when one of its tokens
    contains one of those words. What each token opens is worked out once and remembered, since
    people reuse a small vocabulary.
    """

    rules: tuple[Rule, ...]
    steps: list[tuple[Callable, Rule, Pass]]
    """(full match, rule, pass) with the method bound once: this loop runs for every clause."""
    ungated: tuple[int, ...]
    word_steps: tuple[tuple[str, bool, tuple[int, ...]], ...]
    """(word, whole token only, the steps it opens)."""
    opened_by_token: Recent[str, frozenset[int]] = field(default_factory=lambda: Recent(MAX_CACHED_TOKENS))

    @classmethod
    def build(cls, rules: tuple[Rule, ...], context: Mapping[str, Sequence[str]]) -> Plan:
        """Every rule with known names only comes first; free-word readings only if none fits.
        Only the kinds of names known matter here, not the names (they are looked up per line)."""
        live = shape(context)
        passes = sorted(
            ((rule, p) for rule in rules if rule.in_play(live) for p in rule.compiled(context)),
            key=lambda entry: entry[1].generic,
        )
        steps = [(p.combined.fullmatch, rule, p) for rule, p in passes]
        ungated = tuple(i for i, (_, rule, _) in enumerate(steps) if not rule.requires)
        by_word: dict[tuple[str, bool], list[int]] = {}
        for i, (_, rule, _) in enumerate(steps):
            # a required phrase ("side by side") opens on any of its words: looser, never stricter;
            # a word required with a space after it ("op ") opens only on that whole token
            words = {
                (w, False) for phrase in rule.requires if not phrase.endswith(" ") for w in phrase.split()
            }
            words |= {(phrase.strip(), True) for phrase in rule.requires if phrase.endswith(" ")}
            for word in words:
                by_word.setdefault(word, []).append(i)
        word_steps = tuple((word, whole, tuple(indexes)) for (word, whole), indexes in by_word.items())
        return cls(rules, steps, ungated, word_steps)

    def _opened_by(self, token: str) -> frozenset[int]:
        return frozenset(
            i
            for word, whole, indexes in self.word_steps
            if (word == token if whole else word in token)
            for i in indexes
        )

    def candidates(self, folded: str) -> Sequence[int]:
        opened: set[int] = set()
        for token in folded.split():
            opened |= self.opened_by_token.get_or_make(token, self._opened_by)
        return sorted(opened.union(self.ungated)) if opened else self.ungated


@dataclass(frozen=True)
class Scope:
    """One line's rules and the names live while it is read."""

    plan: Plan
    context: Mapping[str, KnownNames]
    clauses: dict[str, Command | None] = field(default_factory=dict)
    """Each clause's reading, once per line: a chained line's search meets the same clause often."""
    lines: dict[str, list[Command] | None] = field(default_factory=dict)
    """Each part of the line read as requests, once per line (its first reading, read again with
    slips corrected or in plain words, shares most parts)."""


def shape(context: Mapping[str, Sequence[str]]) -> tuple[str, ...]:
    """What the compiled rules depend on: which kinds of name are known, not which names."""
    return tuple(sorted(kind for kind, names in context.items() if names))
