"""A connection to the catalogue's PostgreSQL database: the catalogue's ``?`` placeholders spoken,
every statement stopped by the server at STATEMENT_SECONDS, every error told without the password.

The URL is the person's setting (``atlas.database``); its password is best left out of it and
given as libpq reads it (``$PGPASSWORD`` or ``~/.pgpass``). Whichever way it comes, every message
that names the database hides it (:func:`~napari_talk.core.safety.secrets.redact`).
"""

from __future__ import annotations

import importlib.util
import os
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from ...core.safety.secrets import redact, url_masked, url_password
from .entities import CatalogueError
from .limits import STATEMENT_SECONDS
from .rows import Rows


def available() -> bool:
    return all(importlib.util.find_spec(m) is not None for m in ("psycopg", "pgvector"))


def password_of(url: str) -> str:
    """The password the connection will use: the URL's, else libpq's ``$PGPASSWORD``."""
    return url_password(url) or os.environ.get("PGPASSWORD", "")


shown = url_masked
"""The URL as it may be shown: every password in it replaced by ***."""


class PgConnection:
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

    def run(self, call: Callable[[Any], Any]) -> Rows:
        """``call(cursor)``, its rows read in full; a statement past its deadline or refused by
        the server becomes a CatalogueError."""
        try:
            cursor = self.db.cursor()
            call(cursor)
            rows = cursor.fetchall() if cursor.description is not None else []
            return Rows(rows, None)
        except self._psycopg.errors.QueryCanceled:
            raise CatalogueError(
                f"the catalogue database {self.label} took more than {STATEMENT_SECONDS:.0f} s to answer "
                "one query, so it was stopped"
            ) from None
        except self._psycopg.Error as exc:
            raise CatalogueError(self.explain(exc, "the catalogue database")) from None

    def execute(self, sql: str, params: Sequence[Any] = ()) -> Rows:
        return self.run(lambda c: c.execute(sql.replace("?", "%s"), params or None))

    def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> Rows:
        rows = list(rows)
        if not rows:
            return Rows([], None)
        return self.run(lambda c: c.executemany(sql.replace("?", "%s"), rows))

    def executescript(self, script: str) -> Rows:
        return self.run(lambda c: c.execute(script))

    def copy(self, statement: str, types: Sequence[str], rows: Iterable[Sequence[Any]]) -> None:
        def write(cursor: Any) -> None:
            with cursor.copy(statement) as copy:
                copy.set_types(list(types))
                for row in rows:
                    copy.write_row(row)

        self.run(write)

    def close(self) -> None:
        self.db.close()
