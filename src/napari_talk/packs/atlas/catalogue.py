"""The catalogue in one SQLite file (stdlib ``sqlite3``): a :class:`~.catalogue_store.CatalogueStore`.

Vectors are float32 blobs keyed by (entity, embedding model), so switching models keeps the
others' vectors. Search loads one model's vectors once into a single matrix and scores every
entity with one matrix-vector product (:mod:`.vector_cache`). A write through this connection
updates the matrix (and the other caches) with the rows it changed; a write by another
connection, seen through ``PRAGMA data_version``, makes them reload.

A catalogue file may come from anyone, so it is opened warily: one with views or triggers (a
recursive view can make every query run forever) is refused, ``trusted_schema`` is off, and
every statement runs under a deadline (:mod:`.sqlite_connection`), so the worst a hostile file
does is a clear refusal after :data:`STATEMENT_SECONDS`.

Entities, their checks and the shared statements live in their own modules; the names callers
have always imported from here (``Entity``, ``CatalogueError``, ``embed`` …) still come from here.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

import numpy as np

from . import sql_reads as reads
from . import sref as srefs
from .calibration import Calibration
from .embeddings import Embedder
from .entities import (
    FIELDS,
    CatalogueError,
    Entity,
    ImportReport,
    Snapshot,
    name_key,
    now,
    tidy,
)
from .limits import EMBED_BATCH, MAX_ENTITIES, SCHEMA_VERSION, STATEMENT_SECONDS
from .rows import VectorRow, matrix_of
from .shared_reads import SharedReads
from .sql_writes import SqlWriter
from .sqlite_connection import GuardedConnection, Transaction
from .stored_calibration import calibrated
from .vector_cache import VectorCache, top_k
from .vectorize import Progress, embed, fill_missing

__all__ = [
    "EMBED_BATCH",
    "FIELDS",
    "MAX_ENTITIES",
    "SCHEMA_VERSION",
    "STATEMENT_SECONDS",
    "Catalogue",
    "CatalogueError",
    "Entity",
    "ImportReport",
    "Progress",
    "Snapshot",
    "SqliteCatalogue",
    "embed",
    "name_key",
    "now",
    "tidy",
    "top_k",
]

SCHEMA = """
CREATE TABLE IF NOT EXISTS entities (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    name_key TEXT NOT NULL UNIQUE,
    type TEXT NOT NULL DEFAULT '',
    domain TEXT NOT NULL DEFAULT '',
    class_name TEXT NOT NULL DEFAULT '',
    description TEXT NOT NULL DEFAULT '',
    image TEXT NOT NULL DEFAULT '',
    sref TEXT NOT NULL DEFAULT '',
    prompt TEXT NOT NULL DEFAULT '',
    created TEXT NOT NULL,
    thumbnail BLOB
);
CREATE TABLE IF NOT EXISTS sref_codes (
    entity_id INTEGER NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
    code TEXT NOT NULL,
    PRIMARY KEY (entity_id, code)
);
CREATE INDEX IF NOT EXISTS sref_codes_code ON sref_codes(code);
CREATE TABLE IF NOT EXISTS vectors (
    entity_id INTEGER NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
    model TEXT NOT NULL,
    dim INTEGER NOT NULL,
    vector BLOB NOT NULL,
    PRIMARY KEY (entity_id, model)
);
CREATE TABLE IF NOT EXISTS settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
"""


def _statement_seconds() -> float:
    """Read at each statement, so the deadline may be shortened while a catalogue is open."""
    return STATEMENT_SECONDS


class _SqliteRows:
    """How entity rows and vectors go into SQLite: one ``executemany`` each, ids chosen here."""

    def __init__(self, db: GuardedConnection) -> None:
        self.db = db

    def transaction(self) -> Transaction:
        return Transaction(self.db)

    def insert_entities(
        self, entities: Sequence[Entity], thumbnails: Sequence[bytes | None], ids: Sequence[int | None]
    ) -> list[int]:
        """A new row takes the highest id plus one, counting the ids given (one just deleted may
        come back under its old id in the same write): what SQLite would choose row by row."""
        (highest,) = self.db.execute("SELECT COALESCE(MAX(id), 0) FROM entities").fetchone()
        fresh = max([int(highest), *(i for i in ids if i is not None)])
        chosen: list[int] = []
        for given in ids:
            if given is None:
                fresh += 1
            chosen.append(given if given is not None else fresh)
        self.db.executemany(
            f"INSERT INTO entities (id, name_key, thumbnail, {', '.join(FIELDS)}) "
            f"VALUES (?, ?, ?, {', '.join('?' * len(FIELDS))})",
            [
                (entity_id, name_key(e.name), thumb, *(getattr(e, f) for f in FIELDS))
                for entity_id, e, thumb in zip(chosen, entities, thumbnails, strict=True)
            ],
        )
        self.db.executemany(
            "INSERT INTO sref_codes (entity_id, code) VALUES (?, ?)",
            [
                (i, code)
                for i, e in zip(chosen, entities, strict=True)
                for code in srefs.normalize_codes(e.sref)
            ],
        )
        return chosen

    def put_vectors(self, rows: Sequence[VectorRow], replace: bool = False) -> None:
        self.db.executemany(
            "INSERT INTO vectors (entity_id, model, dim, vector) VALUES (?, ?, ?, ?)"
            + (
                " ON CONFLICT (entity_id, model) DO UPDATE SET dim = excluded.dim, vector = excluded.vector"
                if replace
                else ""
            ),
            rows,
        )


class Catalogue(SharedReads):
    """The catalogue in a SQLite file at ``path`` (made with its folder when missing)."""

    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.RLock()
        connection = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        self._db = GuardedConnection(connection, self.path.name, _statement_seconds)
        self._cache = VectorCache(self._lock, self._data_version)
        self._matrices = self._cache.matrices
        self._rows = _SqliteRows(self._db)
        self._writer = SqlWriter(self._db, self._rows, self._cache, self._lock)
        try:
            self._open()
            version = self.setting("schema_version")
        except sqlite3.DatabaseError as exc:
            connection.close()
            raise CatalogueError(f"{self.path.name} is not a catalogue ({exc})") from None
        except CatalogueError:
            connection.close()
            raise
        if version is None:
            self.set_setting("schema_version", str(SCHEMA_VERSION))
        elif int(version) > SCHEMA_VERSION:
            raise CatalogueError(f"{self.path.name} was written by a newer napari-talk (schema {version})")

    def _open(self) -> None:
        """Refuse a file with views or triggers, then make the tables a new file lacks."""
        self._db.execute("PRAGMA trusted_schema = OFF")
        self._db.execute("PRAGMA foreign_keys = ON")
        odd = self._db.execute(
            "SELECT type, name FROM sqlite_master WHERE type NOT IN ('table', 'index')"
        ).fetchone()
        if odd is not None:
            raise CatalogueError(
                f"{self.path.name} holds a {odd[0]} ({odd[1]!r}); a catalogue has only tables and "
                "indexes, so this file is not opened"
            )
        self._db.execute("PRAGMA journal_mode = WAL")
        self._db.executescript(SCHEMA)

    def __repr__(self) -> str:
        return f"Catalogue({self.path.name})"

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def _data_version(self) -> int:
        """Moves when another connection commits a write (see :mod:`.vector_cache`)."""
        (version,) = self._db.execute("PRAGMA data_version").fetchone()
        return int(version)

    # -- vectors --------------------------------------------------------------------------------

    def missing_vectors(self, model: str) -> list[tuple[int, str]]:
        """(id, text) of the entities that have no vector of ``model`` yet."""
        with self._lock:
            return reads.missing_vectors(self._db, model)

    def embed_missing(self, embedder: Embedder, on_progress: Progress | None = None) -> int:
        """Give every entity a vector of ``embedder``'s model; returns how many were embedded."""
        return fill_missing(
            self._cache, self.missing_vectors, self._writer.put_missing, embedder, on_progress
        )

    def vector_of(self, entity_id: int, model: str) -> np.ndarray | None:
        with self._lock:
            found = reads.vector_of(self._db, entity_id, model)
        return np.frombuffer(found, np.float32) if found is not None else None

    def matrix(self, model: str, dim: int) -> tuple[np.ndarray, np.ndarray]:
        """(ids, vectors): every ``model`` vector of length ``dim`` as one (n, dim) matrix, rows in
        no particular order (views a later write of this connection may change: hold the lock
        while using them from another thread)."""
        with self._lock:
            cached = self._cache.matrix(
                model, dim, lambda: matrix_of(reads.vectors_of(self._db, model, dim), dim)
            )
            return cached.ids, cached.vectors

    def vector_count(self, model: str, dim: int) -> int:
        with self._lock:
            return len(self.matrix(model, dim)[0])

    def search(
        self, query: np.ndarray, model: str, limit: int, exclude: Iterable[int] = (), *, exact: bool = False
    ) -> list[tuple[Entity, float]]:
        """The ``limit`` entities whose ``model`` vectors have the highest cosine with ``query``:
        of a large catalogue, among those its signs shortlist (see :mod:`.matrix`), unless
        ``exact`` (every vector scored)."""
        query = np.asarray(query, np.float32)
        dim = query.shape[0]
        with self._lock:
            matrix = self._cache.matrix(
                model, dim, lambda: matrix_of(reads.vectors_of(self._db, model, dim), dim)
            )
            hits = self._cache.nearest(matrix, query, limit, list(exclude), exact)
        found = self.by_ids([i for i, _ in hits])
        return [(found[i], score) for i, score in hits if i in found]

    def calibration(
        self, model: str, dim: int, embed: Callable[[Sequence[str]], np.ndarray], reference: Sequence[str]
    ) -> Calibration:
        """How ``model``'s cosines read on the seed's scale (see :mod:`.calibration`): measured on
        every vector (all in memory already)."""
        return calibrated(self, model, dim, embed, reference, lambda: self.matrix(model, dim)[1].copy())


SqliteCatalogue = Catalogue
"""The SQLite backend by the name that says so, beside :class:`~.postgres.PostgresCatalogue`."""
