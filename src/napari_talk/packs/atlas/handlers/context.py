"""What the parser and a language model are told about the catalogue."""

from __future__ import annotations

from ....core.contract.pack import Context
from ..grammar import RESULTS
from ..store import Atlas
from .common import (
    NAMES_FOR_PARSER,
    atlas_of,
)


def known_names(ctx: Context[Atlas]) -> dict[str, list[str]]:
    atlas = atlas_of(ctx)
    names = atlas.names_now()
    known = {"entities": names} if 0 < len(names) <= NAMES_FOR_PARSER else {}
    if atlas.last_results:  # "open the first one", "that one" are read while there are results
        known[RESULTS] = list(atlas.last_results)
    return known


def describe_context(ctx: Context[Atlas]) -> list[str]:
    atlas = atlas_of(ctx)
    if not atlas.exists():
        return ['Atlas catalogue: not created yet ("load the sample catalogue" fills one).']
    catalogue = atlas.catalogue
    domains = ", ".join(f"{d} ({n})" for d, n in list(catalogue.domains().items())[:8])
    model, _ = atlas.model(ctx.llm.settings if ctx.llm is not None else None)
    lines = [
        f"Atlas catalogue: {catalogue.count()} entities; domains: {domains or '(none)'}; embeddings: {model}"
    ]
    names = catalogue.names()
    if names:
        lines.append("Entities: " + ", ".join(names[:30]) + (", …" if len(names) > 30 else ""))
    return lines
