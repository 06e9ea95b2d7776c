"""The deterministic parser: a line in, the commands it asks for out, in order.

It never raises and returns only commands that validate; when it does not understand a line it
returns an empty list, and the session asks the LLM (or suggests what to type).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from . import tails
from .asides import Asides
from .lookup import KnownNames, SomeNames, known, mark
from .plain_forms import plain_forms, says_a_wish
from .recent import Recent
from .text import BASE_VERBS, normalized, quoted_spans, says_just, separators

if TYPE_CHECKING:
    from ..basics.commands import Command
    from ..contract.registry import Registry
    from .rules import Pass, Rule

log = logging.getLogger(__name__)

MAX_LINE = 1000
_PRONOUN = re.compile(
    r"\b(?:it|them|they|those|these|that one|this one"
    r"|(?:that|this|the same) (?:layer|one|file|image|entity))\b"
    r"|(?<=\w )that(?=\s*(?:$|[,;.!?]))",  # "use that", "go with that": a bare "that" ending a request
    re.IGNORECASE,
)
MAX_COMMANDS = 8
MAX_SINGLE_FIXES = 4
MAX_LINE_FOR_OTHER_WORDS = 120
"""Longer lines are not read again word by word: each reading of a long line costs as much as it."""


MAX_CACHED_TOKENS = 20_000
MAX_PLANS = 16


@dataclass(frozen=True)
class _Plan:
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
    def build(cls, rules: tuple[Rule, ...], context: Mapping[str, Sequence[str]]) -> _Plan:
        """Every rule with known names only comes first; free-word readings only if none fits.
        Only the kinds of names known matter here, not the names (they are looked up per line)."""
        live = _shape(context)
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
class Reading:
    """What the parser made of a line: its commands, and notes the reply should carry (how a
    slip of the keyboard was read: "read 'shwo' as 'show'")."""

    commands: list[Command]
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class _Scope:
    """One line's rules and the names live while it is read."""

    plan: _Plan
    context: Mapping[str, KnownNames]
    clauses: dict[str, Command | None] = field(default_factory=dict)
    """Each clause's reading, once per line: a chained line's search meets the same clause often."""
    lines: dict[str, list[Command] | None] = field(default_factory=dict)
    """Each part of the line read as requests, once per line (its first reading, read again with
    slips corrected or in plain words, shares most parts)."""


class Parser:
    def __init__(self, registry: Registry) -> None:
        self.registry = registry
        self._plans: Recent[tuple, _Plan] = Recent(MAX_PLANS)
        self._tail_labels: frozenset[str] | None = None

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

    def _read(self, raw: str, scope: _Scope, *, pronoun_tail: bool = False) -> list[Command] | None:
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
        return _drop_repeated(commands) if commands else None

    def _read_corrected(self, raw: str, scope: _Scope) -> Reading:
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
        self, raw: str, scope: _Scope, tried: set[str]
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

    def _out_of_range(self, clause: str, scope: _Scope) -> str | None:
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

    def prepare(self, context: Mapping[str, Sequence[str]] | None = None) -> None:
        """Compile the rules for these kinds of names, and index the names, ahead of the next
        line (safe from another thread: the dock calls it in the background when layers come and
        go)."""
        mark("", self._scope(context).context)  # builds every kind's index
        self.vocabulary()  # what slips are corrected towards, ahead of the first line with one

    def prepared(self, context: Mapping[str, Sequence[str]] | None = None) -> bool:
        """Whether the rules for these kinds of names are compiled already."""
        plan = self._plans.get(_shape(self._known(context)))
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

    def _scope(self, context: Mapping[str, Sequence[str]] | None) -> _Scope:
        names = self._known(context)
        return _Scope(self._plan(names), names)

    def _line(self, line: str, scope: _Scope, budget: int, memo: dict) -> list[Command] | None:
        if line in memo:
            return memo[line]
        memo[line] = None
        joins = len(separators(line, limit=MAX_JOINS_IN_A_REQUEST + 1))
        whole = self._clause(line, scope) if joins <= MAX_JOINS_IN_A_REQUEST else None
        if whole is not None and not _swallows_a_request(whole, line):
            memo[line] = [whole]
            return memo[line]
        split = self._split(line, scope, budget, memo, carry=whole is None) if budget > 1 else None
        if split is None and whole is not None and not _asks_again(whole, line):
            split = [whole]  # "rename GFP to salt and pepper": a name with "and" in it
        memo[line] = split
        return memo[line]

    def _split(
        self, line: str, scope: _Scope, budget: int, memo: dict, *, carry: bool = True
    ) -> list[Command] | None:
        """The line as a first request and the rest; a pronoun in the rest ("rename A to B and
        then hide it") stands for what the first request named last (B). ``carry=False`` when
        the whole line reads as one request: then the rest must be a request of its own, not
        the first one's words carried over ("apply a dark, rusty metal" is one material)."""
        for start, end in separators(line, limit=MAX_JOINS_IN_A_REQUEST + 1):
            left = self._clause(normalized(line[:start]), scope)
            if left is None:
                shared = self._carry_tail(line[:start], normalized(line[end:]), scope, budget, memo)
                if shared is not None:
                    return shared
                continue
            rest = normalized(line[end:])
            right = self._about(left, line[:start], rest, scope, budget)
            if right and right[0] == left:
                right = right[1:]  # "GFP is too bright, dim it": the second says the first again
            if right is None:
                right = self._line(rest, scope, budget - 1, memo)
                if right and self._loses_referent(left, rest, right[0]):
                    continue  # "... segment 2 then isolate it" is segment 2 or not read, never another
            if right is None and carry:
                right = self._carry_verb(line[:start], left, rest, scope, budget, memo)
            if right is None and carry:
                right = self._carry_frame(line[:start], left, rest, scope)
            if right is not None:
                return [left, *right]
        return None

    def _about(
        self, left: Command, left_text: str, rest: str, scope: _Scope, budget: int
    ) -> list[Command] | None:
        """The rest with the pronoun of its first request replaced by the thing ``left`` named
        last, which counts as a live name of the kinds its old name had (a layer renamed is still
        a layer). A thing counted ("segment 2") is said again as ``left_text`` said it; "its
        opacity" is "the opacity of" the thing."""
        first = _first_request(rest)
        if len(_PRONOUN.findall(first)) + len(_POSSESSIVE.findall(first)) != 1:
            return None
        named = _named(left, self.registry.named_fields(left.action))
        if named is None:
            return None
        old = left.to_wire().get("name")
        context = dict(scope.context)
        for kind, names in scope.context.items():
            if old in names and named not in names:
                context[kind] = known((*names, named))
        inner = _Scope(scope.plan, context)
        for said in _ways_to_say(named, left_text):
            found = self._line(_said_again(first, said) + rest[len(first) :], inner, budget - 1, {})
            if found is not None:
                return found
        return None

    def _loses_referent(self, left: Command, rest: str, right: Command) -> bool:
        """Whether the rest's first request says "it" (or "its") of the thing ``left`` named in a
        field that ``right``, its reading, has too but fills with something else ("paint segment 2
        gold then isolate it" read as isolating the selected segment). A reading without such a
        field takes "it" as the current thing ("import a.glb and segment it"), which stands."""
        first = _first_request(rest)
        if _PRONOUN.search(first) is None and _POSSESSIVE.search(first) is None:
            return False
        wire, said = left.to_wire(), right.to_wire()
        fields = self.registry.named_fields(left.action)
        field = next((f for f in fields if _said(wire.get(f)) is not None), None)
        if field is None or field not in type(right).model_fields:
            return False
        return _said(said.get(field)) != _said(wire[field])

    def _carry_frame(self, left_text: str, left: Command, rest: str, scope: _Scope) -> list[Command] | None:
        """'GFP to 50% and actin to 20%', 'set GFP opacity to 50%, actin 20%': the rest names
        another thing and another value; read it in the first request's words."""
        name = left.to_wire().get("name")
        if not isinstance(name, str):
            return None
        layers = scope.context.get("layers")
        left_names = layers.lookup.spans(left_text) if layers else []
        rest_names = layers.lookup.spans(rest) if layers else []
        if len(left_names) != 1 or len(rest_names) != 1:
            return None
        (a, b, _), (c, d, _) = left_names[0], rest_names[0]
        value = rest[d:].strip()
        old_value = _VALUE_AT_END.search(left_text[b:])
        if (
            not value
            or old_value is None
            or len(value.split()) > 3
            or rest[:c].strip(" ,").casefold() not in ("", "the")
        ):
            return None
        joined = value if _JOINED.match(value) else f"{old_value.group('join') or ''} {value}"
        said = f"{left_text[:a]}{rest[c:d]}{left_text[b : b + old_value.start()]} {joined.strip()}"
        command = self._clause(normalized(said), scope)
        return None if command is None or type(command) is not type(left) else [command]

    def _pronoun_tail(self, line: str, scope: _Scope) -> list[Command] | None:
        """'I don't need the spots right now, hide them': the last request, its pronoun standing for
        the one layer the words before it name. Only when the words before read as no request."""
        spans = separators(line)
        if not spans:
            return None
        start, end = spans[-1]
        before, last = line[:start], normalized(line[end:])
        if _PRONOUN.search(last) is None or len(_PRONOUN.findall(last)) != 1:
            return None
        layers = scope.context.get("layers")
        named = {name for _, _, name in layers.lookup.spans(before)} if layers else set()
        if len(named) != 1:
            return None
        command = self._clause(_PRONOUN.sub(lambda _: named.pop(), last), scope)
        return None if command is None else [command]

    def _carry_tail(
        self, left_text: str, rest: str, scope: _Scope, budget: int, memo: dict
    ) -> list[Command] | None:
        """'critical and brewster angles from 1.33 to 1': a short first part that is no request
        alone takes the words that follow the second part's first word or two, and must then be
        the same kind of request as the second."""
        words, said = left_text.split(), rest.split()
        if not 0 < len(words) <= MAX_SHARED_WORDS or budget < 2:
            return None
        right = self._line(rest, scope, budget - 1, memo)
        if not right:
            return None
        for size in (1, 2):
            if len(said) <= size:
                return None
            left = self._clause(normalized(f"{left_text} {' '.join(said[size:])}"), scope)
            if left is not None and left.action == right[0].action and left != right[0]:
                return [left, *right]
        return None

    def _carry_verb(
        self, left_text: str, left: Command, rest: str, scope: _Scope, budget: int, memo: dict
    ) -> list[Command] | None:
        """'hide nuclei and actin' means 'hide nuclei' and 'hide actin' ('turn on' carries two
        words): the same request again, never another one made of the first's words. The verb is
        carried onto the rest's first part only (a part of one to a few joined pieces), and what
        follows is read as after any request, so a long chained line costs one reading per part."""
        joined_as = type(left).joined_as
        if joined_as is not None:  # "all but A and B": B is shown, whatever verb the line began with
            return self._line(f"{joined_as} {rest}", scope, budget - 1, memo)
        words = left_text.split()
        for size in (1, 2):
            verb = " ".join(words[:size])
            if len(words) <= size or rest.casefold().startswith(verb.casefold()):
                return None
            carried = self._carried(verb, left, rest, scope, budget, memo)
            if carried is not None:
                return carried
        return None

    def _carried(
        self, verb: str, left: Command, rest: str, scope: _Scope, budget: int, memo: dict
    ) -> list[Command] | None:
        """``verb`` said again before the rest's first part, which must then be ``left``'s kind of
        request; the part after it is read as what follows a request (again with ``verb`` carried:
        "hide A, B and C"). The whole rest as one request comes first, as for any line, unless a
        free-text value of it swallows a second request."""
        ends = separators(rest, limit=MAX_JOINS_IN_A_REQUEST + 1)
        whole: list[Command] | None = None
        if len(ends) <= MAX_JOINS_IN_A_REQUEST:
            said = normalized(f"{verb} {rest}")
            first = self._clause(said, scope)
            if first is not None and first.action == left.action:
                if not _swallows_a_request(first, said):
                    return [first]
                whole = None if _asks_again(first, said) else [first]  # "... salt and pepper"
        if budget <= 2:
            return whole
        for start, end in ends:
            said = normalized(f"{verb} {rest[:start]}")
            first = self._clause(said, scope)
            if first is None or first.action != left.action:
                continue
            after = normalized(rest[end:])
            right = self._about(first, said, after, scope, budget - 1)
            if right is None:
                right = self._line(after, scope, budget - 2, memo)
                if right and self._loses_referent(first, after, right[0]):
                    continue
            if right is None and whole is None:  # else the rest is a request of its own
                right = self._carried(verb, first, after, scope, budget - 1, memo)
            if right is not None:
                return [first, *right]
        return whole

    def _tries(self, clause: str, scope: _Scope) -> Iterator[tuple[str, Callable, Rule, Pass]]:
        """The (text, full match, rule, pass) to try on a clause, in the plan's order: a reading of
        known names sees the clause with its live names marked; a rule without names, and a
        free-word reading, see it as typed."""
        steps = scope.plan.steps
        marked = mark(clause, scope.context, quoted_spans(clause))
        for index in scope.plan.candidates(clause.casefold()):
            fullmatch, rule, compiled = steps[index]
            text = clause if compiled.generic or not rule.name_kinds else marked
            yield text, fullmatch, rule, compiled

    def _clause(self, clause: str, scope: _Scope) -> Command | None:
        """One request, options said after it included (:mod:`.tails`)."""
        if not clause:
            return None
        if clause not in scope.clauses:
            scope.clauses[clause] = self._tailed(clause, scope) or self._aside(clause, scope)
        return scope.clauses[clause]

    def _aside(self, clause: str, scope: _Scope) -> Command | None:
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

    def _tailed(self, clause: str, scope: _Scope) -> Command | None:
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

    def _ruled(self, clause: str, scope: _Scope) -> Command | None:
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

    def _plan(self, context: Mapping[str, Sequence[str]]) -> _Plan:
        rules, key = self.registry.rules, _shape(context)
        plan = self._plans.get(key)
        if plan is None or plan.rules is not rules:
            plan = self._plans.put(key, _Plan.build(rules, context))
        return plan

    def _validate(self, wire: dict[str, Any]) -> Command | None:
        try:
            return self.registry.validate(wire)
        except ValidationError:
            return None


MAX_SHARED_WORDS = 4
"""At most this many words before "and" may share the rest of the line ("critical and brewster ...")."""
MAX_JOINS_IN_A_REQUEST = 4
"""One request spans at most this many joining words or commas ("rename GFP to salt and pepper" spans
one): a long chained line is then read in time linear in its length, not quadratic."""
_VALUE_AT_END = re.compile(r"(?:\s+(?P<join>to|at|as|in|=|:))?\s+\S+(?:\s*(?:%|percent))?\s*$", re.IGNORECASE)
_JOINED = re.compile(r"(?:to|at|as|in|=|:)\s", re.IGNORECASE)


_POSSESSIVE = re.compile(
    r"\bits (?P<what>[a-z]+(?: [a-z]+)?)\b(?= (?:to|by|at|up|down|in|out)\b|$)", re.IGNORECASE
)
"""'its opacity to 0.6', 'its contrast up': a field of the thing named before."""
_APPOSITION = re.compile(r",\s+(?:a|an)\s+\w", re.IGNORECASE)
"""A name followed by what it is ("Cinder Oracle, a Seer"): said of a thing, never part of its name."""
_SMALL = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")
_COUNTED = r"(?P<noun>[A-Za-z]+) (?:number |no\.? |#)?{}(?!\w)"


def _first_request(text: str) -> str:
    """The text up to where a second request could begin."""
    spans = separators(text, limit=1)
    return text[: spans[0][0]] if spans else text


def _said_again(text: str, said: str) -> str:
    """``text`` with its pronoun as ``said`` and "its X" as "the X of" ``said``."""

    def of_it(match: re.Match[str]) -> str:
        return f"the {match['what']} of {said}"

    def it(_: re.Match[str]) -> str:
        return said

    return _PRONOUN.sub(it, _POSSESSIVE.sub(of_it, text))


def _ways_to_say(named: str, left_text: str) -> list[str]:
    """How a pronoun's thing may be said again: as its value, and a thing counted by number as
    the words that counted it ("segment 2", "concept #3")."""
    ways = [named]
    if named.isdigit():
        said = re.escape(named) if int(named) >= len(_SMALL) else f"(?:{named}|{_SMALL[int(named)]})"
        counted = re.search(_COUNTED.format(said), left_text, re.IGNORECASE)
        if counted is not None:
            ways.insert(0, f"{counted['noun']} {named}")
    return ways


def _named(command: Command, fields: tuple[str, ...]) -> str | None:
    """What ``command`` names in the first of ``fields`` it fills; a pronoun after it stands for that."""
    wire = command.to_wire()
    return next((_said(wire[f]) for f in fields if _said(wire.get(f)) is not None), None)


def _said(value: Any) -> str | None:
    """A named thing as text: a name, or a number that counts it (concept 2); not a yes/no."""
    if isinstance(value, str):
        return value
    return str(value) if isinstance(value, int) and not isinstance(value, bool) else None


def _swallows_a_request(command: Command, line: str) -> bool:
    """Whether a free-text value of ``command`` holds a word that joins requests ("rename A to
    B and then hide it" as one rename): then the line is tried as two requests first."""
    for value in command.to_wire().values():
        if isinstance(value, str) and " " in value and separators(value, limit=1):
            return True
    return False


def _asks_again(command: Command, line: str) -> bool:
    """Whether a free-text value goes on with a second request: after "then" or ";", or after
    "and" with a verb ("... and move them to the top"); such a line is asked about, not guessed."""
    for value in command.to_wire().values():
        if not isinstance(value, str) or f"'{value}'" in line or f'"{value}"' in line:
            continue  # quoted text is taken as typed
        for start, end in separators(value):
            joint, after = value[start:end].casefold(), value[end:].split(maxsplit=1)
            if "then" in joint or ";" in joint or (after and after[0].casefold() in BASE_VERBS):
                return True
    return False


def _shape(context: Mapping[str, Sequence[str]]) -> tuple[str, ...]:
    """What the compiled rules depend on: which kinds of name are known, not which names."""
    return tuple(sorted(kind for kind, names in context.items() if names))


def _drop_repeated(commands: list[Command]) -> list[Command]:
    """'I'm lost, help' reads as two helps; asking twice in a row for the same reading is once.
    A change asked twice is done twice ("zoom in, zoom in")."""
    kept: list[Command] = []
    for command in commands:
        if kept and command.risk == "read" and command == kept[-1]:
            continue
        kept.append(command)
    return kept


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
