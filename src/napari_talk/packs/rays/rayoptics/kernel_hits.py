# SPDX-License-Identifier: Apache-2.0
# SPDX-FileCopyrightText: 2024 The Ray Optics Simulation authors and contributors
# SPDX-FileCopyrightText: 2026 napari-talk contributors
#
# Translated from ray-optics (https://github.com/ricktu288/ray-optics, by Yi-Ting Tu and contributors):
# src/core/geometry.js, src/core/sceneObjs/glass/Glass.js, src/core/sceneObjs/glass/CircleGlass.js.
# Licensed under the Apache License, Version 2.0 (see LICENSES/Apache-2.0.txt); modified: translated to
# Python and changed for napari-talk (2026).
"""Compiled (numba) nearest-hit search of the vector stage: per ray, the exact hit of every
primitive it can meet (glass sides and arcs, circle glasses, bare segments), by the arithmetic of
the objects' own ``intersect`` (:func:`~.base.line_crossings`, :func:`~.base.circle_hit`,
``Edge.nearest_on_arc``), with IEEE semantics (no fast-math: no reordering, no fused
multiply-add) so every point is the one ray-by-ray tracing computes.

Primitives are found through the grid (:mod:`.grid`) when the stage has one, else through the
boxes of 16 primitives, nearest box first; a ray stops looking once the next cell or box begins
beyond its nearest hit by more than ``reach``. Per ray the answer is the object met first (the
nearest hit, then the first object, then its first primitive among equals), where, and the
squared distances of that hit and of the nearest hit of any other object.
"""

from __future__ import annotations

import math

import numpy as np

from .compiled import inlined, kernel
from .layout import ARC, SEGMENT, STRAIGHT

FAR = 1 - 1e-9
"""Entry distances are scaled by this to stay lower bounds despite rounding."""


@kernel
def segment_hit(
    x1: float, y1: float, x2: float, y2: float, ax: float, ay: float, bx: float, by: float
) -> tuple[bool, float, float]:
    """:func:`~.base.line_crossings` for one ray and one segment: met ahead, and where."""
    big_a = x2 * y1 - x1 * y2
    big_b = bx * ay - ax * by
    xa, ya = x2 - x1, y2 - y1
    xb, yb = bx - ax, by - ay
    den = xa * yb - xb * ya
    px = (big_a * xb - big_b * xa) / den
    py = (big_a * yb - big_b * ya) / den
    on_seg = ((px - ax) * xb + (py - ay) * yb >= 0) and ((px - bx) * (-xb) + (py - by) * (-yb) >= 0)
    ahead = (px - x1) * xa + (py - y1) * ya >= 0
    return on_seg and ahead, px, py


@kernel
def circle_points(
    x1: float, y1: float, x2: float, y2: float, cx: float, cy: float, r_sq: float
) -> tuple[float, float, float, float]:
    """:func:`~.base.line_circle_intersections`: both crossings (x, y, x, y), NaN if none."""
    xa, ya = x2 - x1, y2 - y1
    length = math.sqrt(xa * xa + ya * ya)
    ux, uy = xa / length, ya / length
    cu = (cx - x1) * ux + (cy - y1) * uy
    px, py = x1 + cu * ux, y1 + cu * uy
    under = r_sq - (px - cx) * (px - cx) - (py - cy) * (py - cy)
    d = math.sqrt(under) if under >= 0 else math.nan
    return px + ux * d, py + uy * d, px - ux * d, py - uy * d


@kernel
def arc_exists(
    x1: float,
    y1: float,
    x2: float,
    y2: float,
    qx: float,
    qy: float,
    arc: tuple[float, float, float, float, float, float],
    min_sq: float,
) -> tuple[bool, bool, float]:
    """For a crossing q of the arc ``arc`` (its ends a, b and middle): on the ray, on the arc
    beyond the minimum segment, and its squared distance from the ray's start."""
    on = (qx - x1) * (x2 - x1) + (qy - y1) * (y2 - y1) >= 0
    ax, ay, bx, by, mx, my = arc
    big_a = bx * ay - ax * by
    big_b = qx * my - mx * qy
    xa, xb, ya, yb = bx - ax, qx - mx, by - ay, qy - my
    den = xa * yb - xb * ya
    cx = (big_a * xb - big_b * xa) / den
    cy = (big_a * yb - big_b * ya) / den
    cut_on = ((cx - mx) * (qx - mx) + (cy - my) * (qy - my) >= 0) and (
        (cx - qx) * (mx - qx) + (cy - qy) * (my - qy) >= 0
    )
    lens = (x1 - qx) * (x1 - qx) + (y1 - qy) * (y1 - qy)
    return on, on and not cut_on and lens > min_sq, lens


@inlined
def exact_hit(
    x1: float, y1: float, x2: float, y2: float, e: np.ndarray, p: int, kind: int, min_sq: float
) -> tuple[float, float, float]:
    """The hit of primitive ``e[p]``: squared distance (inf: none) and point."""
    if kind in (STRAIGHT, SEGMENT):
        crossed, px, py = segment_hit(x1, y1, x2, y2, e[p, 0], e[p, 1], e[p, 2], e[p, 3])
        ds = (x1 - px) * (x1 - px) + (y1 - py) * (y1 - py)
        if crossed and ds > min_sq:
            return ds, px, py
        return math.inf, px, py
    q0x, q0y, q1x, q1y = circle_points(x1, y1, x2, y2, e[p, 6], e[p, 7], e[p, 8])
    if kind == ARC:
        arc = (e[p, 0], e[p, 1], e[p, 2], e[p, 3], e[p, 4], e[p, 5])
        _, e0, l0 = arc_exists(x1, y1, x2, y2, q0x, q0y, arc, min_sq)
        _, e1, l1 = arc_exists(x1, y1, x2, y2, q1x, q1y, arc, min_sq)
        if e0 and (not e1 or l0 < l1) and l0 > min_sq:
            return l0, q0x, q0y
        if e1 and (not e0 or l1 < l0) and l1 > min_sq:
            return l1, q1x, q1y
        return math.inf, q1x, q1y
    l0 = (q0x - x1) * (q0x - x1) + (q0y - y1) * (q0y - y1)
    l1 = (q1x - x1) * (q1x - x1) + (q1y - y1) * (q1y - y1)
    e0 = ((q0x - x1) * (x2 - x1) + (q0y - y1) * (y2 - y1) >= 0) and l0 > min_sq
    e1 = ((q1x - x1) * (x2 - x1) + (q1y - y1) * (y2 - y1) >= 0) and l1 > min_sq
    if e0 and (not e1 or l0 < l1):
        return l0, q0x, q0y
    if e1 and (not e0 or l1 < l0):
        return l1, q1x, q1y
    return math.inf, q1x, q1y


@inlined
def _consider(
    x1: float,
    y1: float,
    x2: float,
    y2: float,
    p: int,
    table: np.ndarray,
    kind: np.ndarray,
    owner: np.ndarray,
    order: np.ndarray,
    min_sq: float,
    best: np.ndarray,
) -> None:
    """Test primitive ``p``; ``best`` holds (first, owner, order, x, y, second) and is updated:
    the first hit is the least (distance, owner, order), the second the nearest of another owner."""
    d, px, py = exact_hit(x1, y1, x2, y2, table, p, kind[p], min_sq)
    if not d < math.inf:
        return
    o, k = owner[p], order[p]
    d1, o1, k1 = best[0], best[1], best[2]
    if d < d1 or (d == d1 and (o < o1 or (o == o1 and k < k1))):
        if o != o1:
            best[5] = d1
        best[0], best[1], best[2], best[3], best[4] = d, o, k, px, py
    elif o != o1 and d < best[5]:
        best[5] = d


@kernel
def nearest(
    xy: np.ndarray,
    table: np.ndarray,
    kind: np.ndarray,
    owner: np.ndarray,
    order: np.ndarray,
    boxes: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray],
    grid: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray],
    use_grid: bool,
    min_sq: float,
    reach: float,
    clear: float,
    start_gap: float,
    bound: np.ndarray,
    found: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray],
) -> None:
    """Per ray (rows starting x1, y1, x2, y2): into ``found``, the object met (-1: none), where
    (x, y), and whether that is settled: the nearest hit is clear of the ray's start, of every
    other object's hit and of ``bound`` (per ray, a lower bound on the distance to objects
    searched elsewhere) by a few minimum segments, so no merging rule of the simulator applies.
    ``boxes``: group boxes' low and high corners (padded), each group's first primitive and
    size; ``grid``: origin, far corner and shape (as floats), cell size, the grid's cell starts
    and items."""
    box_low, box_high, group_start, group_size = boxes
    obj, hx, hy, settled = found
    n_groups = len(group_start)
    entry = np.empty(n_groups)
    rank = np.empty(n_groups, dtype=np.int64)
    best = np.empty(6)
    for r in range(len(xy)):
        x1, y1, x2, y2 = xy[r, 0], xy[r, 1], xy[r, 2], xy[r, 3]
        best[0], best[1], best[2], best[3], best[4], best[5] = (
            math.inf,
            -1.0,
            -1.0,
            math.nan,
            math.nan,
            math.inf,
        )
        if use_grid:
            _walk(x1, y1, x2, y2, table, kind, owner, order, grid, min_sq, reach, best)
        elif n_groups:
            dx, dy = x2 - x1, y2 - y1
            if dx == 0:
                dx = 1e-300
            if dy == 0:
                dy = 1e-300
            length = math.sqrt(dx * dx + dy * dy)
            met = 0
            for g in range(n_groups):
                t = _box_entry(x1, y1, dx, dy, box_low[g, 0], box_low[g, 1], box_high[g, 0], box_high[g, 1])
                if t == t:
                    # boxes met, nearest entry first (by insertion: a ray meets few)
                    at = met
                    here = max(t, 0.0) * length * FAR
                    while at > 0 and entry[at - 1] > here:
                        entry[at], rank[at] = entry[at - 1], rank[at - 1]
                        at -= 1
                    entry[at], rank[at] = here, g
                    met += 1
            for s in range(met):
                if entry[s] > math.sqrt(best[0]) + reach:
                    break
                g = rank[s]
                for p in range(group_start[g], group_start[g] + group_size[g]):
                    _consider(x1, y1, x2, y2, p, table, kind, owner, order, min_sq, best)
        obj[r], hx[r], hy[r] = int(best[1]), best[3], best[4]
        first, limit = best[0], bound[r]
        if first == math.inf:
            settled[r] = limit == math.inf
        else:
            near = math.sqrt(first)
            settled[r] = math.sqrt(best[5]) > near + clear and limit > near + start_gap and near > start_gap


@inlined
def _box_entry(
    x1: float, y1: float, dx: float, dy: float, low_x: float, low_y: float, high_x: float, high_y: float
) -> float:
    """The ray parameter where the half-line enters the box, NaN if it does not."""
    t1, t2 = (low_x - x1) / dx, (high_x - x1) / dx
    u1, u2 = (low_y - y1) / dy, (high_y - y1) / dy
    enter = max(min(t1, t2), min(u1, u2))
    leave = min(max(t1, t2), max(u1, u2))
    if enter <= leave and leave >= 0 and enter < math.inf:
        return enter
    if not (t1 == t1 and t2 == t2 and u1 == u1 and u2 == u2):
        return 0.0  # NaN arithmetic: no bound, the box is searched
    return math.nan


@kernel
def _walk(
    x1: float,
    y1: float,
    x2: float,
    y2: float,
    table: np.ndarray,
    kind: np.ndarray,
    owner: np.ndarray,
    order: np.ndarray,
    grid: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray],
    min_sq: float,
    reach: float,
    best: np.ndarray,
) -> None:
    """The ray's cells in order from where its half-line starts or enters the grid; it stops at
    the first cell beginning beyond its nearest hit by more than ``reach``, or out of the grid."""
    frame, cell_size, start, items = grid
    ox, oy, top_x, top_y, nx, ny = frame[0], frame[1], frame[2], frame[3], int(frame[4]), int(frame[5])
    cw, ch = cell_size[0], cell_size[1]
    dx, dy = x2 - x1, y2 - y1
    length = math.sqrt(dx * dx + dy * dy)
    if not (length > 0 and length < math.inf):
        return
    bx = dx if dx != 0 else 1e-300
    by = dy if dy != 0 else 1e-300
    tx1, tx2 = (ox - x1) / bx, (top_x - x1) / bx
    ty1, ty2 = (oy - y1) / by, (top_y - y1) / by
    enter = max(min(tx1, tx2), min(ty1, ty2))
    leave = min(max(tx1, tx2), max(ty1, ty2))
    t0 = max(enter, 0.0)
    if not (enter <= leave and leave >= 0 and t0 < math.inf):
        return
    ix = _cell(x1 + t0 * dx, ox, cw, nx)
    iy = _cell(y1 + t0 * dy, oy, ch, ny)
    sx = 1 if dx > 0 else (-1 if dx < 0 else 0)
    sy = 1 if dy > 0 else (-1 if dy < 0 else 0)
    next_x = (ox + (ix + (1 if sx > 0 else 0)) * cw - x1) / dx if sx != 0 else math.inf
    next_y = (oy + (iy + (1 if sy > 0 else 0)) * ch - y1) / dy if sy != 0 else math.inf
    begin = 0.0
    while True:
        if begin * length * FAR > math.sqrt(best[0]) + reach:
            return
        c = iy * nx + ix
        for j in range(start[c], start[c + 1]):
            _consider(x1, y1, x2, y2, items[j], table, kind, owner, order, min_sq, best)
        if next_x <= next_y:
            begin = next_x
            ix += sx
            next_x = (ox + (ix + (1 if sx > 0 else 0)) * cw - x1) / dx
        else:
            begin = next_y
            iy += sy
            next_y = (oy + (iy + (1 if sy > 0 else 0)) * ch - y1) / dy
        if ix < 0 or ix >= nx or iy < 0 or iy >= ny or not begin < math.inf:
            return


@inlined
def _cell(v: float, origin: float, size: float, n: int) -> int:
    """The cell index holding coordinate ``v``, clipped to the grid (NaN: 0)."""
    f = (v - origin) / size
    if f != f or f < 0:
        return 0
    if f >= n:
        return n - 1
    return math.floor(f)
