"""A line of several requests: where one request ends and the next begins, a verb or frame carried
onto the parts that follow ("hide nuclei and actin", "GFP to 50% and actin to 20%"), and a pronoun
in a later part standing for what an earlier one named (:mod:`.anaphora`)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ..rules.lookup import known
from ..rules.text import BASE_VERBS, normalized, separators
from .anaphora import POSSESSIVE, PRONOUN, as_said, first_request, named_by, said_again, ways_to_say
from .clauses import ClauseReader
from .plan import Scope

if TYPE_CHECKING:
    from ..basics.commands import Command

MAX_SHARED_WORDS = 4
"""At most this many words before "and" may share the rest of the line ("critical and brewster ...")."""
MAX_JOINS_IN_A_REQUEST = 4
"""One request spans at most this many joining words or commas ("rename GFP to salt and pepper" spans
one): a long chained line is then read in time linear in its length, not quadratic."""
_VALUE_AT_END = re.compile(r"(?:\s+(?P<join>to|at|as|in|=|:))?\s+\S+(?:\s*(?:%|percent))?\s*$", re.IGNORECASE)
_JOINED = re.compile(r"(?:to|at|as|in|=|:)\s", re.IGNORECASE)


class ChainReader(ClauseReader):
    """Reads a line as the requests it chains, each part by :class:`.clauses.ClauseReader`."""

    def _line(self, line: str, scope: Scope, budget: int, memo: dict) -> list[Command] | None:
        if line in memo:
            return memo[line]
        memo[line] = None
        joins = len(separators(line, limit=MAX_JOINS_IN_A_REQUEST + 1))
        whole = self._clause(line, scope) if joins <= MAX_JOINS_IN_A_REQUEST else None
        if whole is not None and not swallows_a_request(whole, line):
            memo[line] = [whole]
            return memo[line]
        split = self._split(line, scope, budget, memo, carry=whole is None) if budget > 1 else None
        if split is None and whole is not None and not asks_again(whole, line):
            split = [whole]  # "rename GFP to salt and pepper": a name with "and" in it
        memo[line] = split
        return memo[line]

    def _split(
        self, line: str, scope: Scope, budget: int, memo: dict, *, carry: bool = True
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
        self, left: Command, left_text: str, rest: str, scope: Scope, budget: int
    ) -> list[Command] | None:
        """The rest with the pronoun of its first request replaced by the thing ``left`` named
        last, which counts as a live name of the kinds its old name had (a layer renamed is still
        a layer). A thing counted ("segment 2") is said again as ``left_text`` said it; "its
        opacity" is "the opacity of" the thing."""
        first = first_request(rest)
        if len(PRONOUN.findall(first)) + len(POSSESSIVE.findall(first)) != 1:
            return None
        named = named_by(left, self.registry.named_fields(left.action))
        if named is None:
            return None
        old = left.to_wire().get("name")
        context = dict(scope.context)
        for kind, names in scope.context.items():
            if old in names and named not in names:
                context[kind] = known((*names, named))
        inner = Scope(scope.plan, context)
        for said in ways_to_say(named, left_text):
            found = self._line(said_again(first, said) + rest[len(first) :], inner, budget - 1, {})
            if found is not None:
                return found
        return None

    def _loses_referent(self, left: Command, rest: str, right: Command) -> bool:
        """Whether the rest's first request says "it" (or "its") of the thing ``left`` named in a
        field that ``right``, its reading, has too but fills with something else ("paint segment 2
        gold then isolate it" read as isolating the selected segment). A reading without such a
        field takes "it" as the current thing ("import a.glb and segment it"), which stands."""
        first = first_request(rest)
        if PRONOUN.search(first) is None and POSSESSIVE.search(first) is None:
            return False
        wire, said = left.to_wire(), right.to_wire()
        fields = self.registry.named_fields(left.action)
        field = next((f for f in fields if as_said(wire.get(f)) is not None), None)
        if field is None or field not in type(right).model_fields:
            return False
        return as_said(said.get(field)) != as_said(wire[field])

    def _carry_frame(self, left_text: str, left: Command, rest: str, scope: Scope) -> list[Command] | None:
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

    def _pronoun_tail(self, line: str, scope: Scope) -> list[Command] | None:
        """'I don't need the spots right now, hide them': the last request, its pronoun standing for
        the one layer the words before it name. Only when the words before read as no request."""
        spans = separators(line)
        if not spans:
            return None
        start, end = spans[-1]
        before, last = line[:start], normalized(line[end:])
        if PRONOUN.search(last) is None or len(PRONOUN.findall(last)) != 1:
            return None
        layers = scope.context.get("layers")
        named = {name for _, _, name in layers.lookup.spans(before)} if layers else set()
        if len(named) != 1:
            return None
        command = self._clause(PRONOUN.sub(lambda _: named.pop(), last), scope)
        return None if command is None else [command]

    def _carry_tail(
        self, left_text: str, rest: str, scope: Scope, budget: int, memo: dict
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
        self, left_text: str, left: Command, rest: str, scope: Scope, budget: int, memo: dict
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
        self, verb: str, left: Command, rest: str, scope: Scope, budget: int, memo: dict
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
                if not swallows_a_request(first, said):
                    return [first]
                whole = None if asks_again(first, said) else [first]  # "... salt and pepper"
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


def swallows_a_request(command: Command, line: str) -> bool:
    """Whether a free-text value of ``command`` holds a word that joins requests ("rename A to
    B and then hide it" as one rename): then the line is tried as two requests first."""
    for value in command.to_wire().values():
        if isinstance(value, str) and " " in value and separators(value, limit=1):
            return True
    return False


def asks_again(command: Command, line: str) -> bool:
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


def drop_repeated(commands: list[Command]) -> list[Command]:
    """'I'm lost, help' reads as two helps; asking twice in a row for the same reading is once.
    A change asked twice is done twice ("zoom in, zoom in")."""
    kept: list[Command] = []
    for command in commands:
        if kept and command.risk == "read" and command == kept[-1]:
            continue
        kept.append(command)
    return kept
