"""How the atlas pack shows entities: the seed's summaries, similarity bands, and tables with
thumbnails for a dock that draws them."""

from __future__ import annotations

import base64
from typing import Any

from .catalogue import Catalogue, Entity
from .embeddings import RELATED, VERY_SIMILAR

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


def thumbnail_url(catalogue: Catalogue, entity: Entity) -> str | None:
    png = catalogue.thumbnail(entity.id) if entity.id is not None else None
    return "data:image/png;base64," + base64.b64encode(png).decode() if png else None


def table(columns: list[str], rows: list[list[Any]], thumbnails: list[str | None]) -> dict[str, Any]:
    return {"columns": columns, "rows": rows, "thumbnails": thumbnails}
