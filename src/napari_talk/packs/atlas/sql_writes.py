"""The writes both backends make, in one transaction each, with what they change told to the
connection's :class:`~.vector_cache.VectorCache`. How entity rows and vectors go in (SQLite's
``executemany``, PostgreSQL's binary ``COPY``) and how a transaction starts and ends are the
backend's, given as :class:`Backend`."""

from __future__ import annotations

import threading
from collections.abc import Iterable, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from . import sql_reads as reads
from .entities import (
    CatalogueError,
    Entity,
    ImportReport,
    Snapshot,
    check_room,
    last_of_each_name,
    name_key,
    tidy,
)
from .rows import VectorRow, vector_rows
from .sql_reads import Connection
from .vector_cache import Delta, VectorCache


class Backend(Protocol):
    """What differs between the databases in a write."""

    def transaction(self) -> AbstractContextManager[None]: ...

    def insert_entities(
        self, entities: Sequence[Entity], thumbnails: Sequence[bytes | None], ids: Sequence[int | None]
    ) -> list[int]:
        """Entity rows (and their sref codes); an id given keeps it, else a new one. Their ids."""
        ...

    def put_vectors(self, rows: Sequence[VectorRow], replace: bool = False) -> None:
        """Vector rows; ``replace`` overwrites a model's vector an entity has."""
        ...


@dataclass
class SqlWriter:
    db: Connection
    backend: Backend
    cache: VectorCache
    lock: threading.RLock

    def add_many(
        self,
        entities: Sequence[Entity],
        vectors: np.ndarray,
        model: str,
        thumbnails: Sequence[bytes | None] | None = None,
    ) -> ImportReport:
        """Add entities with their ``model`` vectors in one transaction; an entity whose name is
        taken replaces the one that had it (the report keeps that one)."""
        entities = [tidy(e) for e in entities]
        thumbs = list(thumbnails) if thumbnails is not None else [None] * len(entities)
        order = last_of_each_name(entities)  # a name twice: the last
        keys = [name_key(entities[i].name) for i in order]
        report, delta = ImportReport(), Delta()
        with self.lock:
            with self.backend.transaction():
                taken = reads.ids_of_names(self.db, keys)
                check_room(reads.count(self.db), len(keys) - len(taken))
                old_ids: list[int | None] = []
                for key in keys:
                    old_id = taken.get(key)
                    if old_id is not None:
                        snapshot = reads.snapshot(self.db, old_id)
                        report.replaced.append(snapshot)
                        self.db.execute("DELETE FROM entities WHERE id = ?", (old_id,))
                        delta.delete(old_id, snapshot.entity.name)
                    old_ids.append(old_id)
                ids = self.backend.insert_entities(
                    [entities[i] for i in order], [thumbs[i] for i in order], old_ids
                )
                rows = vector_rows(ids, model, np.asarray(vectors)[order])
                self.backend.put_vectors(rows)
                for entity_id, i, old_id in zip(ids, order, old_ids, strict=True):
                    delta.inserted[entity_id] = entities[i].name
                    if old_id is None:
                        report.added.append(entity_id)
                delta.write(rows)
            self.cache.wrote(delta)
        return report

    def remove(self, name: str) -> Snapshot:
        """Take an entity out; the snapshot puts it back (:meth:`restore`)."""
        with self.lock:
            with self.backend.transaction():
                entity = reads.get(self.db, name)
                if entity is None:
                    raise CatalogueError(f"no entity named {name!r} in the catalogue")
                snapshot = reads.snapshot(self.db, entity.key)
                self.db.execute("DELETE FROM entities WHERE id = ?", (entity.key,))
            self.cache.wrote(Delta(removed={entity.key}, gone_names=[entity.name]))
        return snapshot

    def delete_ids(self, ids: Iterable[int]) -> None:
        delta = Delta()
        with self.lock:
            with self.backend.transaction():
                for entity_id in ids:
                    row = self.db.execute(
                        "SELECT name FROM entities WHERE id = ?", (int(entity_id),)
                    ).fetchone()
                    if row is not None:
                        self.db.execute("DELETE FROM entities WHERE id = ?", (int(entity_id),))
                        delta.delete(int(entity_id), row[0])
            self.cache.wrote(delta)

    def restore(self, snapshots: Iterable[Snapshot]) -> None:
        """Put snapshotted entities back with their ids, replacing what holds their names now."""
        delta = Delta()
        with self.lock:
            with self.backend.transaction():
                for snap in snapshots:
                    holders = self.db.execute(
                        "SELECT id, name FROM entities WHERE name_key = ? OR id = ?",
                        (name_key(snap.entity.name), snap.entity.id),
                    ).fetchall()
                    for old_id, old_name in holders:
                        self.db.execute("DELETE FROM entities WHERE id = ?", (old_id,))
                        delta.delete(old_id, old_name)
                    (entity_id,) = self.backend.insert_entities(
                        [snap.entity], [snap.thumbnail], [snap.entity.id]
                    )
                    rows = [(entity_id, *vector) for vector in snap.vectors]
                    self.backend.put_vectors(rows)
                    delta.inserted[entity_id] = snap.entity.name
                    delta.write(rows)
            self.cache.wrote(delta)

    def put_missing(self, rows: Sequence[VectorRow]) -> None:
        """Vectors for entities that lacked them; an entity removed meanwhile gets none (the
        foreign key would refuse it)."""
        with self.lock:
            with self.backend.transaction():
                living = reads.alive(self.db, [r[0] for r in rows])
                rows = [r for r in rows if r[0] in living]
                self.backend.put_vectors(rows, replace=True)
            written = Delta()
            written.write(rows)
            self.cache.wrote(written)
