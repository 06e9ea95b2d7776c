"""Rows as every backend reads them, turned into entities and vectors and back."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np

from .entities import FIELDS, Entity

ENTITY_COLUMNS = ", ".join(("id", *FIELDS))
"""The columns of an entity row as :func:`entity_of` reads them."""

VectorRow = tuple[int, str, int, bytes]
"""(entity id, model, dimension, float32 bytes): one stored vector."""


def entity_of(row: Sequence[Any]) -> Entity:
    """The entity of a row read as ``SELECT {ENTITY_COLUMNS}``."""
    return Entity(**dict(zip(FIELDS, row[1:], strict=True)), id=row[0])


def vector_rows(ids: Sequence[int], model: str, vectors: np.ndarray) -> list[VectorRow]:
    """The stored form of ``vectors`` (one row each, in the order of ``ids``)."""
    vectors = np.asarray(vectors, np.float32)
    return [(int(i), model, int(v.shape[0]), v.tobytes()) for i, v in zip(ids, vectors, strict=True)]


def matrix_of(rows: Sequence[tuple[Any, bytes]], dim: int) -> tuple[np.ndarray, np.ndarray]:
    """(ids, vectors) of (id, float32 bytes) rows, the vectors as one (n, dim) matrix."""
    ids = np.fromiter((r[0] for r in rows), np.int64, len(rows))
    vectors = np.frombuffer(b"".join(bytes(r[1]) for r in rows), np.float32).reshape(len(rows), dim)
    return ids, vectors


class Rows:
    """A statement's rows, read in full while its deadline held."""

    def __init__(self, rows: list[Any], lastrowid: int | None = None) -> None:
        self.rows, self.lastrowid = rows, lastrowid

    def fetchone(self) -> Any:
        return self.rows[0] if self.rows else None

    def fetchall(self) -> list[Any]:
        return self.rows

    def __iter__(self) -> Iterator[Any]:
        return iter(self.rows)
