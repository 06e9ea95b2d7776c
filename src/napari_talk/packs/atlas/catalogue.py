"""The catalogue: entities and their vectors in one SQLite file (stdlib ``sqlite3``).

Every value reaches SQL as a bound parameter; no text a person or a model typed is ever part of
a statement. Vectors are float32 blobs keyed by (entity, embedding model), so switching models
keeps the others' vectors. Search loads one model's vectors once into a single matrix and
scores every entity with one matrix-vector product. A write through this connection updates the
matrix (and the other caches) with the rows it changed; a write by another connection, seen
through ``PRAGMA data_version``, makes them reload.

A catalogue file may come from anyone, so it is opened warily: one with views or triggers (a
recursive view can make every query run forever) is refused, ``trusted_schema`` is off, and
every statement runs under a deadline (a progress handler interrupts it), so the worst a
hostile file does is a clear refusal after :data:`STATEMENT_SECONDS`.
"""

from __future__ import annotations

import bisect
import sqlite3
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import asdict, dataclass, field, replace
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import numpy as np

from ...core.contract.result import CommandError
from . import calibration
from . import sref as srefs
from .calibration import Calibration
from .embeddings import Embedder
from .matrix import VectorMatrix

SCHEMA_VERSION = 1
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
FIELDS = ("name", "type", "domain", "class_name", "description", "image", "sref", "prompt", "created")
EMBED_BATCH = 256
"""Texts embedded between two progress reports (and chances to stop)."""
STATEMENT_SECONDS = 10.0
"""The longest one statement may run (the largest, reading 100,000 vectors, takes well under 1 s)."""
MAX_ENTITIES = 2_000_000
"""Entities one catalogue may hold: imports past it are refused, saying so."""
Progress = Callable[[int, int], None]


class CatalogueError(CommandError):
    """Something about the catalogue the person can fix (a name taken, a file not a catalogue)."""

    kind = "CatalogueError"


def name_key(name: str) -> str:
    """Names are unique regardless of case and spacing: "The  Heralds" is "the heralds"."""
    return " ".join(name.split()).casefold()


def now() -> str:
    return datetime.now(timezone.utc).replace(microsecond=0).isoformat().replace("+00:00", "Z")


@dataclass(frozen=True)
class Entity:
    name: str
    type: str = ""
    domain: str = ""
    class_name: str = ""
    description: str = ""
    image: str = ""
    """A workspace-relative path or an http(s) URL."""
    sref: str = ""
    prompt: str = ""
    created: str = ""
    id: int | None = field(default=None, compare=False)

    @property
    def key(self) -> int:
        """The catalogue's id of an entity read from it."""
        if self.id is None:
            raise CatalogueError(f"{self.name} is not in the catalogue")
        return self.id

    def text(self) -> str:
        """What is embedded: the name and everything said about the entity."""
        parts = (self.name, self.type, self.class_name, self.domain, self.description, self.prompt)
        return ". ".join(p for p in parts if p)

    def record(self) -> dict[str, str]:
        """The JSONL form (no id)."""
        return {k: v for k, v in asdict(self).items() if k != "id"}


@dataclass(frozen=True)
class Snapshot:
    """An entity row with its thumbnail and vectors, to put back exactly as it was."""

    entity: Entity
    thumbnail: bytes | None
    vectors: tuple[tuple[str, int, bytes], ...]


@dataclass
class ImportReport:
    added: list[int] = field(default_factory=list)
    replaced: list[Snapshot] = field(default_factory=list)


@dataclass
class _Delta:
    """What one write of this connection changed, to bring the in-memory caches up to date."""

    removed: set[int] = field(default_factory=set)
    """Entities gone, with all their vectors."""
    inserted: dict[int, str] = field(default_factory=dict)
    """New entity rows: id → name."""
    gone_names: list[str] = field(default_factory=list)
    vectors: dict[tuple[int, str], tuple[int, bytes]] = field(default_factory=dict)
    """(entity id, model) → (dim, vector) of the vectors written, as they stand after the write."""

    def write(self, rows: Iterable[tuple[int, str, int, bytes]]) -> None:
        self.vectors.update(((i, model), (dim, v)) for i, model, dim, v in rows)

    def delete(self, entity_id: int, name: str) -> None:
        """The entity row ``entity_id`` went (with its vectors, however this write made them)."""
        self.removed.add(entity_id)
        self.gone_names.append(name)
        self.inserted.pop(entity_id, None)
        for key in [k for k in self.vectors if k[0] == entity_id]:
            del self.vectors[key]


class Catalogue:
    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._caches()
        connection = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        self._db = _Guarded(connection, self.path.name)
        try:
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

    def _caches(self) -> None:
        self._lock = threading.RLock()
        self._writes = 0
        self._complete: dict[str, tuple[int, int]] = {}
        """Per model, the catalogue's stamp when every entity last had a vector of it."""
        self._matrices: dict[tuple[str, int], VectorMatrix] = {}
        self._names: tuple[tuple[int, int], list[str], list[str]] | None = None
        """(stamp, name keys in order, names in that order)."""

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def _transaction(self) -> _transaction:
        return _transaction(self._db)

    def _put_vectors(self, rows: Sequence[tuple[int, str, int, bytes]], replace: bool = False) -> None:
        """Store (entity id, model, dim, float32 bytes) rows; ``replace`` overwrites a model's vector."""
        self._db.executemany(
            "INSERT INTO vectors (entity_id, model, dim, vector) VALUES (?, ?, ?, ?)"
            + (
                " ON CONFLICT (entity_id, model) DO UPDATE SET dim = excluded.dim, vector = excluded.vector"
                if replace
                else ""
            ),
            rows,
        )

    # -- small reads --------------------------------------------------------------------------

    def _stamp(self) -> tuple[int, int]:
        (version,) = self._db.execute("PRAGMA data_version").fetchone()
        return version, self._writes

    def count(self) -> int:
        with self._lock:
            return self._db.execute("SELECT COUNT(*) FROM entities").fetchone()[0]

    def empty(self) -> bool:
        """No entity yet: one row looked for, where counting 100,000 takes 12 ms of every search."""
        with self._lock:
            return self._db.execute("SELECT 1 FROM entities LIMIT 1").fetchone() is None

    def names(self) -> list[str]:
        """Every entity's name (cached until the catalogue changes)."""
        with self._lock:
            stamp = self._stamp()
            if self._names is None or self._names[0] != stamp:
                rows = self._db.execute("SELECT name_key, name FROM entities ORDER BY name_key").fetchall()
                self._names = (stamp, [r[0] for r in rows], [r[1] for r in rows])
            return list(self._names[2])

    def names_if_known(self) -> list[str] | None:
        """The names as last read, if nothing changed since and no other thread holds the
        catalogue; else None at once (never waits: the parser asks on every typed line)."""
        if not self._lock.acquire(blocking=False):
            return None
        try:
            if self._names is None or self._names[0] != self._stamp():
                return None
            return list(self._names[2])
        finally:
            self._lock.release()

    def domains(self) -> dict[str, int]:
        with self._lock:
            rows = self._db.execute(
                "SELECT domain, COUNT(*) FROM entities GROUP BY domain ORDER BY COUNT(*) DESC, domain"
            ).fetchall()
        return dict(rows)

    def get(self, name: str) -> Entity | None:
        with self._lock:
            row = self._db.execute(
                f"SELECT id, {', '.join(FIELDS)} FROM entities WHERE name_key = ?", (name_key(name),)
            ).fetchone()
        return _entity(row) if row else None

    def by_ids(self, ids: Sequence[int]) -> dict[int, Entity]:
        found: dict[int, Entity] = {}
        with self._lock:
            for start in range(0, len(ids), 500):
                chunk = [int(i) for i in ids[start : start + 500]]
                marks = ", ".join("?" * len(chunk))
                rows = self._db.execute(
                    f"SELECT id, {', '.join(FIELDS)} FROM entities WHERE id IN ({marks})", chunk
                ).fetchall()
                found.update((row[0], _entity(row)) for row in rows)
        return found

    def entities(self, domain: str | None = None) -> list[Entity]:
        query = f"SELECT id, {', '.join(FIELDS)} FROM entities"
        params: tuple[Any, ...] = ()
        if domain is not None:
            query += " WHERE lower(domain) = lower(?)"
            params = (domain,)
        with self._lock:
            return [_entity(r) for r in self._db.execute(query + " ORDER BY name_key", params)]

    def thumbnail(self, entity_id: int) -> bytes | None:
        with self._lock:
            row = self._db.execute("SELECT thumbnail FROM entities WHERE id = ?", (entity_id,)).fetchone()
        return row[0] if row else None

    def thumbnails(self, ids: Sequence[int]) -> dict[int, bytes]:
        """The thumbnails of the entities ``ids`` that have one, in one query (a round trip each
        cost a shared catalogue more than its search)."""
        found: dict[int, bytes] = {}
        with self._lock:
            for start in range(0, len(ids), 500):
                chunk = [int(i) for i in ids[start : start + 500]]
                marks = ", ".join("?" * len(chunk))
                rows = self._db.execute(
                    f"SELECT id, thumbnail FROM entities WHERE id IN ({marks}) AND thumbnail IS NOT NULL",
                    chunk,
                ).fetchall()
                found.update((row[0], bytes(row[1])) for row in rows)
        return found

    def setting(self, key: str) -> str | None:
        with self._lock:
            row = self._db.execute("SELECT value FROM settings WHERE key = ?", (key,)).fetchone()
        return row[0] if row else None

    def set_setting(self, key: str, value: str) -> None:
        with self._lock:
            self._db.execute(
                "INSERT INTO settings (key, value) VALUES (?, ?) "
                "ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                (key, value),
            )

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
        entities = [tidy(e) for e in entities]
        thumbs = list(thumbnails) if thumbnails is not None else [None] * len(entities)
        last = {name_key(e.name): index for index, e in enumerate(entities)}  # a name twice: the last
        order = sorted(last.values())
        report = ImportReport()
        delta = _Delta()
        with self._lock:
            with self._transaction():
                taken = dict(self._db.execute("SELECT name_key, id FROM entities").fetchall())
                new = len(last.keys() - taken.keys())
                if len(taken) + new > MAX_ENTITIES:
                    raise CatalogueError(
                        f"{len(taken) + new:,} entities would pass the {MAX_ENTITIES:,} one catalogue "
                        "may hold; import fewer, or split the catalogue"
                    )
                old_ids: list[int | None] = []
                for index in order:
                    old_id = taken.get(name_key(entities[index].name))
                    if old_id is not None:
                        snapshot = self._snapshot(old_id)
                        report.replaced.append(snapshot)
                        self._db.execute("DELETE FROM entities WHERE id = ?", (old_id,))
                        delta.delete(old_id, snapshot.entity.name)
                    old_ids.append(old_id)
                ids = self._insert_many([entities[i] for i in order], [thumbs[i] for i in order], old_ids)
                rows = [
                    (entity_id, model, vectors[i].shape[0], vectors[i].astype(np.float32).tobytes())
                    for entity_id, i in zip(ids, order, strict=True)
                ]
                self._put_vectors(rows)
                for entity_id, i, old_id in zip(ids, order, old_ids, strict=True):
                    delta.inserted[entity_id] = entities[i].name
                    if old_id is None:
                        report.added.append(entity_id)
                delta.write(rows)
            self._wrote(delta)
        return report

    def _insert_many(
        self, entities: Sequence[Entity], thumbnails: Sequence[bytes | None], ids: Sequence[int | None]
    ) -> list[int]:
        """Insert entity rows (an id given keeps it, else a new one); their ids. Rows that keep an
        id go first: a new row takes the highest id plus one, which may be one just deleted for
        a row still to come back under it."""
        new_ids: list[int] = list(range(len(entities)))
        for keeps in (True, False):
            for index, (entity, thumb, given) in enumerate(zip(entities, thumbnails, ids, strict=True)):
                if (given is not None) == keeps:
                    new_ids[index] = self._insert(entity, thumb, given)
        return new_ids

    def _insert(self, entity: Entity, thumbnail: bytes | None, entity_id: int | None = None) -> int:
        values = [getattr(entity, f) for f in FIELDS]
        cursor = self._db.execute(
            f"INSERT INTO entities (id, name_key, thumbnail, {', '.join(FIELDS)}) "
            f"VALUES (?, ?, ?, {', '.join('?' * len(FIELDS))})",
            [entity_id, name_key(entity.name), thumbnail, *values],
        )
        new_id = cursor.lastrowid
        if new_id is None:
            raise CatalogueError(f"{entity.name} could not be stored")
        self._db.executemany(
            "INSERT INTO sref_codes (entity_id, code) VALUES (?, ?)",
            [(new_id, code) for code in srefs.normalize_codes(entity.sref)],
        )
        return new_id

    def _snapshot(self, entity_id: int) -> Snapshot:
        row = self._db.execute(
            f"SELECT id, {', '.join(FIELDS)} FROM entities WHERE id = ?", (entity_id,)
        ).fetchone()
        thumb = self._db.execute("SELECT thumbnail FROM entities WHERE id = ?", (entity_id,)).fetchone()[0]
        vectors = self._db.execute(
            "SELECT model, dim, vector FROM vectors WHERE entity_id = ?", (entity_id,)
        ).fetchall()
        return Snapshot(_entity(row), thumb, tuple(vectors))

    def remove(self, name: str) -> Snapshot:
        """Take an entity out; the snapshot puts it back (:meth:`restore`)."""
        with self._lock:
            with self._transaction():
                entity = self.get(name)
                if entity is None:
                    raise CatalogueError(f"no entity named {name!r} in the catalogue")
                snapshot = self._snapshot(entity.key)
                self._db.execute("DELETE FROM entities WHERE id = ?", (entity.id,))
            self._wrote(_Delta(removed={entity.key}, gone_names=[entity.name]))
        return snapshot

    def delete_ids(self, ids: Iterable[int]) -> None:
        delta = _Delta()
        with self._lock:
            with self._transaction():
                for entity_id in ids:
                    row = self._db.execute(
                        "SELECT name FROM entities WHERE id = ?", (int(entity_id),)
                    ).fetchone()
                    if row is not None:
                        self._db.execute("DELETE FROM entities WHERE id = ?", (int(entity_id),))
                        delta.delete(int(entity_id), row[0])
            self._wrote(delta)

    def restore(self, snapshots: Iterable[Snapshot]) -> None:
        """Put snapshotted entities back with their ids, replacing what holds their names now."""
        delta = _Delta()
        with self._lock:
            with self._transaction():
                for snap in snapshots:
                    holders = self._db.execute(
                        "SELECT id, name FROM entities WHERE name_key = ? OR id = ?",
                        (name_key(snap.entity.name), snap.entity.id),
                    ).fetchall()
                    for old_id, old_name in holders:
                        self._db.execute("DELETE FROM entities WHERE id = ?", (old_id,))
                        delta.delete(old_id, old_name)
                    entity_id = self._insert(snap.entity, snap.thumbnail, snap.entity.id)
                    rows = [(entity_id, *vector) for vector in snap.vectors]
                    self._put_vectors(rows)
                    delta.inserted[entity_id] = snap.entity.name
                    delta.write(rows)
            self._wrote(delta)

    def _wrote(self, delta: _Delta) -> None:
        """After a committed write of this connection (lock held): bring the matrices, the names
        and the models known complete up to date with what it changed, instead of reloading."""
        before = self._stamp()
        self._writes += 1
        after = self._stamp()
        for key, matrix in list(self._matrices.items()):
            if matrix.stamp != before:
                del self._matrices[key]
                continue
            rows = [(i, v) for (i, model), (dim, v) in delta.vectors.items() if (model, dim) == key]
            matrix.remove(delta.removed | {i for i, _ in rows})
            ids = np.array([i for i, _ in rows], np.int64)
            vectors = np.frombuffer(b"".join(v for _, v in rows), np.float32).reshape(len(rows), key[1])
            matrix.append(ids, vectors)
            matrix.stamp = after
        for model, stamp in list(self._complete.items()):
            covered = {i for i, m in delta.vectors if m == model}
            if stamp == before and set(delta.inserted) <= covered:
                self._complete[model] = after
            else:
                del self._complete[model]
        if self._names is not None and self._names[0] == before:
            _, keys, names = self._names
            for name in delta.gone_names:
                at = bisect.bisect_left(keys, name_key(name))
                if at < len(keys) and keys[at] == name_key(name):
                    del keys[at], names[at]
            for name in delta.inserted.values():
                at = bisect.bisect_left(keys, name_key(name))
                keys.insert(at, name_key(name))
                names.insert(at, name)
            self._names = (after, keys, names)
        else:
            self._names = None

    # -- vectors --------------------------------------------------------------------------------

    def missing_vectors(self, model: str) -> list[tuple[int, str]]:
        """(id, text) of the entities that have no vector of ``model`` yet."""
        with self._lock:
            rows = self._db.execute(
                f"SELECT id, {', '.join(FIELDS)} FROM entities WHERE id NOT IN "
                "(SELECT entity_id FROM vectors WHERE model = ?) ORDER BY id",
                (model,),
            ).fetchall()
        return [(row[0], _entity(row).text()) for row in rows]

    def embed_missing(self, embedder: Embedder, on_progress: Progress | None = None) -> int:
        """Give every entity a vector of ``embedder``'s model; returns how many were embedded.

        Once every entity has one, nothing is scanned again until the catalogue changes (a search
        calls this first, and the scan costs more than the search at 100,000 entities)."""
        with self._lock:
            stamp = self._stamp()
        if self._complete.get(embedder.name) == stamp:
            return 0
        todo = self.missing_vectors(embedder.name)
        if not todo:
            self._complete[embedder.name] = stamp
            return 0
        done = 0
        for start in range(0, len(todo), EMBED_BATCH):
            batch = todo[start : start + EMBED_BATCH]
            vectors = embedder.embed([text for _, text in batch])
            rows = [
                (entity_id, embedder.name, v.shape[0], v.astype(np.float32).tobytes())
                for (entity_id, _), v in zip(batch, vectors, strict=True)
            ]
            with self._lock:
                with self._transaction():
                    # an entity removed meanwhile gets no vector (the foreign key would refuse it)
                    marks = ", ".join("?" * len(rows))
                    alive = {
                        r[0]
                        for r in self._db.execute(
                            f"SELECT id FROM entities WHERE id IN ({marks})", [r[0] for r in rows]
                        )
                    }
                    rows = [r for r in rows if r[0] in alive]
                    self._put_vectors(rows, replace=True)
                written = _Delta()
                written.write(rows)
                self._wrote(written)
                stamp = self._stamp()
            done += len(batch)
            if on_progress is not None:
                on_progress(done, len(todo))
        with self._lock:
            if self._stamp() == stamp:  # no entity came in meanwhile
                self._complete[embedder.name] = stamp
        return done

    def vector_of(self, entity_id: int, model: str) -> np.ndarray | None:
        with self._lock:
            row = self._db.execute(
                "SELECT vector FROM vectors WHERE entity_id = ? AND model = ?", (entity_id, model)
            ).fetchone()
        return np.frombuffer(row[0], np.float32) if row else None

    def matrix(self, model: str, dim: int) -> tuple[np.ndarray, np.ndarray]:
        """(ids, vectors): every ``model`` vector of length ``dim`` as one (n, dim) matrix, rows in
        no particular order (views a later write of this connection may change: hold the lock
        while using them from another thread)."""
        with self._lock:
            cached = self._matrix(model, dim)
            return cached.ids, cached.vectors

    def _matrix(self, model: str, dim: int) -> VectorMatrix:
        with self._lock:
            stamp, key = self._stamp(), (model, dim)
            cached = self._matrices.get(key)
            if cached is None or cached.stamp != stamp:
                rows = self._db.execute(
                    "SELECT entity_id, vector FROM vectors WHERE model = ? AND dim = ? ORDER BY entity_id",
                    (model, dim),
                ).fetchall()
                ids = np.fromiter((r[0] for r in rows), np.int64, len(rows))
                vectors = np.frombuffer(b"".join(r[1] for r in rows), np.float32).reshape(len(rows), dim)
                cached = self._matrices[key] = VectorMatrix(ids, vectors, stamp)
            return cached

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
        excluded = list(exclude)
        with self._lock:
            matrix = self._matrix(model, query.shape[0])
            ids, vectors = matrix.ids, matrix.vectors
            rows = None if exact else matrix.shortlist(query, limit + len(excluded))
            if rows is not None:
                ids, vectors = ids[rows], vectors[rows]
            hits = top_k(vectors, query, limit, np.isin(ids, excluded) if excluded else None)
            chosen = [int(ids[i]) for i, _ in hits]
        found = self.by_ids(chosen)
        return [(found[i], score) for i, (_, score) in zip(chosen, hits, strict=True) if i in found]

    def calibration(
        self, model: str, dim: int, embed: Callable[[Sequence[str]], np.ndarray], reference: Sequence[str]
    ) -> Calibration:
        """How ``model``'s cosines read on the seed's scale (see :mod:`.calibration`; ``embed``
        embeds with it): stored in the catalogue, measured again when the number of vectors has
        moved by a tenth, on ``reference`` texts while the catalogue is small."""
        key = calibration.setting_key(model)
        stored = calibration.load(self.setting(key))
        count = self.vector_count(model, dim)
        if stored is not None and not calibration.stale(stored, count):
            return stored
        probes = embed(calibration.PROBES)  # a model on a server may take a while: not under the lock
        if count >= calibration.MIN_VECTORS:
            sample = self._calibration_sample(model, dim)
            measured = calibration.measure(sample, probes, "catalogue", count=count)
        else:
            measured = calibration.measure(embed(reference), probes, "reference")
        self.set_setting(key, calibration.dump(measured))
        return measured

    def _calibration_sample(self, model: str, dim: int) -> np.ndarray:
        """Vectors of ``model`` to measure its scale on: all of them (in memory already)."""
        with self._lock:
            return self.matrix(model, dim)[1].copy()

    # -- style references ------------------------------------------------------------------------

    def by_sref(self, codes: Sequence[str]) -> tuple[list[Entity], dict[str, int]]:
        """Entities sharing any of ``codes``, and how many entities carry each code of theirs."""
        if not codes:
            return [], {}
        marks = ", ".join("?" * len(codes))
        with self._lock:
            ids = [
                r[0]
                for r in self._db.execute(
                    f"SELECT DISTINCT entity_id FROM sref_codes WHERE code IN ({marks})", list(codes)
                )
            ]
            found = self.by_ids(ids)
            their_codes = {c for e in found.values() for c in srefs.normalize_codes(e.sref)} | set(codes)
            marks = ", ".join("?" * len(their_codes))
            counts = dict(
                self._db.execute(
                    f"SELECT code, COUNT(*) FROM sref_codes WHERE code IN ({marks}) GROUP BY code",
                    sorted(their_codes),
                ).fetchall()
            )
        entities = sorted(found.values(), key=lambda e: name_key(e.name))
        ordered = {code: counts.get(code, 0) for code in codes}
        ordered.update(sorted(((c, n) for c, n in counts.items() if c not in ordered), key=lambda x: -x[1]))
        return entities, ordered


def top_k(
    vectors: np.ndarray, query: np.ndarray, limit: int, excluded: np.ndarray | None = None
) -> list[tuple[int, float]]:
    """Row indices and cosines of the ``limit`` best rows (rows and query of unit length)."""
    if vectors.shape[0] == 0 or limit <= 0:
        return []
    # one thread: BLAS would split this memory-bound product over both cores and, on a busy
    # machine, wait for the second (8 ms of CPU and 18 ms of wall for 4,000 rows, 0.24 ms here)
    scores = np.einsum("ij,j->i", vectors, query)
    if excluded is not None and excluded.any():
        scores = np.where(excluded, -np.inf, scores)
    limit = min(limit, int(np.isfinite(scores).sum()))
    if limit <= 0:
        return []
    best = np.argpartition(-scores, limit - 1)[:limit] if limit < scores.shape[0] else np.arange(len(scores))
    best = best[np.argsort(-scores[best], kind="stable")]
    return [(int(i), float(scores[i])) for i in best]


def embed(embedder: Embedder, entities: Sequence[Entity], on_progress: Progress | None = None) -> np.ndarray:
    """The vectors of entities' texts, in batches (slow work: it can run off the GUI thread)."""
    texts = [e.text() for e in entities]
    parts = []
    for start in range(0, len(texts), EMBED_BATCH):
        parts.append(embedder.embed(texts[start : start + EMBED_BATCH]))
        if on_progress is not None:
            on_progress(min(start + EMBED_BATCH, len(texts)), len(texts))
    return np.concatenate(parts) if parts else np.zeros((0, 0), np.float32)


def tidy(entity: Entity) -> Entity:
    """The stored form: a name with single spaces, normalized sref codes, a creation time."""
    name = " ".join(entity.name.split())
    if not name:
        raise CatalogueError("an entity needs a name")
    return replace(entity, name=name, sref=srefs.normalize(entity.sref), created=entity.created or now())


def _entity(row: Sequence[Any]) -> Entity:
    return Entity(**dict(zip(FIELDS, row[1:], strict=True)), id=row[0])


class _Rows:
    """A statement's rows, read in full while its deadline held."""

    def __init__(self, rows: list[Any], lastrowid: int | None) -> None:
        self.rows, self.lastrowid = rows, lastrowid

    def fetchone(self) -> Any:
        return self.rows[0] if self.rows else None

    def fetchall(self) -> list[Any]:
        return self.rows

    def __iter__(self) -> Iterator[Any]:
        return iter(self.rows)


class _Guarded:
    """A connection whose every statement (rows read included) stops at STATEMENT_SECONDS."""

    def __init__(self, db: sqlite3.Connection, label: str) -> None:
        self.db, self.label = db, label
        self.until = float("inf")
        db.set_progress_handler(self._late, 10_000)

    def _late(self) -> int:
        return int(time.monotonic() > self.until)

    def _run(self, call: Callable[[], sqlite3.Cursor]) -> _Rows:
        self.until = time.monotonic() + STATEMENT_SECONDS
        try:
            cursor = call()
            return _Rows(cursor.fetchall(), cursor.lastrowid)
        except sqlite3.OperationalError as exc:
            if "interrupt" not in str(exc):
                raise
            raise CatalogueError(
                f"{self.label} took more than {STATEMENT_SECONDS:.0f} s to answer one query, so it was "
                "stopped (a catalogue napari-talk wrote answers in milliseconds)"
            ) from None
        finally:
            self.until = float("inf")

    def execute(self, sql: str, params: Sequence[Any] = ()) -> _Rows:
        return self._run(lambda: self.db.execute(sql, params))

    def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> _Rows:
        return self._run(lambda: self.db.executemany(sql, rows))

    def executescript(self, script: str) -> _Rows:
        return self._run(lambda: self.db.executescript(script))

    def close(self) -> None:
        self.db.close()


class _transaction:
    """BEGIN IMMEDIATE … COMMIT, or ROLLBACK when the block raises."""

    def __init__(self, db: _Guarded) -> None:
        self.db = db

    def __enter__(self) -> None:
        self.db.execute("BEGIN IMMEDIATE")

    def __exit__(self, kind, *_: Any) -> None:
        self.db.execute("ROLLBACK" if kind else "COMMIT")
