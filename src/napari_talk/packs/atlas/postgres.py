"""The catalogue on PostgreSQL with pgvector: one shared catalogue for a lab or a studio.

The same :class:`~.catalogue.Catalogue` (every command works unchanged), on a server: its tables
live in the schema ``atlas``, created on first use with the ``vector`` extension; imports go in
by binary ``COPY``; search asks an HNSW index (cosine) per embedding model, built on the first
search of a model (in the background for a large catalogue, searches exact meanwhile) and kept
up by later writes, instead of scoring every vector in memory. Other
clients' writes are seen through a revision counter that every write transaction moves.

The URL is the person's setting (``atlas.database``); its password is best left out of it and
given as libpq reads it (``$PGPASSWORD`` or ``~/.pgpass``). Whichever way it comes, every message
that names the database hides it (:func:`~napari_talk.core.safety.secrets.redact`).
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

import numpy as np

from ...core.safety.secrets import redact, url_masked, url_password
from . import sref as srefs
from .catalogue import (
    FIELDS,
    SCHEMA_VERSION,
    STATEMENT_SECONDS,
    Catalogue,
    CatalogueError,
    Entity,
    _entity,
    _Rows,
    name_key,
)

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
EF_SEARCH = 100
"""Candidates the HNSW index looks at per query (pgvector's default is 40): recall against cost."""
CALIBRATION_ROWS = 4_000
"""Vectors a model's scale is measured on, of a larger catalogue (see :mod:`.calibration`)."""
INDEX_AT_ONCE = 20_000
"""Up to this many vectors of a model its HNSW index is built by the search that first needs it
(seconds); beyond, in the background, while searches score every vector exactly."""


def available() -> bool:
    return all(importlib.util.find_spec(m) is not None for m in ("psycopg", "pgvector"))


def password_of(url: str) -> str:
    """The password the connection will use: the URL's, else libpq's ``$PGPASSWORD``."""
    return url_password(url) or os.environ.get("PGPASSWORD", "")


shown = url_masked
"""The URL as it may be shown: every password in it replaced by ***."""


class _PgConnection:
    """A psycopg connection speaking the catalogue's ``?`` placeholders, its every statement
    stopped by the server at STATEMENT_SECONDS, its errors told without the password."""

    def __init__(self, url: str) -> None:
        import psycopg
        from pgvector.psycopg import register_vector

        self.url, self._psycopg = url, psycopg
        self.label = shown(url)
        try:
            self.db = psycopg.connect(
                url,
                autocommit=True,
                connect_timeout=10,
                options=f"-c statement_timeout={int(STATEMENT_SECONDS * 1000)} -c search_path=atlas,public",
            )
            self.db.execute("CREATE EXTENSION IF NOT EXISTS vector")
            register_vector(self.db)
        except psycopg.Error as exc:
            raise CatalogueError(self.explain(exc, "cannot open the catalogue database")) from None

    def explain(self, exc: Exception, what: str) -> str:
        message = " ".join(str(exc).split()) or type(exc).__name__
        return redact(f"{what} {self.label}: {message}", password_of(self.url))

    def _run(self, call: Callable[[Any], Any]) -> _Rows:
        try:
            cursor = self.db.cursor()
            call(cursor)
            rows = cursor.fetchall() if cursor.description is not None else []
            return _Rows(rows, None)
        except self._psycopg.errors.QueryCanceled:
            raise CatalogueError(
                f"the catalogue database {self.label} took more than {STATEMENT_SECONDS:.0f} s to answer "
                "one query, so it was stopped"
            ) from None
        except self._psycopg.Error as exc:
            raise CatalogueError(self.explain(exc, "the catalogue database")) from None

    def execute(self, sql: str, params: Sequence[Any] = ()) -> _Rows:
        return self._run(lambda c: c.execute(sql.replace("?", "%s"), params or None))

    def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> _Rows:
        rows = list(rows)
        if not rows:
            return _Rows([], None)
        return self._run(lambda c: c.executemany(sql.replace("?", "%s"), rows))

    def executescript(self, script: str) -> _Rows:
        return self._run(lambda c: c.execute(script))

    def copy(self, statement: str, types: Sequence[str], rows: Iterable[Sequence[Any]]) -> None:
        def write(cursor: Any) -> None:
            with cursor.copy(statement) as copy:
                copy.set_types(list(types))
                for row in rows:
                    copy.write_row(row)

        self._run(write)

    def close(self) -> None:
        self.db.close()


class _PgTransaction:
    """BEGIN … (the revision moved) COMMIT, or ROLLBACK when the block raises."""

    def __init__(self, catalogue: PostgresCatalogue) -> None:
        self.catalogue = catalogue

    def __enter__(self) -> None:
        self.catalogue._db.execute("BEGIN")

    def __exit__(self, kind: Any, *_: Any) -> None:
        db = self.catalogue._db
        if kind is not None:
            db.execute("ROLLBACK")
            return
        try:
            db.execute("UPDATE revision SET n = n + 1")
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise
        self.catalogue._own_revisions += 1


class PostgresCatalogue(Catalogue):
    """The catalogue in a PostgreSQL database (``postgresql://`` URL), vectors searched by pgvector."""

    def __init__(self, url: str) -> None:
        if not available():
            raise CatalogueError(
                "a catalogue on PostgreSQL needs psycopg and pgvector: `pip install napari-talk[postgres]`"
            )
        self._caches()
        self.url = url
        self.label = shown(url)
        self._own_revisions = 0
        self._indexed: set[tuple[str, int]] = set()
        self._counts: dict[tuple[str, int], tuple[tuple[int, int], int]] = {}
        """Per (model, dim): the stamp and the number of vectors then (counting 100,000 rows
        took 32 ms of every search, for the calibration's check)."""
        self.ef_search = EF_SEARCH
        self._building: dict[tuple[str, int], threading.Thread] = {}
        self._db: _PgConnection = _PgConnection(url)  # type: ignore[assignment]
        self._db.executescript(SCHEMA)
        version = self.setting("schema_version")
        if version is None:
            self.set_setting("schema_version", str(SCHEMA_VERSION))
        elif int(version) > SCHEMA_VERSION:
            raise CatalogueError(f"{self.label} was written by a newer napari-talk (schema {version})")

    def __repr__(self) -> str:
        return f"PostgresCatalogue({self.label})"

    def _stamp(self) -> tuple[int, int]:
        (revision,) = self._db.execute("SELECT n FROM revision").fetchone()
        return int(revision) - self._own_revisions, self._writes

    def _transaction(self) -> _PgTransaction:  # type: ignore[override]
        return _PgTransaction(self)

    def _insert(self, entity: Entity, thumbnail: bytes | None, entity_id: int | None = None) -> int:
        return self._insert_many([entity], [thumbnail], [entity_id])[0]

    def _insert_many(
        self, entities: Sequence[Entity], thumbnails: Sequence[bytes | None], ids: Sequence[int | None]
    ) -> list[int]:
        """Entity rows by binary COPY, new ids drawn from the table's sequence first."""
        wanted = sum(i is None for i in ids)
        fresh: Iterator[int] = iter(())
        if wanted:
            rows = self._db.execute(
                "SELECT nextval(pg_get_serial_sequence('atlas.entities', 'id')) FROM generate_series(1, ?)",
                (wanted,),
            ).fetchall()
            fresh = iter(int(r[0]) for r in rows)
        chosen = [i if i is not None else next(fresh) for i in ids]
        columns = ("id", "name_key", "thumbnail", *FIELDS)
        self._db.copy(
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
            self._db.copy(
                "COPY sref_codes (entity_id, code) FROM STDIN WITH (FORMAT BINARY)", ["int8", "text"], codes
            )
        return chosen

    def _put_vectors(self, rows: Sequence[tuple[int, str, int, bytes]], replace: bool = False) -> None:
        with_embedding = [(*row, np.frombuffer(row[3], np.float32)) for row in rows]
        if replace:
            self._db.executemany(
                "INSERT INTO vectors (entity_id, model, dim, vector, embedding) VALUES (?, ?, ?, ?, ?) "
                "ON CONFLICT (entity_id, model) DO UPDATE SET dim = excluded.dim, vector = excluded.vector, "
                "embedding = excluded.embedding",
                with_embedding,
            )
        elif with_embedding:
            self._db.copy(
                "COPY vectors (entity_id, model, dim, vector, embedding) FROM STDIN WITH (FORMAT BINARY)",
                ["int8", "text", "int4", "bytea", "vector"],
                with_embedding,
            )

    # -- search through the HNSW index --------------------------------------------------------

    @staticmethod
    def _index_name(model: str, dim: int) -> str:
        return f"vectors_hnsw_{hashlib.sha256(model.encode()).hexdigest()[:12]}_{int(dim)}"

    def _index_statement(self, model: str, dim: int) -> Any:
        from psycopg import sql

        name = self._index_name(model, dim)
        return sql.SQL(
            "CREATE INDEX IF NOT EXISTS {name} ON atlas.vectors USING hnsw "
            "((embedding::vector({dim})) vector_cosine_ops) WHERE model = {model} AND dim = {dim}"
        ).format(name=sql.Identifier(name), dim=sql.Literal(int(dim)), model=sql.Literal(model))

    def ensure_index(self, model: str, dim: int) -> None:
        """The HNSW index of ``model``'s vectors, built here if there is none (minutes for
        100,000 vectors on two busy cores)."""
        if (model, dim) in self._indexed:
            return
        statement = self._index_statement(model, dim)
        with self._lock:
            self._db.execute("SET maintenance_work_mem = '256MB'")
            self._db.execute("SET statement_timeout = 0")  # building may take a while, once
            try:
                self._db.execute(statement.as_string(self._db.db))
            finally:
                self._db.execute(f"SET statement_timeout = {int(STATEMENT_SECONDS * 1000)}")
            self._db.execute(f"SET hnsw.ef_search = {int(self.ef_search)}")
        self._indexed.add((model, dim))

    def _index_ready(self, model: str, dim: int) -> bool:
        """Whether searches of ``model`` may use its index: built at once for a few vectors; for
        more, on a worker thread with a connection of its own, searches meanwhile exact."""
        if (model, dim) in self._indexed:
            return True
        with self._lock:
            built = self._db.execute(
                "SELECT 1 FROM pg_indexes WHERE schemaname = 'atlas' AND indexname = ?",
                (self._index_name(model, dim),),
            ).fetchone()
        if built is not None or self.vector_count(model, dim) <= INDEX_AT_ONCE:
            self.ensure_index(model, dim)
            return True
        with self._lock:
            building = self._building.get((model, dim))
            if building is None or not building.is_alive():
                building = threading.Thread(
                    target=self._build, args=(model, dim), name="atlas index", daemon=True
                )
                self._building[(model, dim)] = building
                building.start()
        return False

    def _build(self, model: str, dim: int) -> None:
        try:
            other = _PgConnection(self.url)
        except CatalogueError:
            return
        try:
            other.execute("SET maintenance_work_mem = '256MB'")
            other.execute("SET statement_timeout = 0")
            other.execute(self._index_statement(model, dim).as_string(other.db))
        except CatalogueError:
            return  # searches stay exact; the next one tries again
        finally:
            other.close()
        self.ensure_index(model, dim)  # there now: only the session's ef_search is set

    def search(
        self, query: np.ndarray, model: str, limit: int, exclude: Iterable[int] = (), *, exact: bool = False
    ) -> list[tuple[Entity, float]]:
        """The ``limit`` nearest by cosine: through the HNSW index (approximate), or ``exact``ly
        (every vector scored in memory, as on SQLite)."""
        from psycopg import sql

        query = np.asarray(query, np.float32)
        dim = int(query.shape[0])
        if exact or not self._index_ready(model, dim):
            return super().search(query, model, limit, exclude, exact=True)
        excluded = [int(i) for i in exclude]
        # literals for the model and dimension: the planner matches them to the partial index;
        # the entities come in the same statement (a round trip less: on a busy machine each
        # one waits for the server to be scheduled)
        statement = sql.SQL(
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
        with self._lock:
            text = statement.as_string(self._db.db)
            rows = self._db._run(lambda c: c.execute(text, (query, excluded, query, int(limit)))).fetchall()
        return [(_entity(row[:-1]), float(row[-1])) for row in rows]

    def _calibration_sample(self, model: str, dim: int) -> np.ndarray:
        """A random sample of about CALIBRATION_ROWS of ``model``'s vectors, whole pages drawn
        (reading all 100,000 into memory made a catalogue's first search take 12 s)."""
        count = self.vector_count(model, dim)
        if count <= CALIBRATION_ROWS:
            return super()._calibration_sample(model, dim)
        share = min(100.0, 100.0 * 2 * CALIBRATION_ROWS / count)
        with self._lock:
            rows = self._db.execute(
                f"SELECT vector FROM vectors TABLESAMPLE SYSTEM ({share:.4f}) REPEATABLE (0) "
                "WHERE model = ? AND dim = ?",
                (model, dim),
            ).fetchall()
        if len(rows) < CALIBRATION_ROWS // 4:  # pages of other models drawn: every vector, then
            return super()._calibration_sample(model, dim)
        return np.frombuffer(b"".join(bytes(r[0]) for r in rows), np.float32).reshape(len(rows), dim)

    def vector_count(self, model: str, dim: int) -> int:
        with self._lock:
            stamp = self._stamp()
            known = self._counts.get((model, dim))
            if known is not None and known[0] == stamp:
                return known[1]
            row = self._db.execute("SELECT COUNT(*) FROM vectors WHERE model = ? AND dim = ?", (model, dim))
            count = int(row.fetchone()[0])
            self._counts[(model, dim)] = (stamp, count)
            return count
