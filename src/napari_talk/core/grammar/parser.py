"""The deterministic parser: a line in, the commands it asks for out, in order.

It never raises and returns only commands that validate; when it does not understand a line it
returns an empty list, and the session asks the LLM (or suggests what to type).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from .text import normalize, rephrase, says_just, separators

if TYPE_CHECKING:
    from ..commands import Command
    from ..registry import Registry
    from .rules import Pass, Rule

MAX_LINE = 1000
_PRONOUN = re.compile(r"\b(?:it|them|they|those|these|that one|this one)\b", re.IGNORECASE)
MAX_COMMANDS = 8


MAX_CACHED_TOKENS = 20_000


@dataclass(frozen=True)
class _Plan:
    """The rules compiled for one set of known names, in priority order.

    Rules that name required words are gated: a clause tries them only when one of its tokens
    contains one of those words. What each token opens is worked out once and remembered, since
    people reuse a small vocabulary.
    """

    rules: tuple[Rule, ...]
    context: Mapping[str, Sequence[str]]
    steps: list[tuple[Callable, Rule, Pass]]
    """(full match, rule, pass) with the method bound once: this loop runs for every clause."""
    ungated: tuple[int, ...]
    word_steps: tuple[tuple[str, bool, tuple[int, ...]], ...]
    """(word, whole token only, the steps it opens)."""
    opened_by_token: dict[str, frozenset[int]] = field(default_factory=dict)

    @classmethod
    def build(cls, rules: tuple[Rule, ...], context: Mapping[str, Sequence[str]]) -> _Plan:
        """Every rule with known names only comes first; free-word readings only if none fits."""
        passes = sorted(
            ((rule, p) for rule in rules for p in rule.compiled(context)), key=lambda entry: entry[1].generic
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
        return cls(rules, context, steps, ungated, word_steps)

    def candidates(self, folded: str) -> Sequence[int]:
        opened: set[int] = set()
        cache = self.opened_by_token
        for token in folded.split():
            steps = cache.get(token)
            if steps is None:
                if len(cache) >= MAX_CACHED_TOKENS:
                    cache.clear()
                steps = cache[token] = frozenset(
                    i
                    for word, whole, indexes in self.word_steps
                    if (word == token if whole else word in token)
                    for i in indexes
                )
            opened |= steps
        return sorted(opened.union(self.ungated)) if opened else self.ungated


class Parser:
    def __init__(self, registry: Registry) -> None:
        self.registry = registry
        self._plans: dict[tuple, _Plan] = {}

    def parse(self, text: str, context: Mapping[str, Sequence[str]] | None = None) -> list[Command]:
        try:
            raw = str(text)
            if len(raw) > MAX_LINE:  # never a part of a line: explain() tells the person to split it
                return []
            line = normalize(raw)
            if not line:
                return []
            plan = self._plan(self._known(context))
            commands = self._line(line, plan, MAX_COMMANDS, {})
            if commands is None and says_just(raw):
                kept = normalize(raw, drop_just=False)  # "just GFP please": only GFP
                if kept != line:
                    commands = self._line(kept, plan, MAX_COMMANDS, {})
            if commands is None:
                plain = rephrase(line)  # "pull up the console": open the console
                if plain != line:
                    commands = self._line(plain, plan, MAX_COMMANDS, {})
                    line = plain if commands is None else line
            if commands is None:
                commands = self._pronoun_tail(line, plan)
            return _drop_repeated_reads(commands or [])
        except Exception:  # a parser bug must never reach the person; the LLM road takes over
            return []

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
            line = normalize(raw)
            if not line:
                return None
            plan = self._plan(self._known(context))
            spans = separators(line, limit=MAX_COMMANDS + 1)
            if len(spans) >= MAX_COMMANDS and self._clause(normalize(line[: spans[0][0]]), plan) is not None:
                return (
                    f"that line asks for more than {MAX_COMMANDS} things; at most {MAX_COMMANDS} run at once"
                )
            return self._out_of_range(line, plan)
        except Exception:
            return None

    def _out_of_range(self, clause: str, plan: _Plan) -> str | None:
        """The first rule that reads the clause but whose reading fails validation, said plainly."""
        for index in plan.candidates(clause.casefold()):
            fullmatch, rule, compiled = plan.steps[index]
            found = fullmatch(clause)
            if found is None:
                continue
            wire = rule.complete(clause, found, compiled, plan.context)
            if wire is None:
                continue
            try:
                self.registry.validate(wire)
            except ValidationError as exc:
                error = exc.errors()[0]
                field = ".".join(str(p) for p in error.get("loc", ())[1:]) or str(wire.get("action"))
                shown = clause if len(clause) <= 60 else clause[:57] + "…"
                says = error["msg"].removeprefix("Input ").removeprefix("Value error, ")
                return f"out of range: {field} {says} ({shown!r})"
        return None

    def prepare(self, context: Mapping[str, Sequence[str]] | None = None) -> None:
        """Compile the rules for these names ahead of the next line (safe from another thread:
        the dock calls it in the background when layers come and go, ~0.1 s of regex work)."""
        self._plan(self._known(context))

    def prepared(self, context: Mapping[str, Sequence[str]] | None = None) -> bool:
        """Whether the rules for these names are compiled already."""
        plan = self._plans.get(tuple(self._known(context).items()))
        return plan is not None and plan.rules is self.registry.rules

    def _known(self, context: Mapping[str, Sequence[str]] | None) -> dict[str, tuple[str, ...]]:
        given = {
            str(kind): tuple(str(name) for name in names)
            for kind, names in (context or {}).items()
            if isinstance(names, (list, tuple)) and names
        }
        return {**self.registry.context_defaults, **given}

    def _line(self, line: str, plan: _Plan, budget: int, memo: dict) -> list[Command] | None:
        if line in memo:
            return memo[line]
        memo[line] = None
        whole = self._clause(line, plan)
        if whole is not None:
            memo[line] = [whole]
            return memo[line]
        if budget <= 1:
            return None
        for start, end in separators(line):
            left = self._clause(normalize(line[:start]), plan)
            if left is None:
                continue
            rest = normalize(line[end:])
            right = self._line(rest, plan, budget - 1, memo)
            if right is None:
                right = self._carry_verb(line[:start], rest, plan, budget, memo)
            if right is not None:
                memo[line] = [left, *right]
                return memo[line]
        return None

    def _pronoun_tail(self, line: str, plan: _Plan) -> list[Command] | None:
        """'I don't need the spots right now, hide them': the last request, its pronoun standing for
        the one layer the words before it name. Only when the words before read as no request."""
        spans = separators(line)
        if not spans:
            return None
        start, end = spans[-1]
        before, last = line[:start], normalize(line[end:])
        if _PRONOUN.search(last) is None or len(_PRONOUN.findall(last)) != 1:
            return None
        named = [
            name
            for name in plan.context.get("layers", ())
            if re.search(rf"(?<!\w){re.escape(name)}(?!\w)", before, re.IGNORECASE)
        ]
        if len(named) != 1:
            return None
        command = self._clause(_PRONOUN.sub(lambda _: named[0], last), plan)
        return None if command is None else [command]

    def _carry_verb(self, left: str, rest: str, plan: _Plan, budget: int, memo: dict) -> list[Command] | None:
        """'hide nuclei and actin' means 'hide nuclei' and 'hide actin' ('turn on' carries two words)."""
        words = left.split()
        for size in (1, 2):
            verb = " ".join(words[:size])
            if len(words) <= size or rest.casefold().startswith(verb.casefold()):
                return None
            carried = self._line(f"{verb} {rest}", plan, budget - 1, memo)
            if carried is not None:
                return carried
        return None

    def _clause(self, clause: str, plan: _Plan) -> Command | None:
        """One request: the first rule, by priority, whose reading validates."""
        if not clause:
            return None
        steps = plan.steps
        for index in plan.candidates(clause.casefold()):
            fullmatch, rule, compiled = steps[index]
            found = fullmatch(clause)
            if found is None:
                continue
            wire = rule.complete(clause, found, compiled, plan.context)
            command = self._validate(wire) if wire is not None else None
            if command is not None:
                return command
        return None

    def _plan(self, context: dict[str, tuple[str, ...]]) -> _Plan:
        rules, key = self.registry.rules, tuple(context.items())
        plan = self._plans.get(key)
        if plan is None or plan.rules is not rules:
            if len(self._plans) > 16:
                self._plans.clear()
            plan = self._plans[key] = _Plan.build(rules, context)
        return plan

    def _validate(self, wire: dict[str, Any]) -> Command | None:
        try:
            return self.registry.validate(wire)
        except ValidationError:
            return None


def _drop_repeated_reads(commands: list[Command]) -> list[Command]:
    """'I'm lost, help' reads as two helps; asking twice in a row for the same reading is once."""
    kept: list[Command] = []
    for command in commands:
        if kept and command.risk == "read" and command == kept[-1]:
            continue
        kept.append(command)
    return kept


def parse(text: str, context: Mapping[str, Sequence[str]] | None = None) -> list[Command]:
    """Parse with the default registry (every installed pack)."""
    from ..registry import default_registry

    return _parser_for(default_registry()).parse(text, context)


@lru_cache(maxsize=4)
def _parser_for(registry: Registry) -> Parser:
    return Parser(registry)
