"""A uniform grid over a scene's primitives, walked along a chunk of rays nearest cell first.

Each primitive is listed in every cell its box (widened by a pad far above rounding) overlaps, so
a ray's exact hit on a primitive lies in a cell the ray passes through before or at that hit,
and that cell lists the primitive. A walk hands out the primitives of each ray's next cells in
order; a ray stops when its next cell begins beyond the distance the caller still needs, or it
leaves the grid. The exact hit arithmetic stays with the caller.
"""

from __future__ import annotations

import math

import numpy as np

CELLS_PER_PRIMITIVE = 1.0
"""Grid cells per primitive (the grid's resolution)."""
MAX_CELLS = 1 << 20
"""The most cells a grid has (a few MB of tables)."""
MAX_LISTINGS = 8.0
"""A grid whose primitives are listed in more cells than this many per primitive (large
primitives spanning much of the scene) would test them again in every cell: not worth it."""
MAX_PER_CELL = 64
"""Nor is a grid with a cell listing more primitives than this (objects crowded in a small part of
a large scene): every ray through that cell would test them all."""
FAR = 1 - 1e-9
"""Entry distances are scaled by this to stay lower bounds despite rounding."""


def _span(a: float, b: float) -> float:
    return b - a if b > a else 1.0


class Grid:
    """Cells of the boxes' union and, per cell, the primitives whose box overlaps it."""

    def __init__(self, low: np.ndarray, high: np.ndarray, pad: float) -> None:
        """``low``, ``high``: finite boxes of the primitives (n × 2); ``pad`` widens each."""
        n = len(low)
        low, high = low - pad, high + pad
        self.origin = low.min(axis=0) if n else np.zeros(2)
        top = high.max(axis=0) if n else np.ones(2)
        width, height = _span(self.origin[0], top[0]), _span(self.origin[1], top[1])
        side = math.sqrt(width * height / max(1.0, CELLS_PER_PRIMITIVE * n))
        nx = int(min(max(1, round(width / side)), 4096))
        ny = int(min(max(1, round(height / side)), 4096))
        while nx * ny > MAX_CELLS:
            nx, ny = max(1, nx // 2), max(1, ny // 2)
        self.shape = (nx, ny)
        self.cell = np.array([width / nx, height / ny])
        self.top = self.origin + self.cell * np.array([nx, ny])
        lo_cell = self._cells(low)
        hi_cell = self._cells(high)
        wide = hi_cell[:, 0] - lo_cell[:, 0] + 1
        per = wide * (hi_cell[:, 1] - lo_cell[:, 1] + 1)
        self.listings = int(per.sum())
        self.start = np.zeros(nx * ny + 1, dtype=np.int64)
        self.items = np.zeros(0, dtype=np.int64)
        self.worth = self.listings <= MAX_LISTINGS * max(n, 1)
        if not self.worth:
            return
        prim = np.repeat(np.arange(n, dtype=np.int64), per)
        local = np.arange(self.listings, dtype=np.int64) - np.repeat(np.cumsum(per) - per, per)
        cx = lo_cell[prim, 0] + local % wide[prim]
        cy = lo_cell[prim, 1] + local // wide[prim]
        cell = cy * nx + cx
        counts = np.bincount(cell, minlength=nx * ny)
        self.worth = bool(counts.max(initial=0) <= MAX_PER_CELL)
        if not self.worth:
            return
        self.items = prim[np.argsort(cell, kind="stable")]
        self.start[1:] = np.cumsum(counts)

    def _cells(self, points: np.ndarray) -> np.ndarray:
        """The cell (column, row) holding each point, clipped to the grid."""
        with np.errstate(invalid="ignore"):
            index = np.floor((points - self.origin) / self.cell)
        limit = np.array(self.shape) - 1
        return np.clip(np.nan_to_num(index, nan=0.0), 0, limit).astype(np.int64)

    def walk(self, xy: np.ndarray) -> Walk:
        return Walk(self, xy)

    def line(self, xy: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(ray, primitive) pairs of every cell each ray's half-line passes through."""
        cells = sum(self.shape)  # no ray passes through more
        walk = self.walk(xy)
        return walk.step(cells, np.full(len(xy), np.inf))


class Walk:
    """Rays (rows x1, y1, x2, y2) stepping through the grid's cells together, each from the cell
    where its half-line starts or enters the grid."""

    def __init__(self, grid: Grid, xy: np.ndarray) -> None:
        self.grid = grid
        x1, y1 = xy[:, 0], xy[:, 1]
        dx, dy = xy[:, 2] - x1, xy[:, 3] - y1
        with np.errstate(all="ignore"):
            length = np.sqrt(dx * dx + dy * dy)
            bx = np.where(dx == 0, 1e-300, dx)
            by = np.where(dy == 0, 1e-300, dy)
            tx1, tx2 = (grid.origin[0] - x1) / bx, (grid.top[0] - x1) / bx
            ty1, ty2 = (grid.origin[1] - y1) / by, (grid.top[1] - y1) / by
            enter = np.maximum(np.minimum(tx1, tx2), np.minimum(ty1, ty2))
            leave = np.minimum(np.maximum(tx1, tx2), np.maximum(ty1, ty2))
            t0 = np.maximum(enter, 0.0)
            met = (enter <= leave) & (leave >= 0) & np.isfinite(t0) & (length > 0) & np.isfinite(length)
        keep = np.flatnonzero(met)
        self.ray = keep
        self.x1, self.y1, self.dx, self.dy = x1[keep], y1[keep], dx[keep], dy[keep]
        self.length = length[keep]
        t0 = t0[keep]
        start = grid._cells(np.stack([self.x1 + t0 * self.dx, self.y1 + t0 * self.dy], axis=1))
        self.ix, self.iy = start[:, 0], start[:, 1]
        self.sx = np.sign(self.dx).astype(np.int64)
        self.sy = np.sign(self.dy).astype(np.int64)
        self.entry = np.zeros(len(keep))  # ray parameter where the current cell begins

    @property
    def active(self) -> bool:
        return len(self.ray) > 0

    def step(self, k: int, reach: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The (ray, primitive) pairs of each ray's next ``k`` cells that begin within ``reach``
        (per ray of the chunk, a distance from its start); rays then past reach or out of the grid
        are done."""
        grid = self.grid
        nx, ny = grid.shape
        steps = np.arange(k)
        with np.errstate(all="ignore"):
            bound_x = self.ix[:, None] + (self.sx[:, None] > 0) + self.sx[:, None] * steps
            bound_y = self.iy[:, None] + (self.sy[:, None] > 0) + self.sy[:, None] * steps
            tx = (grid.origin[0] + bound_x * grid.cell[0] - self.x1[:, None]) / self.dx[:, None]
            ty = (grid.origin[1] + bound_y * grid.cell[1] - self.y1[:, None]) / self.dy[:, None]
            tx[self.sx == 0] = np.inf
            ty[self.sy == 0] = np.inf
        events = np.concatenate([tx, ty], axis=1)
        order = np.argsort(events, axis=1, kind="stable")[:, :k]
        when = np.take_along_axis(events, order, axis=1)
        across = (order < k).astype(np.int64)
        moved_x = np.cumsum(across, axis=1)
        moved_y = np.arange(1, k + 1) - moved_x
        cx = self.ix[:, None] + self.sx[:, None] * (moved_x - across)
        cy = self.iy[:, None] + self.sy[:, None] * (moved_y - 1 + across)
        begin = np.concatenate([self.entry[:, None], when[:, :-1]], axis=1)
        limit = reach[self.ray] / (self.length * FAR)
        inside = (cx >= 0) & (cx < nx) & (cy >= 0) & (cy < ny)
        with np.errstate(invalid="ignore"):
            live = inside & (begin <= limit[:, None]) & np.isfinite(begin)
        live = np.cumprod(live, axis=1).astype(bool)
        r, j = np.nonzero(live)
        cell = cy[r, j] * nx + cx[r, j]
        first, count = grid.start[cell], grid.start[cell + 1] - grid.start[cell]
        offsets = np.arange(count.sum()) - np.repeat(np.cumsum(count) - count, count)
        prim = grid.items[np.repeat(first, count) + offsets]
        ray = np.repeat(self.ray[r], count)
        # rays whose k cells were all live go on from the next one
        go = live[:, -1]
        self.ix = self.ix[go] + self.sx[go] * moved_x[go, -1]
        self.iy = self.iy[go] + self.sy[go] * moved_y[go, -1]
        self.entry = when[go, -1]
        for name in ("ray", "x1", "y1", "dx", "dy", "length", "sx", "sy"):
            setattr(self, name, getattr(self, name)[go])
        return ray, prim
