"""A SQLite connection that a hostile catalogue file cannot hold forever: every statement (its
rows read included) is interrupted past a deadline, and the person told so in one sentence."""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from .entities import CatalogueError
from .rows import Rows


class GuardedConnection:
    """``deadline()`` gives the seconds one statement may run (read at each statement)."""

    def __init__(self, db: sqlite3.Connection, label: str, deadline: Callable[[], float]) -> None:
        self.db, self.label, self.deadline = db, label, deadline
        self.until = float("inf")
        db.set_progress_handler(self._late, 10_000)

    def _late(self) -> int:
        return int(time.monotonic() > self.until)

    def _run(self, call: Callable[[], sqlite3.Cursor]) -> Rows:
        seconds = self.deadline()
        self.until = time.monotonic() + seconds
        try:
            cursor = call()
            return Rows(cursor.fetchall(), cursor.lastrowid)
        except sqlite3.OperationalError as exc:
            if "interrupt" not in str(exc):
                raise
            raise CatalogueError(
                f"{self.label} took more than {seconds:.0f} s to answer one query, so it was "
                "stopped (a catalogue napari-talk wrote answers in milliseconds)"
            ) from None
        finally:
            self.until = float("inf")

    def execute(self, sql: str, params: Sequence[Any] = ()) -> Rows:
        return self._run(lambda: self.db.execute(sql, params))

    def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> Rows:
        return self._run(lambda: self.db.executemany(sql, rows))

    def executescript(self, script: str) -> Rows:
        return self._run(lambda: self.db.executescript(script))

    def close(self) -> None:
        self.db.close()


class Transaction:
    """BEGIN IMMEDIATE … COMMIT, or ROLLBACK when the block raises."""

    def __init__(self, db: GuardedConnection) -> None:
        self.db = db

    def __enter__(self) -> None:
        self.db.execute("BEGIN IMMEDIATE")

    def __exit__(self, kind: Any, *_: Any) -> None:
        self.db.execute("ROLLBACK" if kind else "COMMIT")
