"""The common cases of a simulation pass, for a chunk of rays at once (numpy), by the same
arithmetic as the objects' own methods so the outcome is the one ray-by-ray tracing gives.

Nearest hit: the exact hit of every glass edge, circle glass, blocker, mirror and two-sided
detector a ray's line meets (after a box prefilter). A ray whose nearest hit is unambiguous —
no other hit within a few minimum segments of it, not by its start, and every other object's
lower bound beyond it — needs none of the simulator's merging rules; the others are resolved ray
by ray. Physics: refraction with Fresnel partial reflection at outline glasses (``Glass``,
``SphericalLens``) and circle glasses, including the inside/outside test with its two random
draws per ray; every other kind, and every ambiguous case, is handed back to be done ray by ray.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from itertools import repeat
from typing import Any

import numpy as np

from .base import Ray, SceneObj, Settings, line_crossings
from .glasses import CircleGlass, OutlineGlass, classify_with
from .grid import Grid
from .nearest import GROUP_SIZE, NearestIndex, morton
from .surfaces import Blocker, Detector, Mirror

X1, Y1, X2, Y2, BS, BP, WL, DEPTH, GAP, AMP, PARENT, SOURCE, NEW = range(13)
COLUMNS = 13
STRAIGHT, ARC, CIRCLE, SEGMENT = range(4)
"""Primitive kinds: a glass side (hit beyond the minimum segment), a glass arc, a full circle
(``circle_hit``), a bare segment (``segment_hit``)."""
PAIRS_PER_STEP = 1 << 16
CLEAR_SEGMENTS = 4.0
"""Hits this many minimum segments apart cannot be merged or coincident."""
START_SEGMENTS = 8.0
"""A nearest hit this close to the ray's start is left to the ray-by-ray search."""
GRID_PRIMITIVES = 64
"""Scenes with at least this many primitives are searched through a grid (:mod:`.grid`)."""
GRID_CELLS = (2, 32)
"""Cells a ray walks in the first round of a grid search, and at most in any round."""


class _Absent(SceneObj):
    """Stands in for an object another index covers."""

    def __init__(self) -> None:
        self.settings, self.name, self.props = Settings(), "", {}


def _exact_kind(obj: SceneObj, settings: Settings) -> str | None:
    cls = type(obj)
    if isinstance(obj, OutlineGlass) and cls.intersect is OutlineGlass.intersect:
        return None if obj.props.get("notDone") else "outline"
    if isinstance(obj, CircleGlass) and cls.intersect is CircleGlass.intersect:
        return "circle"
    filtered = settings.simulate_colors and obj.props.get("filter") and obj.props.get("wavelength")
    if cls in (Blocker, Mirror) and not filtered:
        return "segment"
    if cls is Detector and obj.props.get("twoSided"):
        return "segment"
    return None


def _vector_physics(obj: SceneObj) -> bool:
    """The object refracts by the methods :meth:`VectorStage.refract` reproduces."""
    cls: Any = type(obj)
    for base in (OutlineGlass, CircleGlass):
        if isinstance(obj, base):
            return all(
                getattr(cls, name) is getattr(base, name) for name in ("incident", "refract", "ref_index_at")
            )
    return False


def circle_points(
    x1: Any, y1: Any, x2: Any, y2: Any, cx: Any, cy: Any, r_sq: Any
) -> tuple[Any, Any, Any, Any]:
    """:func:`~.base.line_circle_intersections` on arrays: both crossings (x, y, x, y)."""
    xa, ya = x2 - x1, y2 - y1
    length = np.sqrt(xa * xa + ya * ya)
    ux, uy = xa / length, ya / length
    cu = (cx - x1) * ux + (cy - y1) * uy
    px, py = x1 + cu * ux, y1 + cu * uy
    d = np.sqrt(r_sq - (px - cx) * (px - cx) - (py - cy) * (py - cy))
    return px + ux * d, py + uy * d, px - ux * d, py - uy * d


def _arc_exists(
    x1: Any, y1: Any, x2: Any, y2: Any, qx: Any, qy: Any, e: np.ndarray, min_sq: float
) -> tuple[Any, Any, Any]:
    """For crossings q of edges e: on the ray, on the arc beyond the minimum, squared length."""
    on = (qx - x1) * (x2 - x1) + (qy - y1) * (y2 - y1) >= 0
    ax, ay, bx, by, mx, my = e[:, 0], e[:, 1], e[:, 2], e[:, 3], e[:, 4], e[:, 5]
    big_a = bx * ay - ax * by
    big_b = qx * my - mx * qy
    xa, xb, ya, yb = bx - ax, qx - mx, by - ay, qy - my
    den = xa * yb - xb * ya
    cx = (big_a * xb - big_b * xa) / den
    cy = (big_a * yb - big_b * ya) / den
    cut_on = ((cx - mx) * (qx - mx) + (cy - my) * (qy - my) >= 0) & (
        (cx - qx) * (mx - qx) + (cy - qy) * (my - qy) >= 0
    )
    lens = (x1 - qx) * (x1 - qx) + (y1 - qy) * (y1 - qy)
    return on, on & ~cut_on & (lens > min_sq), lens


def _pick_arc(
    q: tuple[Any, Any, Any, Any], e0: Any, e1: Any, l0: Any, l1: Any, min_sq: float
) -> tuple[Any, Any, Any, Any, Any]:
    """``Edge.nearest_on_arc``'s choice: which crossing (0/1), whether any, its point and length."""
    first = e0 & (~e1 | (l0 < l1)) & (l0 > min_sq)
    second = ~first & e1 & (~e0 | (l1 < l0)) & (l1 > min_sq)
    hx = np.where(first, q[0], q[2])
    hy = np.where(first, q[1], q[3])
    return first, first | second, hx, hy, np.where(first, l0, l1)


SUPER_SIZE = 16
"""Groups per box of the first level of the box test."""


def _enter(
    p1: np.ndarray,
    d: np.ndarray,
    ray: np.ndarray,
    low: np.ndarray,
    high: np.ndarray,
    *,
    dense: bool = False,
    group: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Boxes the rays' half-lines enter: every ray against every box (``dense``), or ray ``ray[k]``
    against box k (``group[k]`` naming it). Returns rays, boxes and the ray parameter of entry."""
    with np.errstate(all="ignore"):
        if dense:
            a, b = p1[:, None, :], d[:, None, :]
            t1, t2 = (low[None] - a) / b, (high[None] - a) / b
        else:
            a, b = p1[ray], d[ray]
            t1, t2 = (low - a) / b, (high - a) / b
        enter = np.minimum(t1, t2).max(axis=-1)
        leave = np.maximum(t1, t2).min(axis=-1)
    met = (enter <= leave) & (leave >= 0) & (enter < np.inf)
    if dense:
        r, box = np.nonzero(met)
        return r, box, enter[r, box]
    keep = np.flatnonzero(met)
    assert group is not None
    return ray[keep], group[keep], enter[keep]


def _pow2(values: np.ndarray) -> np.ndarray:
    """``x ** 2`` as Python computes it (the C library's ``pow``, which can differ from ``x * x``
    in the last bit)."""
    flat = values.ravel().tolist()
    squares = np.fromiter(map(math.pow, flat, repeat(2.0)), dtype=float, count=len(flat))
    return squares.reshape(values.shape)


@dataclass
class _Found:
    """The nearest search's answers per ray of a chunk, filled in place: the object met first
    (-1: none), where, and the squared distances of the first and the second object met."""

    obj: np.ndarray
    hx: np.ndarray
    hy: np.ndarray
    first: np.ndarray
    second: np.ndarray


class VectorStage:
    """Tables of the objects a chunk of rays is traced through at once."""

    def __init__(self, objs: list[SceneObj], settings: Settings, min_len: float) -> None:
        self.objs, self.settings, self.min_len = objs, settings, min_len
        self.min_sq = settings.min_len_sq
        rows: list[list[float]] = []
        kinds: list[int] = []
        owner: list[int] = []
        order: list[int] = []
        other: list[SceneObj] = []
        self.physics = np.zeros(len(objs), dtype=bool)
        self.outline = np.zeros(len(objs), dtype=bool)
        self.circle = np.zeros(len(objs), dtype=bool)
        self.index = np.zeros(len(objs))
        self.cauchy = np.zeros(len(objs))
        self.partial = np.zeros(len(objs), dtype=bool)
        self.centre = np.zeros((len(objs), 3))
        edge_rows: list[list[float]] = []
        edge_arc: list[bool] = []
        self.edge_start = np.zeros(len(objs), dtype=np.int64)
        self.edge_count = np.zeros(len(objs), dtype=np.int64)
        self.edges: dict[int, list[Any]] = {}
        nan = math.nan
        for i, obj in enumerate(objs):
            kind = _exact_kind(obj, settings)
            if kind is None:
                other.append(obj)
                continue
            other.append(_Absent())
            if kind == "outline":
                self.edges[i] = obj.edges
                self.edge_start[i], self.edge_count[i] = len(edge_rows), len(obj.edges)
                for k, edge in enumerate(obj.edges):
                    (ax, ay), (bx, by) = edge.a, edge.b
                    if edge.center is None:
                        row = [ax, ay, bx, by, nan, nan, nan, nan, nan]
                        kinds.append(STRAIGHT)
                    else:
                        (mx, my), (cx, cy) = edge.mid, edge.center
                        row = [ax, ay, bx, by, mx, my, cx, cy, edge.r_sq]
                        kinds.append(ARC)
                    rows.append(row)
                    edge_rows.append(row)
                    edge_arc.append(edge.center is not None)
                    owner.append(i)
                    order.append(k)
                self.outline[i] = True
            elif kind == "circle":
                (cx, cy), (px, py) = obj.p1, obj.p2
                r_sq = (cx - px) * (cx - px) + (cy - py) * (cy - py)
                rows.append([nan] * 6 + [cx, cy, r_sq])
                kinds.append(CIRCLE)
                owner.append(i)
                order.append(0)
                self.circle[i] = True
                self.centre[i] = (cx, cy, r_sq)
            else:
                (ax, ay), (bx, by) = obj.p1, obj.p2
                rows.append([ax, ay, bx, by] + [nan] * 5)
                kinds.append(SEGMENT)
                owner.append(i)
                order.append(0)
            if _vector_physics(obj):
                self.physics[i] = True
                self.index[i] = obj.refIndex
                self.cauchy[i] = obj.cauchyB
                self.partial[i] = bool(obj.partialReflect)
        self.edge_table = np.array(edge_rows, dtype=float).reshape(-1, 9)
        self.edge_arc = np.array(edge_arc, dtype=bool)
        table = np.array(rows, dtype=float).reshape(-1, 9)
        kind_arr = np.array(kinds, dtype=np.int64)
        round_ = (kind_arr == ARC) | (kind_arr == CIRCLE)
        radius = np.sqrt(np.abs(table[:, 8]))
        low = np.where(
            round_[:, None], table[:, 6:8] - radius[:, None], np.minimum(table[:, 0:2], table[:, 2:4])
        )
        high = np.where(
            round_[:, None], table[:, 6:8] + radius[:, None], np.maximum(table[:, 0:2], table[:, 2:4])
        )
        finite = np.abs(np.r_[low.ravel(), high.ravel(), 1.0])
        extent = float(finite[np.isfinite(finite)].max())
        perm = np.argsort(morton((low + high) / 2, extent), kind="stable")
        self.table, self.kind = table[perm], kind_arr[perm]
        self.owner = np.array(owner, dtype=np.int64)[perm]
        self.order = np.array(order, dtype=np.int64)[perm]
        low, high = low[perm], high[perm]
        self.group_start = np.arange(0, len(perm), GROUP_SIZE, dtype=np.int64)
        self.group_size = np.minimum(GROUP_SIZE, len(perm) - self.group_start)
        pad = 1e-7 * extent + min_len
        self.box_low, self.box_high = low[:0], high[:0]
        if len(perm):
            with np.errstate(invalid="ignore"):
                self.box_low = np.minimum.reduceat(low, self.group_start, axis=0) - pad
                self.box_high = np.maximum.reduceat(high, self.group_start, axis=0) + pad
            whole = ~(np.isfinite(self.box_low).all(axis=1) & np.isfinite(self.box_high).all(axis=1))
            self.box_low[whole], self.box_high[whole] = -np.inf, np.inf
        self.super_low, self.super_high = self.box_low[:0], self.box_high[:0]
        self.super_size = np.zeros(0, dtype=np.int64)
        if len(self.group_start) > 2 * SUPER_SIZE:
            starts = np.arange(0, len(self.group_start), SUPER_SIZE)
            self.super_low = np.minimum.reduceat(self.box_low, starts, axis=0)
            self.super_high = np.maximum.reduceat(self.box_high, starts, axis=0)
            self.super_size = np.minimum(SUPER_SIZE, len(self.group_start) - starts)
        self.grid: Grid | None = None
        if len(perm) >= GRID_PRIMITIVES and np.isfinite(low).all() and np.isfinite(high).all():
            grid = Grid(low, high, pad)
            self.grid = grid if grid.worth else None
        self.other = NearestIndex(other, min_len, exhaustive=False)
        self.other_always = bool(self.other.always)
        self.extent = extent
        self.reach = CLEAR_SEGMENTS * min_len + 1e-9 * extent
        """Hits this much farther than a ray's nearest cannot change its outcome (rounding aside)."""

    # -- nearest hit ---------------------------------------------------------------------------

    def nearest(self, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Per ray: the object it meets first (-1: none), where, and whether that is settled here."""
        m = len(rows)
        obj = np.full(m, -1, dtype=np.int64)
        hx = np.full(m, np.nan)
        hy = np.full(m, np.nan)
        clean = np.zeros(m, dtype=bool)
        if self.other_always or not m:
            return obj, hx, hy, clean
        xy = rows[:, X1 : Y2 + 1]
        found = _Found(obj, hx, hy, np.full(m, np.inf), np.full(m, np.inf))
        if self.grid is not None:
            self._grid_step(xy, found)
        elif len(self.group_start):
            step = max(1, PAIRS_PER_STEP // (len(self.super_low) or len(self.group_start)))
            for lo in range(0, m, step):
                self._nearest_step(xy[lo : lo + step], lo, found)
        first, second = found.first, found.second
        bound = self.other.min_bound(xy)
        ml = self.min_len
        with np.errstate(invalid="ignore"):
            near = np.sqrt(first)
            clean = np.where(
                np.isinf(first),
                np.isinf(bound),
                (np.sqrt(second) > near + CLEAR_SEGMENTS * ml)
                & (bound > near + START_SEGMENTS * ml)
                & (near > START_SEGMENTS * ml),
            )
        return obj, hx, hy, clean

    def _nearest_step(self, xy: np.ndarray, lo: int, out: _Found) -> None:
        ray_g, group, entry = self._group_pairs(xy)
        if not len(ray_g):
            return
        sort = np.lexsort((entry, ray_g))
        ray_g, group, entry = ray_g[sort], group[sort], entry[sort]
        starts = np.flatnonzero(np.r_[True, ray_g[1:] != ray_g[:-1]])
        count = np.diff(np.r_[starts, len(ray_g)])
        first_of = np.zeros(len(xy), dtype=np.int64)
        first_of[ray_g[starts]] = starts
        n_of = np.zeros(len(xy), dtype=np.int64)
        n_of[ray_g[starts]] = count
        rank = np.arange(len(ray_g)) - first_of[ray_g]
        near = np.full(len(xy), np.inf)
        active = np.ones(len(xy), dtype=bool)
        reach = self.reach
        found: list[tuple[np.ndarray, ...]] = []
        lo_rank, hi_rank = 0, 1
        while True:
            pick = np.flatnonzero((rank >= lo_rank) & (rank < hi_rank) & active[ray_g])
            if len(pick):
                sizes = self.group_size[group[pick]]
                ray = np.repeat(ray_g[pick], sizes)
                offsets = np.arange(sizes.sum()) - np.repeat(np.cumsum(sizes) - sizes, sizes)
                prim = np.repeat(self.group_start[group[pick]], sizes) + offsets
                part = self._exact(xy, ray, prim)
                if part is not None:
                    found.append(part)
                    np.minimum.at(near, part[0], part[2])
            more = n_of > hi_rank
            upcoming = np.full(len(xy), np.inf)
            upcoming[more] = entry[first_of[more] + hi_rank]
            with np.errstate(invalid="ignore"):
                active = more & ~(upcoming > np.sqrt(near) + reach)
            if not active.any():
                break
            lo_rank, hi_rank = hi_rank, 2 * hi_rank
        self._settle(found, None, lo, out)

    def _grid_step(self, xy: np.ndarray, out: _Found) -> None:
        """:meth:`_nearest_step` through the grid: each ray's cells in order, until the next one
        begins beyond its nearest hit by more than the clear distance."""
        assert self.grid is not None
        walk = self.grid.walk(xy)
        near = np.full(len(xy), np.inf)
        reach = self.reach
        found: list[tuple[np.ndarray, ...]] = []
        cells, most = GRID_CELLS
        while walk.active:
            ray, prim = walk.step(cells, np.sqrt(near) + reach)
            part = self._exact(xy, ray, prim) if len(ray) else None
            if part is not None:
                found.append(part)
                np.minimum.at(near, part[0], part[2])
            cells = min(2 * cells, most)
        self._settle(found, near, 0, out)

    def _settle(
        self, found: list[tuple[np.ndarray, ...]], near: np.ndarray | None, lo: int, out: _Found
    ) -> None:
        """From the exact hits found: per ray, the nearest object, where, and the next object's
        squared distance (rays ``lo`` on of the chunk). Given ``near`` (each ray's nearest,
        squared), hits beyond the clear distance from it are left out first: as a missing next
        object, they leave a ray clean as they would (worth it when rays meet many objects)."""
        if not found:
            return
        ray, prim, d, px, py = (np.concatenate(cols) for cols in zip(*found, strict=True))
        if near is not None:
            keep = np.flatnonzero(np.sqrt(d) <= np.sqrt(near[ray]) + self.reach)
            ray, prim, d, px, py = ray[keep], prim[keep], d[keep], px[keep], py[keep]
        owner = self.owner[prim]
        # each object's own hit: its nearest primitive, the first in its order among equals
        sort = np.lexsort((self.order[prim], d, owner, ray))
        ray, owner, d, px, py = ray[sort], owner[sort], d[sort], px[sort], py[sort]
        head = np.r_[True, (ray[1:] != ray[:-1]) | (owner[1:] != owner[:-1])]
        ray, owner, d, px, py = ray[head], owner[head], d[head], px[head], py[head]
        sort = np.lexsort((owner, d, ray))
        ray, owner, d, px, py = ray[sort], owner[sort], d[sort], px[sort], py[sort]
        start = np.r_[True, ray[1:] != ray[:-1]]
        top = np.flatnonzero(start)
        r = ray[top] + lo
        out.obj[r], out.hx[r], out.hy[r], out.first[r] = owner[top], px[top], py[top], d[top]
        runner = top + 1
        has = runner < len(ray)
        has[has] = ~start[runner[has]]
        out.second[r[has]] = d[runner[has]]

    def _group_pairs(self, xy: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(ray, group) pairs whose box the ray's half-line enters, and a lower bound on the
        distance where it does; groups are found through boxes of 16 groups when there are many."""
        p1 = xy[:, :2]
        d = xy[:, 2:] - p1
        d = np.where(d == 0, 1e-300, d)
        if len(self.super_low):
            ray, sup, _ = _enter(p1, d, np.arange(len(xy)), self.super_low, self.super_high, dense=True)
            size = self.super_size[sup]
            ray = np.repeat(ray, size)
            group = np.repeat(sup * SUPER_SIZE, size) + (
                np.arange(size.sum()) - np.repeat(np.cumsum(size) - size, size)
            )
            ray, group, enter = _enter(p1, d, ray, self.box_low[group], self.box_high[group], group=group)
        else:
            ray, group, enter = _enter(p1, d, np.arange(len(xy)), self.box_low, self.box_high, dense=True)
        length = np.sqrt(d[:, 0] * d[:, 0] + d[:, 1] * d[:, 1])
        entry = np.maximum(enter, 0.0) * length[ray] * (1 - 1e-9)
        return ray, group, entry

    def _exact(self, xy: np.ndarray, ray: np.ndarray, prim: np.ndarray) -> tuple[np.ndarray, ...] | None:
        """The exact hits of (ray, primitive) pairs: rays, primitives, squared lengths, points."""
        min_sq = self.min_sq
        q = self.table[prim]
        kind = self.kind[prim]
        x1, y1, x2, y2 = xy[ray, 0], xy[ray, 1], xy[ray, 2], xy[ray, 3]
        d = np.full(len(ray), np.inf)
        px = np.full(len(ray), np.nan)
        py = np.full(len(ray), np.nan)
        with np.errstate(all="ignore"):
            s = np.flatnonzero((kind == STRAIGHT) | (kind == SEGMENT))
            if len(s):
                crossed, sx, sy = line_crossings(
                    x1[s], y1[s], x2[s], y2[s], q[s, 0], q[s, 1], q[s, 2], q[s, 3]
                )
                ds = (x1[s] - sx) * (x1[s] - sx) + (y1[s] - sy) * (y1[s] - sy)
                ok = crossed & (ds > min_sq)  # a bare segment's nearer hit never decides
                d[s] = np.where(ok, ds, np.inf)
                px[s], py[s] = sx, sy
            a = np.flatnonzero(kind == ARC)
            if len(a):
                args = (x1[a], y1[a], x2[a], y2[a])
                pts = circle_points(*args, q[a, 6], q[a, 7], q[a, 8])
                _, e0, l0 = _arc_exists(*args, pts[0], pts[1], q[a], min_sq)
                _, e1, l1 = _arc_exists(*args, pts[2], pts[3], q[a], min_sq)
                _, found, ax_, ay_, la = _pick_arc(pts, e0, e1, l0, l1, min_sq)
                d[a] = np.where(found, la, np.inf)
                px[a], py[a] = ax_, ay_
            c = np.flatnonzero(kind == CIRCLE)
            if len(c):
                cx1, cy1, cx2, cy2 = x1[c], y1[c], x2[c], y2[c]
                pts = circle_points(cx1, cy1, cx2, cy2, q[c, 6], q[c, 7], q[c, 8])
                l0 = (pts[0] - cx1) * (pts[0] - cx1) + (pts[1] - cy1) * (pts[1] - cy1)
                l1 = (pts[2] - cx1) * (pts[2] - cx1) + (pts[3] - cy1) * (pts[3] - cy1)
                e0 = ((pts[0] - cx1) * (cx2 - cx1) + (pts[1] - cy1) * (cy2 - cy1) >= 0) & (l0 > min_sq)
                e1 = ((pts[2] - cx1) * (cx2 - cx1) + (pts[3] - cy1) * (cy2 - cy1) >= 0) & (l1 > min_sq)
                pick0 = e0 & (~e1 | (l0 < l1))
                pick1 = ~pick0 & e1 & (~e0 | (l1 < l0))
                d[c] = np.where(pick0, l0, np.where(pick1, l1, np.inf))
                px[c] = np.where(pick0, pts[0], pts[2])
                py[c] = np.where(pick0, pts[1], pts[3])
        keep = np.flatnonzero(np.isfinite(d))
        if not len(keep):
            return None
        return ray[keep], prim[keep], d[keep], px[keep], py[keep]

    # -- physics -------------------------------------------------------------------------------

    def refract(
        self, rows: np.ndarray, slots: np.ndarray, obj: np.ndarray, hx: np.ndarray, hy: np.ndarray, rng: Any
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, float, float, np.ndarray]:
        """The glass hits ``rows`` (already moved on by the simulator: depth, gap) in order.
        Returns the rays' new rows, whether each survives, the reflected rays' rows and the
        position they come from, the truncated and undefined brightness, and which were undefined."""
        m = len(rows)
        settings = self.settings
        x1, y1, x2, y2 = rows[:, X1], rows[:, Y1], rows[:, X2], rows[:, Y2]
        kind = np.full(m, np.nan)
        nx = np.full(m, np.nan)
        ny = np.full(m, np.nan)
        outline = self.outline[obj]
        o = np.flatnonzero(outline)
        if len(o):
            draws = rng.take(2 * len(o))
            tx2 = x2[o] + draws[0::2] * 1e-5
            ty2 = y2[o] + draws[1::2] * 1e-5
            k, a, b = self._classify(rows[o], obj[o], tx2, ty2)
            kind[o], nx[o], ny[o] = k, a, b
        c = np.flatnonzero(~outline)
        if len(c):
            cx, cy, r_sq = self.centre[obj[c], 0], self.centre[obj[c], 1], self.centre[obj[c], 2]
            px, py = hx[c], hy[c]
            midx, midy = (x1[c] + px) * 0.5, (y1[c] + py) * 0.5
            side = r_sq - ((cx - midx) * (cx - midx) + (cy - midy) * (cy - midy))
            kc = np.where(side > 0, 1.0, np.where(side < 0, -1.0, np.nan))
            kind[c] = kc
            nx[c] = np.where(kc == 1, cx - px, px - cx)
            ny[c] = np.where(kc == 1, cy - py, py - cy)
        n = self.index[obj]
        if settings.simulate_colors:
            wl = rows[:, WL]
            n = n + self.cauchy[obj] / (wl * wl * 0.000001)
        n1 = np.where(kind == 1, n, np.where(kind == -1, 1 / n, 1.0))
        undefined = np.isnan(kind)
        undefined_brightness = float((rows[undefined, BS] + rows[undefined, BP]).sum())
        negative = n1 < 0
        n1 = np.where(negative, -n1, n1)
        with np.errstate(all="ignore"):
            nl = np.sqrt(nx * nx + ny * ny)
            nx, ny = nx / nl, ny / nl
            dx, dy = x2 - x1, y2 - y1
            rl = np.sqrt(dx * dx + dy * dy)
            rx, ry = dx / rl, dy / rl
            cos1 = -nx * rx - ny * ry
            sq1 = 1 - n1 * n1 * (1 - cos1 * cos1)
            rdx = hx + rx + 2 * cos1 * nx
            rdy = hy + ry + 2 * cos1 * ny
            tir = sq1 < 0
            cos2 = np.sqrt(sq1)
            partial = self.partial[obj]
            r_s = np.where(partial, _pow2((n1 * cos1 - cos2) / (n1 * cos1 + cos2)), 0.0)
            r_p = np.where(partial, _pow2((n1 * cos2 - cos1) / (n1 * cos2 + cos1)), 0.0)
        out = rows.copy()
        bs, bp = rows[:, BS], rows[:, BP]
        refracting = ~tir & ~undefined
        rbs, rbp = bs * r_s, bp * r_p
        bright = rbs + rbp
        floor = settings.brightness_floor
        kept = refracting & (bright > floor)
        faint = refracting & ~kept
        truncation = float(bright[faint].sum())
        with np.errstate(all="ignore"):
            amp = np.where(bright > 0, np.floor(0.01 / bright) + 1, np.inf)
            sampled = faint & (rows[:, GAP] == 0) & np.isfinite(amp) & (np.fmod(slots, amp) == 0)
        child_mask = kept | sampled
        scale = np.where(sampled, amp, 1.0)
        children = np.empty((int(child_mask.sum()), COLUMNS))
        if len(children):
            cm = child_mask
            children[:, X1], children[:, Y1] = hx[cm], hy[cm]
            children[:, X2], children[:, Y2] = rdx[cm], rdy[cm]
            children[:, BS], children[:, BP] = rbs[cm] * scale[cm], rbp[cm] * scale[cm]
            children[:, WL], children[:, DEPTH], children[:, GAP] = (
                rows[cm, WL],
                rows[cm, DEPTH],
                rows[cm, GAP],
            )
            children[:, AMP] = scale[cm]
            children[:, PARENT], children[:, SOURCE] = rows[cm, PARENT], rows[cm, SOURCE]
            children[:, NEW] = 1.0
        if negative.any():
            for k in np.flatnonzero(negative & refracting).tolist():
                cos2[k] = math.cos(2 * math.pi - math.acos(cos2[k]))
            n1 = np.where(negative, -n1, n1)
        t = tir & ~undefined
        out[t, X1], out[t, Y1], out[t, X2], out[t, Y2] = hx[t], hy[t], rdx[t], rdy[t]
        r = refracting
        out[r, X1], out[r, Y1] = hx[r], hy[r]
        out[r, X2] = hx[r] + n1[r] * rx[r] + (n1[r] * cos1[r] - cos2[r]) * nx[r]
        out[r, Y2] = hy[r] + n1[r] * ry[r] + (n1[r] * cos1[r] - cos2[r]) * ny[r]
        out[r, BS] = bs[r] * (1 - r_s[r])
        out[r, BP] = bp[r] * (1 - r_p[r])
        left = out[:, BS] + out[:, BP]
        threshold = 1e-6 if settings.color_mode != "default" else 0
        dark = r & ~(left > threshold)
        truncation += float(left[dark].sum())
        alive = ~undefined & ~dark
        return out, alive, children, np.flatnonzero(child_mask), truncation, undefined_brightness, undefined

    def _classify(
        self, rows: np.ndarray, obj: np.ndarray, tx2: np.ndarray, ty2: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``classify`` for rays hitting outline glasses, with their test rays' ends given."""
        min_sq = self.min_sq
        m = len(rows)
        counts = self.edge_count[obj]
        ray = np.repeat(np.arange(m), counts)
        offsets = np.arange(counts.sum()) - np.repeat(np.cumsum(counts) - counts, counts)
        edge = np.repeat(self.edge_start[obj], counts) + offsets
        e = self.edge_table[edge]
        arc = self.edge_arc[edge]
        x1, y1, x2, y2 = rows[ray, X1], rows[ray, Y1], rows[ray, X2], rows[ray, Y2]
        t2x, t2y = tx2[ray], ty2[ray]
        n = len(ray)
        found = np.zeros(n, dtype=bool)
        px = np.full(n, np.nan)
        py = np.full(n, np.nan)
        plen = np.full(n, np.inf)
        enx = np.zeros(n)
        eny = np.zeros(n)
        crossings = np.zeros(n, dtype=np.int64)
        with np.errstate(all="ignore"):
            s = np.flatnonzero(~arc)
            if len(s):
                sx1, sy1, sx2, sy2 = x1[s], y1[s], x2[s], y2[s]
                ax, ay, bx, by = e[s, 0], e[s, 1], e[s, 2], e[s, 3]
                crossed, qx, qy = line_crossings(sx1, sy1, sx2, sy2, ax, ay, bx, by)
                ql = (sx1 - qx) * (sx1 - qx) + (sy1 - qy) * (sy1 - qy)
                ok = crossed & (ql > min_sq)
                found[s], px[s], py[s], plen[s] = ok, qx, qy, ql
                rdx, rdy = sx2 - sx1, sy2 - sy1
                ex, ey = bx - ax, by - ay
                rdots = rdx * ex + rdy * ey
                ssq = ex * ex + ey * ey
                enx[s] = rdots * ex - ssq * rdx
                eny[s] = rdots * ey - ssq * rdy
                tc, tqx, tqy = line_crossings(sx1, sy1, t2x[s], t2y[s], ax, ay, bx, by)
                tl = (sx1 - tqx) * (sx1 - tqx) + (sy1 - tqy) * (sy1 - tqy)
                crossings[s] = tc & (tl > min_sq)
            a = np.flatnonzero(arc)
            if len(a):
                args = (x1[a], y1[a], x2[a], y2[a])
                ea = e[a]
                pts = circle_points(*args, ea[:, 6], ea[:, 7], ea[:, 8])
                on0, e0, l0 = _arc_exists(*args, pts[0], pts[1], ea, min_sq)
                on1, e1, l1 = _arc_exists(*args, pts[2], pts[3], ea, min_sq)
                first, ok, qx, qy, ql = _pick_arc(pts, e0, e1, l0, l1, min_sq)
                outward = np.where(first, on1 & (l0 < l1), on0 & (l1 < l0))
                cx, cy = ea[:, 6], ea[:, 7]
                found[a], px[a], py[a], plen[a] = ok, qx, qy, ql
                enx[a] = np.where(outward, qx - cx, cx - qx)
                eny[a] = np.where(outward, qy - cy, cy - qy)
                targs = (x1[a], y1[a], t2x[a], t2y[a])
                tpts = circle_points(*targs, ea[:, 6], ea[:, 7], ea[:, 8])
                _, te0, tl0 = _arc_exists(*targs, tpts[0], tpts[1], ea, min_sq)
                _, te1, tl1 = _arc_exists(*targs, tpts[2], tpts[3], ea, min_sq)
                crossings[a] = (te0 & (tl0 > min_sq)).astype(np.int64) + (te1 & (tl1 > min_sq))
        total = np.bincount(ray, weights=crossings, minlength=m).astype(np.int64)
        plen = np.where(found, plen, np.inf)
        sort = np.lexsort((edge, plen, ray))
        head = np.flatnonzero(np.r_[True, ray[sort][1:] != ray[sort][:-1]])
        best = sort[head]
        near = plen[best]
        nxt = np.full(m, np.inf)
        has = head + 1 < len(sort)
        has[has] = ray[sort[head[has] + 1]] == ray[best[has]]
        nxt[ray[best[has]]] = plen[sort[head[has] + 1]]
        ml = self.min_len
        with np.errstate(invalid="ignore"):
            clean = np.isfinite(near) & (np.sqrt(nxt) > np.sqrt(near) + CLEAR_SEGMENTS * ml)
        bx_, by_ = px[best], py[best]
        eb = e[best]
        corner = ((bx_ - eb[:, 0]) ** 2 + (by_ - eb[:, 1]) ** 2 < min_sq) | (
            (bx_ - eb[:, 2]) ** 2 + (by_ - eb[:, 3]) ** 2 < min_sq
        )
        kind = np.where(corner, np.nan, np.where(total % 2 == 1, 1.0, -1.0))
        out_nx, out_ny = enx[best].copy(), eny[best].copy()
        for k in np.flatnonzero(~clean).tolist():
            ray_k = Ray((rows[k, X1], rows[k, Y1]), (rows[k, X2], rows[k, Y2]))
            _, normal, kk = classify_with(
                self.edges[int(obj[k])], min_sq, ray_k, (float(tx2[k]), float(ty2[k]))
            )
            kind[k], out_nx[k], out_ny[k] = kk, normal[0], normal[1]
        return kind, out_nx, out_ny
