"""The HNSW indexes (cosine) through which a PostgreSQL catalogue is searched, one per embedding
model and dimension: built by the search that first needs one for a few vectors, in the background
for many (searches exact meanwhile), and kept up by later writes."""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Callable
from typing import Any

from .entities import CatalogueError
from .limits import STATEMENT_SECONDS
from .pg_connection import PgConnection

EF_SEARCH = 100
"""Candidates the HNSW index looks at per query (pgvector's default is 40): recall against cost."""
INDEX_AT_ONCE = 20_000
"""Up to this many vectors of a model its HNSW index is built by the search that first needs it
(seconds); beyond, in the background, while searches score every vector exactly."""


def index_name(model: str, dim: int) -> str:
    return f"vectors_hnsw_{hashlib.sha256(model.encode()).hexdigest()[:12]}_{int(dim)}"


def index_statement(model: str, dim: int) -> Any:
    from psycopg import sql

    return sql.SQL(
        "CREATE INDEX IF NOT EXISTS {name} ON atlas.vectors USING hnsw "
        "((embedding::vector({dim})) vector_cosine_ops) WHERE model = {model} AND dim = {dim}"
    ).format(name=sql.Identifier(index_name(model, dim)), dim=sql.Literal(int(dim)), model=sql.Literal(model))


class HnswIndexes:
    """The indexes of the catalogue at ``url``, used through ``db`` (under ``lock``)."""

    def __init__(
        self, url: str, db: PgConnection, lock: threading.RLock, vector_count: Callable[[str, int], int]
    ) -> None:
        self.url, self.db, self.lock = url, db, lock
        self.vector_count = vector_count
        self.ef_search = EF_SEARCH
        self.indexed: set[tuple[str, int]] = set()
        self.building: dict[tuple[str, int], threading.Thread] = {}

    def ensure(self, model: str, dim: int) -> None:
        """The HNSW index of ``model``'s vectors, built here if there is none (minutes for
        100,000 vectors on two busy cores)."""
        if (model, dim) in self.indexed:
            return
        statement = index_statement(model, dim)
        with self.lock:
            self.db.execute("SET maintenance_work_mem = '256MB'")
            self.db.execute("SET statement_timeout = 0")  # building may take a while, once
            try:
                self.db.execute(statement.as_string(self.db.db))
            finally:
                self.db.execute(f"SET statement_timeout = {int(STATEMENT_SECONDS * 1000)}")
            self.db.execute(f"SET hnsw.ef_search = {int(self.ef_search)}")
        self.indexed.add((model, dim))

    def ready(self, model: str, dim: int, at_once: int = INDEX_AT_ONCE) -> bool:
        """Whether searches of ``model`` may use its index: built at once for up to ``at_once``
        vectors; for more, on a worker thread with a connection of its own, searches meanwhile
        exact."""
        if (model, dim) in self.indexed:
            return True
        with self.lock:
            built = self.db.execute(
                "SELECT 1 FROM pg_indexes WHERE schemaname = 'atlas' AND indexname = ?",
                (index_name(model, dim),),
            ).fetchone()
        if built is not None or self.vector_count(model, dim) <= at_once:
            self.ensure(model, dim)
            return True
        with self.lock:
            building = self.building.get((model, dim))
            if building is None or not building.is_alive():
                building = threading.Thread(
                    target=self._build, args=(model, dim), name="atlas index", daemon=True
                )
                self.building[(model, dim)] = building
                building.start()
        return False

    def _build(self, model: str, dim: int) -> None:
        try:
            other = PgConnection(self.url)
        except CatalogueError:
            return
        try:
            other.execute("SET maintenance_work_mem = '256MB'")
            other.execute("SET statement_timeout = 0")
            other.execute(index_statement(model, dim).as_string(other.db))
        except CatalogueError:
            return  # searches stay exact; the next one tries again
        finally:
            other.close()
        self.ensure(model, dim)  # there now: only the session's ef_search is set
