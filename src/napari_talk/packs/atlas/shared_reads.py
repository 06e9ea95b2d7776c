"""The reads, and the writes handed to the backend's writer, that both catalogue backends make the
same way over their own connection, lock and writer (``_db``, ``_lock``, ``_cache``, ``_writer``):
written once, not once per backend."""

from __future__ import annotations

import threading
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from . import sql_reads as reads
from .entities import CatalogueError, Entity, ImportReport, Snapshot, name_key, tidy, unchanged
from .sql_writes import SqlWriter
from .vector_cache import VectorCache
from .vectorize import embed

if TYPE_CHECKING:
    import numpy as np

    from .embeddings import Embedder


class SharedReads:
    """Mixed into :class:`~.catalogue.Catalogue` and :class:`~.postgres.PostgresCatalogue`."""

    _db: Any
    _lock: threading.RLock | threading.Lock
    _cache: VectorCache
    _writer: SqlWriter

    # -- small reads ----------------------------------------------------------------------------

    def count(self) -> int:
        with self._lock:
            return reads.count(self._db)

    def empty(self) -> bool:
        with self._lock:
            return reads.empty(self._db)

    def names(self) -> list[str]:
        """Every entity's name (cached until the catalogue changes)."""
        return self._cache.names(lambda: reads.name_rows(self._db))

    def names_if_known(self) -> list[str] | None:
        return self._cache.names_if_known()

    def domains(self) -> dict[str, int]:
        with self._lock:
            return reads.domains(self._db)

    def get(self, name: str) -> Entity | None:
        with self._lock:
            return reads.get(self._db, name)

    def by_ids(self, ids: Sequence[int]) -> dict[int, Entity]:
        with self._lock:
            return reads.by_ids(self._db, ids)

    def entities(self, domain: str | None = None) -> list[Entity]:
        with self._lock:
            return reads.entities(self._db, domain)

    def thumbnail(self, entity_id: int) -> bytes | None:
        with self._lock:
            return reads.thumbnail(self._db, entity_id)

    def thumbnails(self, ids: Sequence[int]) -> dict[int, bytes]:
        with self._lock:
            return reads.thumbnails(self._db, ids)

    def setting(self, key: str) -> str | None:
        with self._lock:
            return reads.setting(self._db, key)

    def set_setting(self, key: str, value: str) -> None:
        with self._lock:
            reads.set_setting(self._db, key, value)

    def by_sref(self, codes: Sequence[str]) -> tuple[list[Entity], dict[str, int]]:
        with self._lock:
            return reads.by_sref(self._db, codes)

    # -- writes ---------------------------------------------------------------------------------

    def add(self, entity: Entity, embedder: Embedder, thumbnail: bytes | None = None) -> Entity:
        """Add one new entity (its name must be free); returns it with its id."""
        if self.get(entity.name) is not None:
            raise CatalogueError(f"an entity named {entity.name!r} is already in the catalogue")
        entity = tidy(entity)
        report = self.add_many([entity], embed(embedder, [entity]), embedder.name, thumbnails=[thumbnail])
        return self.by_ids(report.added)[report.added[0]]

    def add_many(
        self,
        entities: Sequence[Entity],
        vectors: np.ndarray,
        model: str,
        *,
        thumbnails: Sequence[bytes | None] | None = None,
    ) -> ImportReport:
        """Add entities with their ``model`` vectors (see :func:`embed`), in one transaction;
        an entity whose name is taken replaces the one that had it (the report keeps that one)."""
        return self._writer.add_many(entities, vectors, model, thumbnails)

    def unchanged(self, entities: Sequence[Entity], model: str) -> set[int]:
        """Indices of ``entities`` stored as they are, with a ``model`` vector: an import
        stopped half-way and started again skips them."""
        with self._lock:
            return unchanged(
                entities, reads.stored_with_vector(self._db, [name_key(e.name) for e in entities], model)
            )

    def remove(self, name: str) -> Snapshot:
        """Take an entity out; the snapshot puts it back (:meth:`restore`)."""
        return self._writer.remove(name)

    def delete_ids(self, ids: Iterable[int]) -> None:
        self._writer.delete_ids(ids)

    def restore(self, snapshots: Iterable[Snapshot]) -> None:
        """Put snapshotted entities back with their ids, replacing what holds their names now."""
        self._writer.restore(snapshots)
