"""Reading the catalogue: similarity search, sref families, listing."""

from __future__ import annotations

import functools

import numpy as np

from ....core.basics.jobs import Job, Progress
from ....core.basics.result import CommandError, Result
from ....core.contract.pack import Context
from .. import commands as cmd
from .. import samples, tables
from .. import sref as srefs
from ..catalogue_store import CatalogueStore
from ..embeddings import LOCAL_MODELS, OFFLINE, Embedder, EmbeddingError, minilm_available
from ..entities import Entity
from ..ranking import DESCRIBED, query_facets, reranked
from ..store import Atlas
from .common import (
    HANDLERS,
    SAMPLE_FIRST,
    after_sample,
    catalogue_of,
    embedder_of,
    fill_vectors,
    job,
    load_sample,
    take_up,
)

# -- find_similar --------------------------------------------------------------------------------

RERANK_POOL = 50
"""The nearest by cosine that a text query's facets re-rank (see :mod:`..ranking`)."""


@HANDLERS.on(cmd.FindSimilar)
def find_similar(command: cmd.FindSimilar, ctx: Context[Atlas]) -> Job:
    def search(progress: Progress) -> Result:
        # the catalogue opened (its file and tables made, the first time) off the GUI thread too
        if take_up(ctx):
            load_sample(ctx, progress)
        return _similar(command, ctx, catalogue_of(ctx), embedder_of(ctx, progress), progress)

    return job("searching the catalogue", search)


def _similar(
    command: cmd.FindSimilar,
    ctx: Context[Atlas],
    catalogue: CatalogueStore,
    embedder: Embedder,
    progress: Progress | None = None,
) -> Result:
    fill_vectors(ctx, embedder, progress)
    named = catalogue.get(command.query)
    vector = catalogue.vector_of(named.key, embedder.name) if named is not None else None
    exclude: list[int] = []
    if named is not None and vector is not None:
        exclude, how = [named.key], f"the entity {named.name}"
    else:
        try:
            vector = embedder.embed([command.query])[0]
        except EmbeddingError as exc:
            raise CommandError(str(exc)) from None
        how = f"{command.query!r}"
    try:
        scales = catalogue.calibration(embedder.name, vector.shape[0], embedder.embed, _reference_texts())
    except EmbeddingError as exc:
        raise CommandError(str(exc)) from None
    scale = scales.entities if exclude else scales.queries
    if exclude:
        hits = catalogue.search(vector, embedder.name, command.limit, exclude)
    else:  # a text: the nearest by cosine, re-ranked by the look the query names (colours, patterns)
        pool = catalogue.search(vector, embedder.name, max(RERANK_POOL, command.limit), exclude)
        pictures = catalogue.thumbnails([e.key for e, _ in pool]) if query_facets(command.query) else {}
        hits = reranked(
            command.query, pool, command.limit, scale, pictures, _described(embedder, pool, vector)
        )
    scored = [(e, round(float(scale.similarity(c)), 2)) for e, c in hits]
    scored = [(e, s) for e, s in scored if s > 0]
    ctx.state.last_results = [e.name for e, _ in scored]
    entities = [{**tables.summary(e), "similarity": s} for e, s in scored]
    data = {"found": len(entities), "entities": entities}
    table = tables.table(  # narrow enough for the dock: the reply above gives type and domain
        ["", "similarity", "band", "name"],
        [[s, tables.band(s), e.name] for e, s in scored],
        tables.thumbnail_urls(catalogue, [e for e, _ in scored]),
    )
    if not scored:
        return Result.success(f"nothing in the catalogue is similar to {how}.", data, table=table)
    lines = [
        f"{s:.2f} {tables.band(s):<12} {e.name} ({', '.join(p for p in (e.type, e.domain) if p)})"
        for e, s in scored
    ]
    head = (
        f"{len(scored)} closest to {how} ({embedder.name} embeddings; > 0.8 very similar, 0.6–0.8 related):"
    )
    standing_in = ctx.state.standing_in if embedder.name == OFFLINE else None
    if standing_in:
        lines.append(words_note(standing_in))
    elif embedder.name == OFFLINE and not minilm_available():
        lines.append(OFFLINE_NOTE)
    result = Result.success("\n".join([head, *lines]), data, embedder=embedder.name, table=table)
    if standing_in:
        result.meta["standing_in"] = standing_in
    return result


def _described(embedder: Embedder, pool: list[tuple[Entity, float]], vector: np.ndarray) -> np.ndarray | None:
    """The query's cosines with the descriptions of the nearest hits (see :data:`..ranking.DESCRIBED`):
    with a local model only, which remembers them (a server would be sent them at every search)."""
    if embedder.name not in LOCAL_MODELS:
        return None
    near = [e.description for e, _ in pool[:DESCRIBED]]
    shown = [i for i, text in enumerate(near) if text]
    cosines = np.full(len(near), -1.0)
    if shown:
        try:
            cosines[shown] = embedder.embed([near[i] for i in shown]) @ vector
        except EmbeddingError as exc:
            raise CommandError(str(exc)) from None
    return cosines


OFFLINE_NOTE = (
    "(the offline embedder matches words and word pieces; for meaning, `napari-talk atlas download-model` "
    'fetches the sentence model, then "set the embedding model to minilm-int8")'
)


def words_note(why: str) -> str:
    """The one line saying a search matched words because MiniLM could not be had, and how to get it."""
    why = why.rstrip(".")
    if "napari-talk atlas download-model" not in why:
        why += " — `napari-talk atlas download-model` fetches it, or a later search tries again"
    return f"(searched by word matching: {why})"


@functools.cache
def _reference_texts() -> list[str]:
    """The sample catalogue's texts: what calibrates a model's bands while the catalogue is too
    small to measure them on."""
    return [Entity(e.name, e.type, e.domain, e.class_name, e.description).text() for e in samples.ENTITIES]


# -- find_by_sref --------------------------------------------------------------------------------


@HANDLERS.on(cmd.FindBySref)
def find_by_sref(command: cmd.FindBySref, ctx: Context[Atlas]) -> Result | Job:
    codes = srefs.normalize_codes(command.sref_code)
    if not codes:
        raise CommandError(f"no sref code in {command.sref_code!r}; type it as '--sref 123' or '123'")
    if take_up(ctx):
        return job(SAMPLE_FIRST, lambda p: after_sample(ctx, p, lambda: find_by_sref(command, ctx)))
    catalogue = catalogue_of(ctx)
    entities, counts = catalogue.by_sref(codes)
    asked = " ".join(codes)
    ctx.state.last_results = [e.name for e in entities]
    data = {
        "found": len(entities),
        "sref_code": asked,
        "entities": [{**tables.summary(e), "sref": e.sref} for e in entities],
        "codes": [{"code": code, "count": count} for code, count in counts.items()],
    }
    table = tables.table(
        ["", "name", "type", "domain", "sref"],
        [[e.name, e.type, e.domain, e.sref] for e in entities],
        tables.thumbnail_urls(catalogue, entities),
    )
    if not entities:
        return Result.success(f"no entity has sref {asked}.", data, table=table)
    sharing = ", ".join(f"{code} ×{count}" for code, count in counts.items())
    names = ", ".join(e.name for e in entities)
    return Result.success(
        f"{len(entities)} with sref {asked}: {names}.\nEntities per code: {sharing}.", data, table=table
    )


@HANDLERS.on(cmd.ListEntities)
def list_entities(command: cmd.ListEntities, ctx: Context[Atlas]) -> Result | Job:
    if take_up(ctx):
        return job(SAMPLE_FIRST, lambda p: after_sample(ctx, p, lambda: list_entities(command, ctx)))
    catalogue = catalogue_of(ctx)
    entities = catalogue.entities(command.domain)
    if command.domain is not None and not entities:
        known = ", ".join(catalogue.domains()) or "(none)"
        raise CommandError(f"no entity in domain {command.domain!r}; domains: {known}")
    domains = catalogue.domains() if command.domain is None else {command.domain: len(entities)}
    data = {
        "count": len(entities),
        "domains": domains,
        "entities": [
            {"name": e.name, "type": e.type, "domain": e.domain, "sref": e.sref} for e in entities[:100]
        ],
    }
    ctx.state.last_results = [e.name for e in entities[:50]]
    listed = "; ".join(f"{d or '(no domain)'}: {n}" for d, n in domains.items())
    names = ", ".join(e.name for e in entities[:15]) + (", …" if len(entities) > 15 else "")
    table = tables.table(
        ["", "name", "type", "domain"],
        [[e.name, e.type, e.domain] for e in entities[:50]],
        tables.thumbnail_urls(catalogue, entities[:50]),
    )
    return Result.success(f"{len(entities)} entities ({listed}): {names}", data, table=table)
