"""Entities' texts into vectors, in batches between which progress is told and Stop heard (slow
work: it runs off the GUI thread); and the filling of a catalogue's missing vectors."""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence

import numpy as np

from .embeddings import Embedder
from .entities import Entity
from .limits import EMBED_BATCH
from .rows import VectorRow, vector_rows
from .vector_cache import VectorCache

Progress = Callable[[int, int], None]


def embed(embedder: Embedder, entities: Sequence[Entity], on_progress: Progress | None = None) -> np.ndarray:
    """The vectors of entities' texts, in batches (slow work: it can run off the GUI thread)."""
    texts = [e.text() for e in entities]
    parts = []
    for start in range(0, len(texts), EMBED_BATCH):
        parts.append(embedder.embed(texts[start : start + EMBED_BATCH]))
        if on_progress is not None:
            on_progress(min(start + EMBED_BATCH, len(texts)), len(texts))
    return np.concatenate(parts) if parts else np.zeros((0, 0), np.float32)


def fill_missing(
    cache: VectorCache,
    missing: Callable[[str], list[tuple[int, str]]],
    put: Callable[[Sequence[VectorRow]], None],
    embedder: Embedder,
    on_progress: Progress | None = None,
) -> int:
    """Give every entity a vector of ``embedder``'s model (``missing`` lists those without one,
    ``put`` stores a batch); returns how many were embedded.

    Once every entity has one, nothing is scanned again until the catalogue changes (a search
    calls this first, and the scan costs more than the search at 100,000 entities)."""
    lock: threading.RLock = cache.lock
    with lock:
        stamp = cache.stamp()
    if cache.complete.get(embedder.name) == stamp:
        return 0
    todo = missing(embedder.name)
    if not todo:
        cache.complete[embedder.name] = stamp
        return 0
    done = 0
    for start in range(0, len(todo), EMBED_BATCH):
        batch = todo[start : start + EMBED_BATCH]
        vectors = embedder.embed([text for _, text in batch])
        with lock:
            put(vector_rows([entity_id for entity_id, _ in batch], embedder.name, vectors))
            stamp = cache.stamp()
        done += len(batch)
        if on_progress is not None:
            on_progress(done, len(todo))
    with lock:
        if cache.stamp() == stamp:  # no entity came in meanwhile
            cache.complete[embedder.name] = stamp
    return done
