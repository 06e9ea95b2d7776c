"""The deterministic parser: a line in, the commands it asks for out, in order.

It never raises and returns only commands that validate; when it does not understand a line it
returns an empty list, and the session asks the LLM (or suggests what to type).

Its parts, each with one job: :mod:`.plan` (which rules a clause tries, in which order),
:mod:`.clauses` (one clause as one request), :mod:`.chains` (a line of several requests),
:mod:`.anaphora` (what "it" stands for); this module reads a line whole, again with its slips
corrected or in plain words, and says why a line it recognised cannot run.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

from ..rules.lookup import KnownNames, SomeNames, known, mark
from ..rules.recent import Recent
from ..rules.text import normalized, says_just, separators
from .chains import ChainReader, drop_repeated
from .plain_forms import plain_forms, says_a_wish
from .plan import Plan, Scope, shape

if TYPE_CHECKING:
    from ..basics.commands import Command
    from ..contract.registry import Registry
    from ..rules.rule import Rule

log = logging.getLogger(__name__)

MAX_LINE = 1000
MAX_COMMANDS = 8
MAX_SINGLE_FIXES = 4
MAX_LINE_FOR_OTHER_WORDS = 120
"""Longer lines are not read again word by word: each reading of a long line costs as much as it."""
MAX_PLANS = 16


@dataclass(frozen=True)
class Reading:
    """What the parser made of a line: its commands, and notes the reply should carry (how a
    slip of the keyboard was read: "read 'shwo' as 'show'")."""

    commands: list[Command]
    notes: tuple[str, ...] = ()


class Parser(ChainReader):
    def __init__(self, registry: Registry) -> None:
        super().__init__(registry)
        self._plans: Recent[tuple, Plan] = Recent(MAX_PLANS)

    def parse(self, text: str, context: Mapping[str, Sequence[str]] | None = None) -> list[Command]:
        return self.read(text, context).commands

    def read(self, text: str, context: Mapping[str, Sequence[str]] | None = None) -> Reading:
        """The commands a line asks for, and what the reply should say about how it was read."""
        try:
            raw = str(text)
            if len(raw) > MAX_LINE:  # never a part of a line: explain() tells the person to split it
                return Reading([])
            scope = self._scope(context)
            commands = self._read(raw, scope)
            if commands is not None:
                return Reading(commands)
            corrected = self._read_corrected(raw, scope)
            if corrected.commands:
                return corrected
            return Reading(self._read(raw, scope, pronoun_tail=True) or [])
        except Exception:  # a parser bug must never reach the person; the LLM road takes over
            log.debug("the parser failed on %r", text, exc_info=True)
            return Reading([])

    def read_leading(
        self, text: str, context: Mapping[str, Sequence[str]] | None = None
    ) -> tuple[Reading, str] | None:
        """A line not understood whole, as the requests its leading clauses ask for and the first
        clause after them that is not understood ("segment it then make the legs dark rusty metl":
        the segmentation, and "make the legs dark rusty metl"); None when its first clause is not
        understood either. Called only for lines :meth:`read` gave nothing for."""
        try:
            raw = str(text)
            if len(raw) > MAX_LINE:
                return None
            spans = separators(raw, limit=MAX_COMMANDS)
            for start, end in reversed(spans):  # the longest understood beginning first
                reading = self.read(raw[:start], context)
                if reading.commands:
                    cut = next((a for a, _ in separators(raw[end:]) if a > 0), None)
                    failed = raw[end:] if cut is None else raw[end : end + cut]
                    return reading, failed.strip(" ,;.")
            return None
        except Exception:  # as read(): never the person's problem
            log.debug("the parser failed on the beginning of %r", text, exc_info=True)
            return None

    def _read(self, raw: str, scope: Scope, *, pronoun_tail: bool = False) -> list[Command] | None:
        line = normalized(raw)
        if not line:
            return None
        commands = self._line(line, scope, MAX_COMMANDS, scope.lines)
        if commands is None and says_just(raw):
            kept = normalized(raw, drop_just=False)  # "just GFP please": only GFP
            if kept != line:
                commands = self._line(kept, scope, MAX_COMMANDS, scope.lines)
        if commands is None:
            plain = plain_forms(line, wished=says_a_wish(raw))  # "pull up the console": open the console
            if plain != line:
                commands = self._line(plain, scope, MAX_COMMANDS, scope.lines)
                line = plain if commands is None else line
        if commands is None and pronoun_tail:
            commands = self._pronoun_tail(line, scope)
        return drop_repeated(commands) if commands else None

    def _read_corrected(self, raw: str, scope: Scope) -> Reading:
        """A line not understood as typed, read again with its slips corrected against the words
        in play (see :mod:`.spelling`); the reading says which words it changed."""
        from .spelling import correct

        fixed, changes = correct(raw, self.vocabulary(), scope.context)
        tries = [(fixed, changes)] if changes else []
        if len(changes) > 1 and len(raw) <= MAX_LINE_FOR_OTHER_WORDS:
            # the fewest changes first: "aply gold" is "apply gold", not "apply good"
            singles = [(correct(raw, self.vocabulary(), scope.context, only=c[0]), c) for c in changes]
            tries = [(text, [change]) for (text, _), change in singles[:MAX_SINGLE_FIXES]] + tries
        tries += self._other_words(raw, scope, {text for text, _ in tries})
        for text, made in tries:
            commands = self._read(text, scope, pronoun_tail=True)
            if commands is not None:
                said = ", ".join(f"{typed!r} as {meant!r}" for typed, meant in made)
                return Reading(commands, (f"(read {said})",))
        return Reading([])

    def _other_words(
        self, raw: str, scope: Scope, tried: set[str]
    ) -> list[tuple[str, list[tuple[str, str]]]]:
        """The word that opens each request (its verb, where a slip matters most), one at a time,
        as each other word it could be a slip of, the likeliest first: the grammar, not a guess,
        then decides which was meant. Words further in are often real words the grammar does not
        use ("what entities live in …"), and are left as typed."""
        from .spelling import alternatives

        if len(raw) > MAX_LINE_FOR_OTHER_WORDS:
            return []
        opens = {0} | {end for _, end in separators(raw)}
        first = len(raw) - len(raw.lstrip())
        words = [w for w in alternatives(raw, self.vocabulary(), scope.context) if w[0] in opens | {first}]
        found = []
        for start, end, options in words[:MAX_SINGLE_FIXES]:
            for meant in options[:MAX_SINGLE_FIXES]:
                text = raw[:start] + meant + raw[end:]
                if text not in tried:
                    tried.add(text)
                    found.append((text, [(raw[start:end], meant)]))
        return found

    def vocabulary(self) -> frozenset[str]:
        """The grammar's own words: what a misspelt word of a line is corrected towards."""
        rules = self.registry.rules
        cached = self._vocabulary
        if cached is None or cached[0] is not rules:
            from .spelling import grammar_words

            cached = self._vocabulary = (rules, grammar_words(rules))
        return cached[1]

    _vocabulary: tuple[tuple[Rule, ...], frozenset[str]] | None = None

    def explain(self, text: str, context: Mapping[str, Sequence[str]] | None = None) -> str | None:
        """Why a line the parser recognised could not be run as typed (a number out of range, too
        many requests in one line, a line too long), or None: then it is simply not understood
        and a model may try. Called only for lines :meth:`parse` gave nothing for."""
        try:
            raw = str(text)
            if len(raw) > MAX_LINE:
                return (
                    f"that line is {len(raw):,} characters long; at most {MAX_LINE:,} are read: split it up"
                )
            line = normalized(raw)
            if not line:
                return None
            scope = self._scope(context)
            spans = separators(line, limit=MAX_COMMANDS + 1)
            first = normalized(line[: spans[0][0]]) if spans else ""
            if len(spans) >= MAX_COMMANDS and self._clause(first, scope) is not None:
                return (
                    f"that line asks for more than {MAX_COMMANDS} things; at most {MAX_COMMANDS} run at once"
                )
            return self._out_of_range(line, scope)
        except Exception:
            return None

    def prepare(self, context: Mapping[str, Sequence[str]] | None = None) -> None:
        """Compile the rules for these kinds of names, and index the names, ahead of the next
        line (safe from another thread: the dock calls it in the background when layers come and
        go)."""
        mark("", self._scope(context).context)  # builds every kind's index
        self.vocabulary()  # what slips are corrected towards, ahead of the first line with one

    def prepared(self, context: Mapping[str, Sequence[str]] | None = None) -> bool:
        """Whether the rules for these kinds of names are compiled already."""
        plan = self._plans.get(shape(self._known(context)))
        return plan is not None and plan.rules is self.registry.rules

    def _known(self, context: Mapping[str, Sequence[str]] | None) -> dict[str, KnownNames]:
        given = {
            str(kind): known(names if isinstance(names, KnownNames) else map(str, names))
            for kind, names in (context or {}).items()
            if isinstance(names, (list, tuple)) and names
        }
        names = {**{k: known(v) for k, v in self.registry.context_defaults.items()}, **given}
        for kind, stand_in in self.registry.context_stand_ins.items():
            if kind not in names and stand_in in names:
                names[kind] = SomeNames(names[stand_in])
        return names

    def _scope(self, context: Mapping[str, Sequence[str]] | None) -> Scope:
        names = self._known(context)
        return Scope(self._plan(names), names)

    def _plan(self, context: Mapping[str, Sequence[str]]) -> Plan:
        rules, key = self.registry.rules, shape(context)
        plan = self._plans.get(key)
        if plan is None or plan.rules is not rules:
            plan = self._plans.put(key, Plan.build(rules, context))
        return plan


def parse(text: str, context: Mapping[str, Sequence[str]] | None = None) -> list[Command]:
    """Parse with the default registry (every installed pack)."""
    return read(text, context).commands


def read(text: str, context: Mapping[str, Sequence[str]] | None = None) -> Reading:
    """Read a line with the default registry: its commands and the notes for the reply."""
    from ..contract.registry import default_registry

    return _parser_for(default_registry()).read(text, context)


@lru_cache(maxsize=4)
def _parser_for(registry: Registry) -> Parser:
    return Parser(registry)
