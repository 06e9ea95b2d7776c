"""Examples offered after a miss, said in the person's own names.

The command models' examples are written for the samples ("show only spots"). Offered as they
are, they name things that are not there: a layer "spots" in a viewer without one. Each example
is read by the parser, and every name it gives a field that takes live names (``x-names`` in the
command's schema) is swapped for a live name of that kind — one the person's line mentions first.
An example whose kind of name has nothing live (a segment when no mesh is segmented) is left out,
unless the person's line says that very name ("rays loitering inside Prism" before a scene is open
is offered "rays inside Prism": the words to use once it is).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from ..basics.commands import NAMES_KEY

if TYPE_CHECKING:
    from ..contract.registry import Registry
    from ..grammar.parser import Parser

EXAMPLE_NAMES: Mapping[str, Sequence[str]] = {}
"""The context the examples are read in: none, so each name in them is read as typed."""


def in_live_names(
    examples: Sequence[str],
    line: str,
    names: Mapping[str, Sequence[str]],
    registry: Registry,
    parser: Parser,
) -> list[str]:
    """``examples`` with their names swapped for live ones; the ones that cannot be, left out."""
    said = line.casefold()
    kept: list[str] = []
    for example in examples:
        spoken = _spoken(example, said, names, registry, parser)
        if spoken is not None and spoken not in kept:
            kept.append(spoken)
    return kept


def _spoken(
    example: str, said: str, names: Mapping[str, Sequence[str]], registry: Registry, parser: Parser
) -> str | None:
    commands = parser.parse(example, EXAMPLE_NAMES)
    if not commands:
        return example  # an example the parser cannot read alone (a test keeps these few)
    text = example
    for command in commands:
        properties = registry.schema(command.action).get("properties", {})
        for field, value in command.to_wire().items():
            kind = properties.get(field, {}).get(NAMES_KEY)
            if kind is None or not isinstance(value, str):
                continue
            live = list(names.get(kind, ()))
            if any(value.casefold() == name.casefold() for name in live):
                continue
            if not live:  # nothing of the kind here: kept only for a name the person said
                if value.casefold() in said:
                    continue
                return None
            mentioned = [name for name in live if name.casefold() in said]
            chosen = max(mentioned, key=len) if mentioned else live[0]
            pattern = re.compile(rf"(?<!\w){re.escape(value)}(?!\w)", re.IGNORECASE)
            text, swapped = pattern.subn(chosen.replace("\\", "\\\\"), text)
            if not swapped:
                return None
    return text
