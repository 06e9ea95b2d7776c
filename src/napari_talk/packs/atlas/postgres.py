"""The catalogue on PostgreSQL with pgvector, one shared catalogue for a lab or a studio: a
:class:`~.catalogue_store.CatalogueStore` beside the SQLite :class:`~.catalogue.Catalogue`.

Its tables live in the schema ``atlas``, created on first use with the ``vector`` extension;
imports go in by binary ``COPY``; search asks an HNSW index (cosine) per embedding model
(:mod:`.pg_index`) instead of scoring every vector in memory. Other clients' writes are seen
through a revision counter that every write transaction moves. The connection, and how its URL's
password is kept out of every message, is :mod:`.pg_connection`'s.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

import numpy as np

from . import sql_reads as reads
from . import sref as srefs
from .calibration import Calibration
from .embeddings import Embedder
from .entities import FIELDS, CatalogueError, Entity, name_key
from .limits import SCHEMA_VERSION
from .pg_connection import PgConnection, available, password_of, shown
from .pg_index import EF_SEARCH, INDEX_AT_ONCE, HnswIndexes
from .rows import VectorRow, entity_of, matrix_of
from .shared_reads import SharedReads
from .sql_writes import SqlWriter
from .stored_calibration import calibrated
from .vector_cache import VectorCache
from .vectorize import Progress, fill_missing

__all__ = ["EF_SEARCH", "INDEX_AT_ONCE", "PostgresCatalogue", "available", "password_of", "shown"]

SCHEMA = f"""
CREATE EXTENSION IF NOT EXISTS vector;
CREATE SCHEMA IF NOT EXISTS atlas;
CREATE TABLE IF NOT EXISTS atlas.entities (
    id BIGSERIAL PRIMARY KEY,
    name TEXT NOT NULL,
    name_key TEXT NOT NULL UNIQUE,
    {", ".join(f"{f} TEXT NOT NULL DEFAULT ''" for f in FIELDS if f not in ("name", "created"))},
    created TEXT NOT NULL,
    thumbnail BYTEA
);
CREATE TABLE IF NOT EXISTS atlas.sref_codes (
    entity_id BIGINT NOT NULL REFERENCES atlas.entities(id) ON DELETE CASCADE,
    code TEXT NOT NULL,
    PRIMARY KEY (entity_id, code)
);
CREATE INDEX IF NOT EXISTS sref_codes_code ON atlas.sref_codes(code);
CREATE TABLE IF NOT EXISTS atlas.vectors (
    entity_id BIGINT NOT NULL REFERENCES atlas.entities(id) ON DELETE CASCADE,
    model TEXT NOT NULL,
    dim INTEGER NOT NULL,
    vector BYTEA NOT NULL,
    embedding vector NOT NULL,
    PRIMARY KEY (entity_id, model)
);
CREATE TABLE IF NOT EXISTS atlas.settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS atlas.revision (n BIGINT NOT NULL);
INSERT INTO atlas.revision SELECT 0 WHERE NOT EXISTS (SELECT 1 FROM atlas.revision);
"""
CALIBRATION_ROWS = 4_000
"""Vectors a model's scale is measured on, of a larger catalogue (see :mod:`.calibration`)."""


class _PgTransaction:
    """BEGIN … (the revision moved) COMMIT, or ROLLBACK when the block raises."""

    def __init__(self, rows: _PgRows) -> None:
        self.rows = rows

    def __enter__(self) -> None:
        self.rows.db.execute("BEGIN")

    def __exit__(self, kind: Any, *_: Any) -> None:
        db = self.rows.db
        if kind is not None:
            db.execute("ROLLBACK")
            return
        try:
            db.execute("UPDATE revision SET n = n + 1")
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise
        self.rows.own_revisions += 1


class _PgRows:
    """How entity rows and vectors go into PostgreSQL: binary ``COPY``, ids from the sequence."""

    def __init__(self, db: PgConnection) -> None:
        self.db = db
        self.own_revisions = 0
        """This connection's writes: the revision less these is what other clients wrote."""

    def transaction(self) -> _PgTransaction:
        return _PgTransaction(self)

    def insert_entities(
        self, entities: Sequence[Entity], thumbnails: Sequence[bytes | None], ids: Sequence[int | None]
    ) -> list[int]:
        wanted = sum(i is None for i in ids)
        fresh: Iterator[int] = iter(())
        if wanted:
            rows = self.db.execute(
                "SELECT nextval(pg_get_serial_sequence('atlas.entities', 'id')) FROM generate_series(1, ?)",
                (wanted,),
            ).fetchall()
            fresh = iter(int(r[0]) for r in rows)
        chosen = [i if i is not None else next(fresh) for i in ids]
        columns = ("id", "name_key", "thumbnail", *FIELDS)
        self.db.copy(
            f"COPY entities ({', '.join(columns)}) FROM STDIN WITH (FORMAT BINARY)",
            ["int8", "text", "bytea", *["text"] * len(FIELDS)],
            (
                (entity_id, name_key(e.name), thumb, *(getattr(e, f) for f in FIELDS))
                for entity_id, e, thumb in zip(chosen, entities, thumbnails, strict=True)
            ),
        )
        codes = [
            (i, code) for i, e in zip(chosen, entities, strict=True) for code in srefs.normalize_codes(e.sref)
        ]
        if codes:
            self.db.copy(
                "COPY sref_codes (entity_id, code) FROM STDIN WITH (FORMAT BINARY)", ["int8", "text"], codes
            )
        return chosen

    def put_vectors(self, rows: Sequence[VectorRow], replace: bool = False) -> None:
        with_embedding = [(*row, np.frombuffer(row[3], np.float32)) for row in rows]
        if replace:
            self.db.executemany(
                "INSERT INTO vectors (entity_id, model, dim, vector, embedding) VALUES (?, ?, ?, ?, ?) "
                "ON CONFLICT (entity_id, model) DO UPDATE SET dim = excluded.dim, vector = excluded.vector, "
                "embedding = excluded.embedding",
                with_embedding,
            )
        elif with_embedding:
            self.db.copy(
                "COPY vectors (entity_id, model, dim, vector, embedding) FROM STDIN WITH (FORMAT BINARY)",
                ["int8", "text", "int4", "bytea", "vector"],
                with_embedding,
            )


class PostgresCatalogue(SharedReads):
    """The catalogue in a PostgreSQL database (``postgresql://`` URL), vectors searched by pgvector."""

    def __init__(self, url: str) -> None:
        if not available():
            raise CatalogueError(
                "a catalogue on PostgreSQL needs psycopg and pgvector: `pip install napari-talk[postgres]`"
            )
        self.url = url
        self.label = shown(url)
        self._lock = threading.RLock()
        self._db = PgConnection(url)
        self._rows = _PgRows(self._db)
        self._cache = VectorCache(self._lock, self._revision)
        self._writer = SqlWriter(self._db, self._rows, self._cache, self._lock)
        self._counts: dict[tuple[str, int], tuple[tuple[int, int], int]] = {}
        """Per (model, dim): the stamp and the number of vectors then (counting 100,000 rows
        took 32 ms of every search, for the calibration's check)."""
        self._indexes = HnswIndexes(url, self._db, self._lock, self.vector_count)
        self._indexed, self._building = self._indexes.indexed, self._indexes.building
        self._db.executescript(SCHEMA)
        version = self.setting("schema_version")
        if version is None:
            self.set_setting("schema_version", str(SCHEMA_VERSION))
        elif int(version) > SCHEMA_VERSION:
            raise CatalogueError(f"{self.label} was written by a newer napari-talk (schema {version})")

    def __repr__(self) -> str:
        return f"PostgresCatalogue({self.label})"

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def _revision(self) -> int:
        (revision,) = self._db.execute("SELECT n FROM revision").fetchone()
        return int(revision) - self._rows.own_revisions

    @property
    def ef_search(self) -> int:
        return self._indexes.ef_search

    @ef_search.setter
    def ef_search(self, value: int) -> None:
        self._indexes.ef_search = value

    def ensure_index(self, model: str, dim: int) -> None:
        """The HNSW index of ``model``'s vectors, built now if there is none."""
        self._indexes.ensure(model, dim)

    # -- vectors and search ---------------------------------------------------------------------

    def missing_vectors(self, model: str) -> list[tuple[int, str]]:
        with self._lock:
            return reads.missing_vectors(self._db, model)

    def embed_missing(self, embedder: Embedder, on_progress: Progress | None = None) -> int:
        return fill_missing(
            self._cache, self.missing_vectors, self._writer.put_missing, embedder, on_progress
        )

    def vector_of(self, entity_id: int, model: str) -> np.ndarray | None:
        with self._lock:
            found = reads.vector_of(self._db, entity_id, model)
        return np.frombuffer(found, np.float32) if found is not None else None

    def matrix(self, model: str, dim: int) -> tuple[np.ndarray, np.ndarray]:
        """(ids, vectors) of every ``model`` vector of length ``dim``, in memory (exact search)."""
        with self._lock:
            cached = self._cache.matrix(
                model, dim, lambda: matrix_of(reads.vectors_of(self._db, model, dim), dim)
            )
            return cached.ids, cached.vectors

    def vector_count(self, model: str, dim: int) -> int:
        with self._lock:
            stamp = self._cache.stamp()
            known = self._counts.get((model, dim))
            if known is not None and known[0] == stamp:
                return known[1]
            row = self._db.execute("SELECT COUNT(*) FROM vectors WHERE model = ? AND dim = ?", (model, dim))
            count = int(row.fetchone()[0])
            self._counts[(model, dim)] = (stamp, count)
            return count

    def search(
        self, query: np.ndarray, model: str, limit: int, exclude: Iterable[int] = (), *, exact: bool = False
    ) -> list[tuple[Entity, float]]:
        """The ``limit`` nearest by cosine: through the HNSW index (approximate), or ``exact``ly
        (every vector scored in memory, as on SQLite)."""
        query = np.asarray(query, np.float32)
        dim = int(query.shape[0])
        excluded = [int(i) for i in exclude]
        if exact or not self._indexes.ready(model, dim, INDEX_AT_ONCE):
            with self._lock:
                matrix = self._cache.matrix(
                    model, dim, lambda: matrix_of(reads.vectors_of(self._db, model, dim), dim)
                )
                hits = self._cache.nearest(matrix, query, limit, excluded, exact=True)
            found = self.by_ids([i for i, _ in hits])
            return [(found[i], score) for i, score in hits if i in found]
        with self._lock:
            text = _nearest_statement(model, dim).as_string(self._db.db)
            rows = self._db.run(lambda c: c.execute(text, (query, excluded, query, int(limit)))).fetchall()
        return [(entity_of(row[:-1]), float(row[-1])) for row in rows]

    def calibration(
        self, model: str, dim: int, embed: Callable[[Sequence[str]], np.ndarray], reference: Sequence[str]
    ) -> Calibration:
        """How ``model``'s cosines read on the seed's scale, measured on a sample of its vectors."""
        return calibrated(self, model, dim, embed, reference, lambda: self._calibration_sample(model, dim))

    def _calibration_sample(self, model: str, dim: int) -> np.ndarray:
        """A random sample of about CALIBRATION_ROWS of ``model``'s vectors, whole pages drawn
        (reading all 100,000 into memory made a catalogue's first search take 12 s)."""
        count = self.vector_count(model, dim)
        if count <= CALIBRATION_ROWS:
            return self.matrix(model, dim)[1].copy()
        share = min(100.0, 100.0 * 2 * CALIBRATION_ROWS / count)
        with self._lock:
            rows = self._db.execute(
                f"SELECT vector FROM vectors TABLESAMPLE SYSTEM ({share:.4f}) REPEATABLE (0) "
                "WHERE model = ? AND dim = ?",
                (model, dim),
            ).fetchall()
        if len(rows) < CALIBRATION_ROWS // 4:  # pages of other models drawn: every vector, then
            return self.matrix(model, dim)[1].copy()
        return np.frombuffer(b"".join(bytes(r[0]) for r in rows), np.float32).reshape(len(rows), dim)


def _nearest_statement(model: str, dim: int) -> Any:
    """The nearest by the index, with their entities in the same statement (a round trip less: on
    a busy machine each one waits for the server to be scheduled); literals for the model and
    dimension, which the planner matches to the partial index."""
    from psycopg import sql

    return sql.SQL(
        "SELECT {fields}, nearest.score FROM ("
        "SELECT entity_id, 1 - (embedding::vector({dim}) <=> %s::vector({dim})) AS score "
        "FROM atlas.vectors WHERE model = {model} AND dim = {dim} AND NOT (entity_id = ANY(%s)) "
        "ORDER BY embedding::vector({dim}) <=> %s::vector({dim}) LIMIT %s"
        ") AS nearest JOIN atlas.entities AS e ON e.id = nearest.entity_id ORDER BY nearest.score DESC"
    ).format(
        fields=sql.SQL(", ").join(sql.Identifier("e", f) for f in ("id", *FIELDS)),
        dim=sql.Literal(dim),
        model=sql.Literal(model),
    )
