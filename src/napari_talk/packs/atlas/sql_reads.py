"""The reading statements both backends run: SQLite as written, PostgreSQL with its ``?``
placeholders turned into ``%s``. Every value is a bound parameter; no text a person or a model
typed is ever part of a statement."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Protocol

from . import sref as srefs
from .entities import Entity, Snapshot, name_key
from .rows import ENTITY_COLUMNS, Rows, entity_of

CHUNK = 500
"""Ids asked for in one statement (SQLite's limit on parameters is far above)."""


class Connection(Protocol):
    """What both backends' connections do: run a statement, its rows read in full."""

    def execute(self, sql: str, params: Sequence[Any] = ()) -> Rows: ...
    def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> Rows: ...


def marks(count: int) -> str:
    return ", ".join("?" * count)


def chunks(ids: Sequence[Any]) -> Iterable[list[Any]]:
    for start in range(0, len(ids), CHUNK):
        yield list(ids[start : start + CHUNK])


def count(db: Connection) -> int:
    return int(db.execute("SELECT COUNT(*) FROM entities").fetchone()[0])


def empty(db: Connection) -> bool:
    """No entity yet: one row looked for, where counting 100,000 takes 12 ms of every search."""
    return db.execute("SELECT 1 FROM entities LIMIT 1").fetchone() is None


def name_rows(db: Connection) -> list[tuple[str, str]]:
    return db.execute("SELECT name_key, name FROM entities ORDER BY name_key").fetchall()


def domains(db: Connection) -> dict[str, int]:
    rows = db.execute(
        "SELECT domain, COUNT(*) FROM entities GROUP BY domain ORDER BY COUNT(*) DESC, domain"
    ).fetchall()
    return {domain: int(n) for domain, n in rows}


def get(db: Connection, name: str) -> Entity | None:
    row = db.execute(
        f"SELECT {ENTITY_COLUMNS} FROM entities WHERE name_key = ?", (name_key(name),)
    ).fetchone()
    return entity_of(row) if row else None


def by_ids(db: Connection, ids: Sequence[int]) -> dict[int, Entity]:
    found: dict[int, Entity] = {}
    for chunk in chunks([int(i) for i in ids]):
        rows = db.execute(
            f"SELECT {ENTITY_COLUMNS} FROM entities WHERE id IN ({marks(len(chunk))})", chunk
        ).fetchall()
        found.update((row[0], entity_of(row)) for row in rows)
    return found


def entities(db: Connection, domain: str | None = None) -> list[Entity]:
    query = f"SELECT {ENTITY_COLUMNS} FROM entities"
    params: tuple[Any, ...] = ()
    if domain is not None:
        query += " WHERE lower(domain) = lower(?)"
        params = (domain,)
    return [entity_of(r) for r in db.execute(query + " ORDER BY name_key", params)]


def thumbnail(db: Connection, entity_id: int) -> bytes | None:
    row = db.execute("SELECT thumbnail FROM entities WHERE id = ?", (entity_id,)).fetchone()
    return bytes(row[0]) if row and row[0] is not None else None


def thumbnails(db: Connection, ids: Sequence[int]) -> dict[int, bytes]:
    """The thumbnails of the entities ``ids`` that have one, in one query per 500 (a round trip
    each cost a shared catalogue more than its search)."""
    found: dict[int, bytes] = {}
    for chunk in chunks([int(i) for i in ids]):
        rows = db.execute(
            f"SELECT id, thumbnail FROM entities WHERE id IN ({marks(len(chunk))}) AND thumbnail IS NOT NULL",
            chunk,
        ).fetchall()
        found.update((row[0], bytes(row[1])) for row in rows)
    return found


def setting(db: Connection, key: str) -> str | None:
    row = db.execute("SELECT value FROM settings WHERE key = ?", (key,)).fetchone()
    return row[0] if row else None


def set_setting(db: Connection, key: str, value: str) -> None:
    db.execute(
        "INSERT INTO settings (key, value) VALUES (?, ?) "
        "ON CONFLICT(key) DO UPDATE SET value = excluded.value",
        (key, value),
    )


def snapshot(db: Connection, entity_id: int) -> Snapshot:
    row = db.execute(
        f"SELECT {ENTITY_COLUMNS}, thumbnail FROM entities WHERE id = ?", (entity_id,)
    ).fetchone()
    vectors = db.execute(
        "SELECT model, dim, vector FROM vectors WHERE entity_id = ?", (entity_id,)
    ).fetchall()
    thumb = bytes(row[-1]) if row[-1] is not None else None
    return Snapshot(entity_of(row[:-1]), thumb, tuple((m, int(d), bytes(v)) for m, d, v in vectors))


def ids_of_names(db: Connection, keys: Sequence[str]) -> dict[str, int]:
    """name key → id, of the ``keys`` some entity holds."""
    found: dict[str, int] = {}
    for chunk in chunks(list(keys)):
        rows = db.execute(f"SELECT name_key, id FROM entities WHERE name_key IN ({marks(len(chunk))})", chunk)
        found.update((key, int(i)) for key, i in rows)
    return found


def alive(db: Connection, ids: Sequence[int]) -> set[int]:
    """Those of ``ids`` whose entity is still in the catalogue."""
    found: set[int] = set()
    for chunk in chunks([int(i) for i in ids]):
        found.update(
            int(r[0]) for r in db.execute(f"SELECT id FROM entities WHERE id IN ({marks(len(chunk))})", chunk)
        )
    return found


def stored_with_vector(db: Connection, keys: Sequence[str], model: str) -> dict[str, Entity]:
    """name key → stored entity, of the ``keys`` held by an entity that has a ``model`` vector."""
    found: dict[str, Entity] = {}
    for chunk in chunks(list(keys)):
        rows = db.execute(
            f"SELECT {ENTITY_COLUMNS} FROM entities WHERE name_key IN ({marks(len(chunk))}) AND id IN "
            "(SELECT entity_id FROM vectors WHERE model = ?)",
            [*chunk, model],
        )
        found.update((name_key(e.name), e) for e in map(entity_of, rows))
    return found


def missing_vectors(db: Connection, model: str) -> list[tuple[int, str]]:
    """(id, text) of the entities that have no vector of ``model`` yet."""
    rows = db.execute(
        f"SELECT {ENTITY_COLUMNS} FROM entities WHERE id NOT IN "
        "(SELECT entity_id FROM vectors WHERE model = ?) ORDER BY id",
        (model,),
    ).fetchall()
    return [(row[0], entity_of(row).text()) for row in rows]


def vector_of(db: Connection, entity_id: int, model: str) -> bytes | None:
    row = db.execute(
        "SELECT vector FROM vectors WHERE entity_id = ? AND model = ?", (entity_id, model)
    ).fetchone()
    return bytes(row[0]) if row else None


def vectors_of(db: Connection, model: str, dim: int) -> list[tuple[int, bytes]]:
    """(id, vector bytes) of every ``model`` vector of length ``dim``, in id order."""
    return db.execute(
        "SELECT entity_id, vector FROM vectors WHERE model = ? AND dim = ? ORDER BY entity_id", (model, dim)
    ).fetchall()


def by_sref(db: Connection, codes: Sequence[str]) -> tuple[list[Entity], dict[str, int]]:
    """Entities sharing any of ``codes``, and how many entities carry each code of theirs."""
    if not codes:
        return [], {}
    ids = [
        r[0]
        for r in db.execute(
            f"SELECT DISTINCT entity_id FROM sref_codes WHERE code IN ({marks(len(codes))})", list(codes)
        )
    ]
    found = by_ids(db, ids)
    their_codes = sorted({c for e in found.values() for c in srefs.normalize_codes(e.sref)} | set(codes))
    counts = {
        code: int(n)
        for code, n in db.execute(
            f"SELECT code, COUNT(*) FROM sref_codes WHERE code IN ({marks(len(their_codes))}) GROUP BY code",
            their_codes,
        ).fetchall()
    }
    entities = sorted(found.values(), key=lambda e: name_key(e.name))
    ordered = {code: counts.get(code, 0) for code in codes}
    ordered.update(sorted(((c, n) for c, n in counts.items() if c not in ordered), key=lambda x: -x[1]))
    return entities, ordered
