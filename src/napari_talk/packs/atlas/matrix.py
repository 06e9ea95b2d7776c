"""One model's vectors in memory as a single matrix that a write updates in place.

Reading 100,000 vectors back from SQLite takes seconds; after a write the catalogue changes the
rows it wrote instead: a removed row is overwritten by the last row (so the live rows stay one
dense block and a search stays one matrix-vector product), new rows go into spare capacity at
the end. Row order is therefore not id order; nothing relies on it.
"""

from __future__ import annotations

from collections.abc import Collection

import numpy as np

COMPACT_OVER = 1_000
"""Removing more rows than this at once rebuilds the block instead of moving rows one by one."""


class VectorMatrix:
    def __init__(self, ids: np.ndarray, vectors: np.ndarray, stamp: tuple[int, int]) -> None:
        count, dim = vectors.shape
        capacity = count + max(64, count // 8)
        self._ids = np.empty(capacity, np.int64)
        self._vectors = np.empty((capacity, dim), np.float32)
        self._ids[:count], self._vectors[:count] = ids, vectors
        self.count = count
        self.stamp = stamp
        """The catalogue's stamp this matrix matches."""

    @property
    def ids(self) -> np.ndarray:
        return self._ids[: self.count]

    @property
    def vectors(self) -> np.ndarray:
        return self._vectors[: self.count]

    def remove(self, ids: Collection[int]) -> None:
        """Drop the rows of ``ids`` (ids without a row are ignored)."""
        if not ids or self.count == 0:
            return
        gone = np.isin(self.ids, np.fromiter(ids, np.int64, len(ids)))
        positions = np.flatnonzero(gone)
        if len(positions) > COMPACT_OVER:
            keep = ~gone
            kept = int(keep.sum())
            self._ids[:kept] = self.ids[keep]
            self._vectors[:kept] = self.vectors[keep]
            self.count = kept
            return
        for position in positions[::-1]:  # from the end: the rows moved in are always live
            last = self.count - 1
            if position != last:
                self._ids[position] = self._ids[last]
                self._vectors[position] = self._vectors[last]
            self.count = last

    def append(self, ids: np.ndarray, vectors: np.ndarray) -> None:
        extra = len(ids)
        if extra == 0:
            return
        if self.count + extra > len(self._ids):
            capacity = max(2 * len(self._ids), self.count + extra)
            grown_ids = np.empty(capacity, np.int64)
            grown = np.empty((capacity, self._vectors.shape[1]), np.float32)
            grown_ids[: self.count], grown[: self.count] = self.ids, self.vectors
            self._ids, self._vectors = grown_ids, grown
        self._ids[self.count : self.count + extra] = ids
        self._vectors[self.count : self.count + extra] = vectors
        self.count += extra
