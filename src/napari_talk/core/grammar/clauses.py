"""One clause read as one request: the rules tried in the plan's order, options said after it
(:mod:`.tails`) or as an aside (:mod:`.asides`), the first reading that validates kept."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from ..rules.lookup import mark
from ..rules.text import quoted_spans
from . import tails
from .asides import Asides
from .plan import Scope

if TYPE_CHECKING:
    from ..basics.commands import Command
    from ..contract.registry import Registry
    from ..rules.rule import Pass, Rule

_APPOSITION = re.compile(r",\s+(?:a|an)\s+\w", re.IGNORECASE)
"""A name followed by what it is ("Cinder Oracle, a Seer"): said of a thing, never part of its name."""


class ClauseReader:
    """Reads one clause as one request, by the registry's rules."""

    def __init__(self, registry: Registry) -> None:
        self.registry = registry
        self._tail_labels: frozenset[str] | None = None

    def _out_of_range(self, clause: str, scope: Scope) -> str | None:
        """The first rule that reads the clause but whose reading fails validation, said plainly."""
        for text, fullmatch, rule, compiled in self._tries(clause, scope):
            found = fullmatch(text)
            if found is None:
                continue
            wire = rule.complete(text, found, compiled, scope.context)
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

    def _tries(self, clause: str, scope: Scope) -> Iterator[tuple[str, Callable, Rule, Pass]]:
        """The (text, full match, rule, pass) to try on a clause, in the plan's order: a reading of
        known names sees the clause with its live names marked; a rule without names, and a
        free-word reading, see it as typed."""
        steps = scope.plan.steps
        marked = mark(clause, scope.context, quoted_spans(clause))
        for index in scope.plan.candidates(clause.casefold()):
            fullmatch, rule, compiled = steps[index]
            text = clause if compiled.generic or not rule.name_kinds else marked
            yield text, fullmatch, rule, compiled

    def _clause(self, clause: str, scope: Scope) -> Command | None:
        """One request, options said after it included (:mod:`.tails`)."""
        if not clause:
            return None
        if clause not in scope.clauses:
            scope.clauses[clause] = self._tailed(clause, scope) or self._aside(clause, scope)
        return scope.clauses[clause]

    def _aside(self, clause: str, scope: Scope) -> Command | None:
        """A clause with a yes/no option said as an aside ("find 'TODO', case sensitive, in
        scripts"): the rest read, the option given to its field (:mod:`.asides`)."""
        lifted = self._asides().lift(clause)
        if lifted is None:
            return None
        rest, field, value = lifted
        command = self._tailed(rest, scope)
        if command is None or field not in type(command).model_fields:
            return None
        wire = command.to_wire()
        if field in wire and wire[field] != value:
            return None
        return self._validate({**wire, field: value})

    def _asides(self) -> Asides:
        rules = self.registry.rules
        cached = self._aside_words
        if cached is None or cached[0] is not rules:
            cached = self._aside_words = (rules, Asides.of(rules))
        return cached[1]

    _aside_words: tuple[tuple[Rule, ...], Asides] | None = None

    def _tailed(self, clause: str, scope: Scope) -> Command | None:
        for rest, said in tails.peel(clause, self._labels()):
            command = self._ruled(rest, scope)
            if command is None:
                continue
            wire = tails.given(command.to_wire(), said, type(command).tails)
            tailed = self._validate(wire) if wire is not None else None
            if tailed is not None:
                return tailed
        return self._ruled(clause, scope)

    def _labels(self) -> frozenset[str]:
        """The label words of the tails the registry's commands take ("domain", "type")."""
        if self._tail_labels is None:
            self._tail_labels = frozenset(
                kind for cls in self.registry.commands.values() for kind in cls.tails if kind != tails.COUNT
            )
        return self._tail_labels

    def _ruled(self, clause: str, scope: Scope) -> Command | None:
        """One request read by the first rule, by priority, whose reading validates."""
        for text, fullmatch, rule, compiled in self._tries(clause, scope):
            found = fullmatch(text)
            if found is None:
                continue
            wire = rule.complete(text, found, compiled, scope.context)
            command = self._validate(wire) if wire is not None else None
            if command is not None and not self._names_with_a_description(command):
                return command
        return None

    def _names_with_a_description(self, command: Command) -> bool:
        """Whether a name it was given goes on to describe the thing ("Cinder Oracle, a Seer"):
        the words after the comma are no part of the name, so the reading is not made."""
        wire = command.to_wire()
        return any(
            isinstance(wire.get(f), str) and _APPOSITION.search(wire[f]) is not None
            for f in self.registry.named_fields(command.action)
        )

    def _validate(self, wire: dict[str, Any]) -> Command | None:
        try:
            return self.registry.validate(wire)
        except ValidationError:
            return None
