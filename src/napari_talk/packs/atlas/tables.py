"""How the atlas pack shows entities: the seed's summaries, similarity bands, and tables with
thumbnails for a dock that draws them."""

from __future__ import annotations

import base64
from collections.abc import Sequence
from typing import Any

from .catalogue_store import CatalogueStore
from .embeddings import RELATED, VERY_SIMILAR
from .entities import Entity

DESCRIPTION_CHARS = 200


def summary(entity: Entity) -> dict[str, Any]:
    return {
        "name": entity.name,
        "type": entity.type,
        "domain": entity.domain,
        "description": entity.description[:DESCRIPTION_CHARS],
    }


def band(similarity: float) -> str:
    """The seed's reading of a similarity."""
    if similarity > VERY_SIMILAR:
        return "very similar"
    return "related" if similarity >= RELATED else "distant"


def thumbnail_urls(catalogue: CatalogueStore, entities: Sequence[Entity]) -> list[str | None]:
    """Each entity's thumbnail as a data URL (None without one), read in one query."""
    pngs = catalogue.thumbnails([e.id for e in entities if e.id is not None])
    return [
        "data:image/png;base64," + base64.b64encode(pngs[e.id]).decode() if e.id in pngs else None
        for e in entities
    ]


def table(columns: list[str], rows: list[list[Any]], thumbnails: list[str | None]) -> dict[str, Any]:
    return {"columns": columns, "rows": rows, "thumbnails": thumbnails}
