"""One model's vectors in memory as a single matrix that a write updates in place.

Reading 100,000 vectors back from SQLite takes seconds; after a write the catalogue changes the
rows it wrote instead: a removed row is overwritten by the last row (so the live rows stay one
dense block and a search stays one matrix-vector product), new rows go into spare capacity at
the end. Row order is therefore not id order; nothing relies on it.

Scoring every float of 100,000 vectors of 384 dimensions reads 150 MB: 15 ms of CPU at this
machine's memory speed, twice that in wall time on two busy cores. So past
:data:`SHORTLIST_OVER` rows a search first ranks every row by the signs of its vector (one bit a
dimension, 48 bytes a row: Hamming distance by XOR and popcount), then scores the best
:func:`pool` rows exactly; ``benchmarks/atlas.py`` prints its recall against scoring every row.
"""

from __future__ import annotations

from collections.abc import Collection

import numpy as np

COMPACT_OVER = 1_000
"""Removing more rows than this at once rebuilds the block instead of moving rows one by one."""
SHORTLIST_OVER = 20_000
"""Up to this many rows a search scores every row (under 3 ms); beyond, it shortlists by signs."""
POOL_SHARE, POOL_MIN = 0.04, 1_000
"""Rows scored exactly after the signs' ranking: 4 % of the rows, at least 1,000 (recall@10 against
every row scored 0.998 to 1.0 on text embeddings of 100,000 entities, 0.98 on clusters of near
duplicates)."""
_POPCOUNT = getattr(np, "bitwise_count", None)
"""numpy 2's popcount; with an older numpy every row is scored."""


def sign_bits(vectors: np.ndarray) -> np.ndarray:
    """Each row's signs packed into 64-bit words (padded with zeros)."""
    packed = np.packbits(vectors > 0, axis=1)
    spare = (-packed.shape[1]) % 8
    if spare:
        packed = np.pad(packed, ((0, 0), (0, spare)))
    return np.ascontiguousarray(packed).view(np.uint64)


def pool(rows: int, limit: int) -> int:
    return max(POOL_MIN, int(rows * POOL_SHARE), 4 * limit)


class VectorMatrix:
    def __init__(self, ids: np.ndarray, vectors: np.ndarray, stamp: tuple[int, int]) -> None:
        count, dim = vectors.shape
        capacity = count + max(64, count // 8)
        self._ids = np.empty(capacity, np.int64)
        self._vectors = np.empty((capacity, dim), np.float32)
        self._ids[:count], self._vectors[:count] = ids, vectors
        self._signs = np.empty(((dim + 63) // 64, capacity), np.uint64)
        """One row per 64 dimensions, one column per vector: a search reads each row in one sweep."""
        self._signs[:, :count] = sign_bits(vectors).T
        self.count = count
        self.stamp = stamp
        """The catalogue's stamp this matrix matches."""

    @property
    def ids(self) -> np.ndarray:
        return self._ids[: self.count]

    @property
    def vectors(self) -> np.ndarray:
        return self._vectors[: self.count]

    @property
    def signs(self) -> np.ndarray:
        """(rows, words): each row's signs, packed."""
        return self._signs[:, : self.count].T

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
            self._signs[:, :kept] = self._signs[:, : self.count][:, keep]
            self.count = kept
            return
        for position in positions[::-1]:  # from the end: the rows moved in are always live
            last = self.count - 1
            if position != last:
                self._ids[position] = self._ids[last]
                self._vectors[position] = self._vectors[last]
                self._signs[:, position] = self._signs[:, last]
            self.count = last

    def append(self, ids: np.ndarray, vectors: np.ndarray) -> None:
        extra = len(ids)
        if extra == 0:
            return
        if self.count + extra > len(self._ids):
            capacity = max(2 * len(self._ids), self.count + extra)
            grown_ids = np.empty(capacity, np.int64)
            grown = np.empty((capacity, self._vectors.shape[1]), np.float32)
            grown_signs = np.empty((self._signs.shape[0], capacity), np.uint64)
            grown_ids[: self.count], grown[: self.count] = self.ids, self.vectors
            grown_signs[:, : self.count] = self._signs[:, : self.count]
            self._ids, self._vectors, self._signs = grown_ids, grown, grown_signs
        self._ids[self.count : self.count + extra] = ids
        self._vectors[self.count : self.count + extra] = vectors
        self._signs[:, self.count : self.count + extra] = sign_bits(vectors).T
        self.count += extra

    def shortlist(self, query: np.ndarray, limit: int) -> np.ndarray | None:
        """The rows worth scoring exactly, nearest by signs first; None when every row should be
        (few rows, or no popcount in this numpy)."""
        if self.count <= SHORTLIST_OVER or _POPCOUNT is None:
            return None
        size = pool(self.count, limit)
        if size >= self.count:
            return None
        asked = sign_bits(query[None, :])[0]
        distance = np.zeros(self.count, np.uint16)
        differ = np.empty(self.count, np.uint64)
        counted = np.empty(self.count, np.uint8)
        for word, bits in enumerate(asked):  # in place, one sweep a word: no (rows, words) temporaries
            np.bitwise_xor(self._signs[word, : self.count], bits, out=differ)
            _POPCOUNT(differ, out=counted)
            distance += counted
        return np.argpartition(distance, size - 1)[:size]
