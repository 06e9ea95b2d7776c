"""A command as one line the parser reads back to exactly that command.

The grammar's canonical phrasings (:mod:`..grammar.canonical`) are filled with the command's own
values, written each way a slot's kind accepts them, and a filled line counts only when the parser,
given the session's names, reads it back to the same command: a recipe never holds a line that
would mean something else.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from ..grammar.canonical import Phrasing, phrasings

if TYPE_CHECKING:
    from ..basics.commands import Command
    from ..contract.registry import Registry
    from ..grammar.parser import Parser

MAX_TRIES = 400
"""Filled lines tried for one command before giving up (each is one parse, well under a millisecond)."""


@dataclass(frozen=True)
class Phrased:
    """A canonical phrasing and the text put in each of its slots."""

    phrasing: Phrasing
    values: tuple[str, ...]

    def line(self, replaced: Mapping[str, str] | None = None) -> str:
        """The line, with a slot's field given ``replaced[field]`` instead (a placeholder)."""
        replaced = replaced or {}
        return self.phrasing.filled(
            [
                replaced.get(slot.field, value)
                for slot, value in zip(self.phrasing.slots, self.values, strict=True)
            ]
        )


def phrase(
    command: Command, registry: Registry, parser: Parser, names: Mapping[str, Sequence[str]]
) -> Phrased | None:
    """The first canonical line (in the grammar's order) that reads back to ``command``; None when
    none does."""
    wanted = [command.to_wire()]
    wire = command.model_dump()
    tries = 0
    for phrasing in _of_action(registry, command.action):
        if any(slot.field not in wire or wire[slot.field] is None for slot in phrasing.slots):
            continue
        for values in itertools.product(*(list(_spellings(wire[slot.field])) for slot in phrasing.slots)):
            tries += 1
            if tries > MAX_TRIES:
                return None
            line = phrasing.filled(values)
            if [c.to_wire() for c in parser.parse(line, names)] == wanted:
                return Phrased(phrasing, tuple(values))
    return None


def _of_action(registry: Registry, action: str) -> list[Phrasing]:
    return _by_action(registry).get(action, [])


@lru_cache(maxsize=4)
def _by_action(registry: Registry) -> dict[str, list[Phrasing]]:
    found: dict[str, list[Phrasing]] = {}
    for phrasing in phrasings(registry):
        found.setdefault(phrasing.action, []).append(phrasing)
    return found  # in the grammar's order: a rule's first template, walked shortest, comes first


def _spellings(value: Any) -> Iterator[str]:
    """How a value may be typed in a slot, plainest first."""
    if isinstance(value, bool):
        yield "on" if value else "off"
    elif isinstance(value, (int, float)):
        yield f"{value:g}"
        if isinstance(value, float) and 0 <= value <= 1:
            yield f"{value * 100:g}%"
        yield repr(value)
    elif isinstance(value, (list, tuple)):
        parts = [_number(v) for v in value]
        for joint in (", ", " to ", "-", " "):
            yield joint.join(parts)
        yield "(" + ", ".join(parts) + ")"
    else:
        yield str(value)


def _number(value: Any) -> str:
    return f"{value:g}" if isinstance(value, (int, float)) and not isinstance(value, bool) else str(value)
