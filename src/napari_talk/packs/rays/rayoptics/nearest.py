"""The nearest-object search of a simulation pass, vectorized.

For a batch of rays at once, numpy finds where each ray's line meets every segment and circle the
objects' :meth:`~.base.SceneObj.hit_shape` lists: the nearest such point of an object is a lower
bound on where its exact ``intersect`` can meet the ray. Per ray, objects are then tested exactly
(ray-optics' arithmetic) in order of that bound, and the test stops once every object left is
farther than the nearest exact hit by a margin that no chain of coincident surfaces spans. The
simulator's merging rules then run over just the objects tested: objects beyond that margin
never change their outcome, so the result is the one testing every object gives. Rays whose
nearest hit lies within a few minimum segments of their start, and objects without a shape,
are tested exactly as before. Rays go through in chunks so memory stays bounded.
"""

from __future__ import annotations

import math

import numpy as np

from .base import Point, Ray, SceneObj, line_crossings
from .grid import Grid

PAIRS_PER_CHUNK = 1 << 16
"""Ray × group pairs tested at once (a few MB per temporary array)."""
GROUP_SIZE = 16
"""Primitives per bounding box of the spatial prefilter."""
FEW_OBJECTS = 12
"""Scenes with at most this many objects that can stop a ray test each one exactly."""
MARGIN_SEGMENTS = 1000.0
"""Objects whose bound exceeds the nearest exact hit by this many minimum segments are skipped."""
CHAIN_SEGMENTS = 4.0
"""Hits closer than this (in minimum segments) along the ray form one cluster of coincident hits."""
NEAR_SEGMENTS = 8.0
"""A nearest hit this close to the ray's start is resolved by testing every object."""
GRID_PRIMITIVES = 256
GRID_RAYS = 16
"""With at least this many primitives and rays at once, the primitives a ray's line passes are
found through a grid (:mod:`.grid`) rather than the groups' boxes (cheaper for a ray alone)."""


def _owner(cls: type, name: str) -> type:
    return next(c for c in cls.__mro__ if name in c.__dict__)


def _searchable(obj: SceneObj) -> bool:
    return _owner(type(obj), "intersect") is not SceneObj


def _shape_applies(obj: SceneObj, method: str = "hit_shape") -> bool:
    """The shape (or box) describes the ``intersect`` the object uses (not one a subclass replaced)."""
    shape_owner = _owner(type(obj), method)
    return shape_owner is not SceneObj and issubclass(shape_owner, _owner(type(obj), "intersect"))


def _box_of(obj: SceneObj) -> tuple[float, float, float, float] | None:
    """The finite box every hit of an object without a shape lies in (a GRIN glass), if it has one."""
    box = obj.hit_box() if _shape_applies(obj, "hit_box") else None
    return box if box is not None and all(math.isfinite(v) for v in box) else None


class NearestIndex:
    """The objects of a scene that can stop a ray, and the primitives bounding where they do."""

    def __init__(self, objs: list[SceneObj], min_len: float, *, exhaustive: bool | None = None) -> None:
        """``exhaustive``: test every object exactly (True), search vectorized (False), or choose by
        the number of objects (None: a few are faster tested one by one than set up for numpy)."""
        if exhaustive is None:
            exhaustive = sum(1 for obj in objs if _searchable(obj)) <= FEW_OBJECTS
        self.objs = objs
        self.min_len = min_len
        self.always: list[int] = []
        boxed: list[int] = []
        box_rows: list[tuple[float, float, float, float]] = []
        seg_rows: list[tuple[float, float, float, float]] = []
        seg_obj: list[int] = []
        circ_rows: list[tuple[float, float, float]] = []
        circ_obj: list[int] = []
        coords = [1.0]
        for i, obj in enumerate(objs):
            if not _searchable(obj):
                continue
            shape = obj.hit_shape() if _shape_applies(obj) and not exhaustive else None
            box = _box_of(obj) if shape is None and not exhaustive else None
            if box is not None:
                boxed.append(i)
                box_rows.append(box)
                coords.extend(abs(v) for v in box)
                continue
            if shape is None:
                self.always.append(i)
                continue
            segments, circles = shape
            for (ax, ay), (bx, by) in segments:
                seg_rows.append((ax, ay, bx, by))
                seg_obj.append(i)
                coords.extend((abs(ax), abs(ay), abs(bx), abs(by)))
            for (cx, cy), r_sq in circles:
                circ_rows.append((cx, cy, r_sq))
                circ_obj.append(i)
                coords.extend((abs(cx) + math.sqrt(abs(r_sq)), abs(cy) + math.sqrt(abs(r_sq))))
        self.shaped = sorted(set(seg_obj + circ_obj))
        seg = np.array(seg_rows, dtype=float).reshape(-1, 4)
        circ = np.array(circ_rows, dtype=float).reshape(-1, 3)
        radius = np.sqrt(np.abs(circ[:, 2]))
        low = np.vstack([np.minimum(seg[:, :2], seg[:, 2:]), circ[:, :2] - radius[:, None]])
        high = np.vstack([np.maximum(seg[:, :2], seg[:, 2:]), circ[:, :2] + radius[:, None]])
        table = np.zeros((len(low), 4))
        table[: len(seg)] = seg
        table[len(seg) :, :3] = circ
        kind = np.r_[np.zeros(len(seg), bool), np.ones(len(circ), bool)]
        owner = np.array(seg_obj + circ_obj, dtype=np.int64)
        finite = [c for c in coords if math.isfinite(c)]
        self.extent = max(finite)
        self.margin = max(MARGIN_SEGMENTS * min_len, 1e-9 * self.extent)
        # nearby primitives together (Morton order), in groups with a box each
        order = np.argsort(morton((low + high) / 2, self.extent), kind="stable")
        self.table, self.circle, self.owner = table[order], kind[order], owner[order]
        low, high = low[order], high[order]
        self.group_start = np.arange(0, len(order), GROUP_SIZE, dtype=np.int64)
        self.group_size = np.minimum(GROUP_SIZE, len(order) - self.group_start)
        pad = 1e-7 * self.extent + min_len
        self.box_low, self.box_high = low[:0], high[:0]
        if len(order):
            with np.errstate(invalid="ignore"):
                self.box_low = np.minimum.reduceat(low, self.group_start, axis=0) - pad
                self.box_high = np.maximum.reduceat(high, self.group_start, axis=0) + pad
        whole = ~(np.isfinite(self.box_low).all(axis=1) & np.isfinite(self.box_high).all(axis=1))
        self.box_low[whole], self.box_high[whole] = -np.inf, np.inf
        self.grid: Grid | None = None
        if len(order) >= GRID_PRIMITIVES and not whole.any():
            grid = Grid(low, high, pad)
            self.grid = grid if grid.worth else None
        # objects whose hits lie in a box but on no fixed outline (a GRIN glass also stops a ray
        # inside it, a step on): the distance to where a ray enters the box bounds its hit
        self.boxed = boxed
        self.box_owner = np.array(boxed, dtype=np.int64)
        corners = np.array(box_rows, dtype=float).reshape(-1, 4)
        self.hit_box_low, self.hit_box_high = corners[:, :2] - pad, corners[:, 2:] + pad

    @property
    def primitives(self) -> int:
        return len(self.table)

    def bounds(self, rays: list[Ray]) -> list[tuple[list[int], list[float]]]:
        """Per ray: the shaped and boxed objects its line meets ahead, nearest bound first, and the
        bounds."""
        out: list[tuple[list[int], list[float]]] = []
        if not self.primitives and not self.boxed:
            return [([], []) for _ in rays]
        step = self._rays_per_chunk()
        for lo in range(0, len(rays), step):
            out.extend(self._bounds(rays[lo : lo + step]))
        return out

    def _bounds(self, rays: list[Ray]) -> list[tuple[list[int], list[float]]]:
        xy = np.array([(r.p1[0], r.p1[1], r.p2[0], r.p2[1]) for r in rays], dtype=float)
        ray, prim = self._pairs(xy)
        t = self._pair_bounds(xy, ray, prim)
        keep = np.isfinite(t)
        ray, obj, t = ray[keep], self.owner[prim[keep]], t[keep]
        if self.boxed:
            box_ray, box, box_t = self._box_bounds(xy)
            ray, obj, t = np.r_[ray, box_ray], np.r_[obj, self.box_owner[box]], np.r_[t, box_t]
        order = np.lexsort((t, obj, ray))
        ray, obj, t = ray[order], obj[order], t[order]
        first = np.r_[True, (ray[1:] != ray[:-1]) | (obj[1:] != obj[:-1])] if len(ray) else keep[:0]
        ray, obj, t = ray[first], obj[first], t[first]
        order = np.lexsort((t, ray))
        ray, obj, t = ray[order], obj[order], t[order]
        cuts = np.searchsorted(ray, np.arange(len(rays) + 1)).tolist()
        objs_list, values_list = obj.tolist(), t.tolist()
        return [
            (objs_list[cuts[k] : cuts[k + 1]], values_list[cuts[k] : cuts[k + 1]]) for k in range(len(rays))
        ]

    def _box_bounds(self, xy: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(ray, box, distance) for each box a ray's half-line enters: the distance to where it
        enters (0 from inside), a lower bound on where the box's object can stop the ray."""
        p1 = xy[:, None, :2]
        d = xy[:, None, 2:] - p1
        d = np.where(d == 0, 1e-300, d)
        with np.errstate(all="ignore"):
            t1 = (self.hit_box_low[None] - p1) / d
            t2 = (self.hit_box_high[None] - p1) / d
            enter = np.minimum(t1, t2).max(axis=2)
            leave = np.maximum(t1, t2).min(axis=2)
            ray, box = np.nonzero((enter <= leave) & (leave >= 0))
            length = np.hypot(xy[:, 2] - xy[:, 0], xy[:, 3] - xy[:, 1])
            t = np.maximum(enter[ray, box], 0.0) * length[ray] * (1 - 1e-9) - 1e-9 * self.extent
        return ray, box, t

    def _rays_per_chunk(self) -> int:
        across = len(self.group_start) + len(self.boxed)
        if self.grid is not None:
            across = max(across, sum(self.grid.shape))
        return max(1, PAIRS_PER_CHUNK // across)

    def _pairs(self, xy: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        if self.grid is not None and len(xy) >= GRID_RAYS:
            return self.grid.line(xy)
        return box_pairs(xy, self.box_low, self.box_high, self.group_start, self.group_size)

    def _pair_bounds(self, xy: np.ndarray, ray: np.ndarray, prim: np.ndarray) -> np.ndarray:
        floor = 0.5 * self.min_len
        t = np.full(len(ray), np.inf)
        with np.errstate(all="ignore"):
            seg = ~self.circle[prim]
            r, q = ray[seg], self.table[prim[seg]]
            r1x, r1y, r2x, r2y = xy[r, 0], xy[r, 1], xy[r, 2], xy[r, 3]
            crossed, px, py = line_crossings(r1x, r1y, r2x, r2y, q[:, 0], q[:, 1], q[:, 2], q[:, 3])
            ts = np.hypot(px - r1x, py - r1y)
            t[seg] = np.where(crossed & (ts > floor), ts, np.inf)
            circ = ~seg
            if circ.any():
                r, q = ray[circ], self.table[prim[circ]]
                t[circ] = _circle_bounds(xy[r], q[:, 0], q[:, 1], q[:, 2], floor)
            # a lower bound: the exact test's rounding may place the hit a hair nearer
            t = t * (1 - 1e-9) - 1e-9 * self.extent
        return t

    def min_bound(self, xy: np.ndarray) -> np.ndarray:
        """Per ray (rows x1, y1, x2, y2): a lower bound on the distance to any object's hit."""
        out = np.full(len(xy), np.inf)
        if not self.primitives:
            return out
        step = self._rays_per_chunk()
        for lo in range(0, len(xy), step):
            part = xy[lo : lo + step]
            ray, prim = self._pairs(part)
            t = self._pair_bounds(part, ray, prim)
            np.minimum.at(out, ray + lo, t)
        return out

    def hits(self, ray: Ray, objs: list[int], bounds: list[float]) -> list[tuple[int, Point]]:
        """The exact hits of the objects that decide the ray's nearest hit, in scene order."""
        scene = self.objs
        min_len = self.min_len
        found: list[tuple[int, Point]] = []
        lengths: list[float] = []
        nearest = math.inf
        p1x, p1y = ray.p1

        def test(i: int) -> None:
            nonlocal nearest
            p = scene[i].intersect(ray)
            if p is not None:
                found.append((i, p))
                d = math.hypot(p[0] - p1x, p[1] - p1y)
                lengths.append(d)
                if min_len < d < nearest:
                    nearest = d

        for i in self.always:
            test(i)
        k, n = 0, len(objs)
        while k < n:
            bound = bounds[k]
            if (
                bound > nearest + self.margin
                and bound > _cluster_end(lengths, nearest, min_len) + self.margin
            ):
                break
            test(objs[k])
            k += 1
        if nearest < NEAR_SEGMENTS * min_len:
            # a hit by the ray's start: every object's hit may matter (each object tested once)
            for i in objs[k:]:
                test(i)
            tested = set(self.always).union(objs)
            for i in self.shaped + self.boxed:
                if i not in tested:
                    test(i)
        found.sort(key=lambda hit: hit[0])
        return found


def _cluster_end(lengths: list[float], nearest: float, min_len: float) -> float:
    """The far end of the run of hits, from the nearest on, each within a chain step of the last."""
    end = nearest
    if math.isinf(nearest):
        return end
    for d in sorted(d for d in lengths if d >= nearest):
        if d - end > CHAIN_SEGMENTS * min_len:
            break
        end = d
    return end


def _circle_bounds(
    xy: np.ndarray, cx: np.ndarray, cy: np.ndarray, r_sq: np.ndarray, floor: float
) -> np.ndarray:
    """Distance from each ray's start to its nearer crossing ahead with its circle (inf: none), by
    :func:`~.base.line_circle_intersections`' arithmetic."""
    r1x, r1y, r2x, r2y = xy[:, 0], xy[:, 1], xy[:, 2], xy[:, 3]
    xa, ya = r2x - r1x, r2y - r1y
    length = np.sqrt(xa * xa + ya * ya)
    ux, uy = xa / length, ya / length
    cu = (cx - r1x) * ux + (cy - r1y) * uy
    px, py = r1x + cu * ux, r1y + cu * uy
    d = np.sqrt(r_sq - (px - cx) * (px - cx) - (py - cy) * (py - cy))
    best = np.full(len(xy), np.inf)
    for sign in (1.0, -1.0):
        qx, qy = px + sign * ux * d, py + sign * uy * d
        ahead = (qx - r1x) * xa + (qy - r1y) * ya >= 0
        t = np.hypot(qx - r1x, qy - r1y)
        best = np.where(ahead & (t > floor) & (t < best), t, best)
    return best


def box_pairs(
    xy: np.ndarray, box_low: np.ndarray, box_high: np.ndarray, group_start: np.ndarray, group_size: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """(ray, primitive) pairs whose group box the ray's half-line enters."""
    p1 = xy[:, None, :2]
    d = xy[:, None, 2:] - p1
    d = np.where(d == 0, 1e-300, d)
    with np.errstate(all="ignore"):
        t1 = (box_low[None] - p1) / d
        t2 = (box_high[None] - p1) / d
        enter = np.minimum(t1, t2).max(axis=2)
        leave = np.maximum(t1, t2).min(axis=2)
    ray, group = np.nonzero((enter <= leave) & (leave >= 0) & (enter < np.inf))
    counts = group_size[group]
    ray = np.repeat(ray, counts)
    offsets = np.arange(counts.sum()) - np.repeat(np.cumsum(counts) - counts, counts)
    prim = np.repeat(group_start[group], counts) + offsets
    return ray, prim


def morton(points: np.ndarray, extent: float) -> np.ndarray:
    """Z-order keys of points on a 1024 × 1024 grid over the scene (nearby points, near keys)."""
    with np.errstate(invalid="ignore"):
        scaled = np.nan_to_num((points + extent) / (2 * extent) * 1023, nan=0.0, posinf=1023, neginf=0)
    cells = np.clip(scaled, 0, 1023).astype(np.int64)
    key = np.zeros(len(points), dtype=np.int64)
    for bit in range(10):
        key |= ((cells[:, 0] >> bit) & 1) << (2 * bit)
        key |= ((cells[:, 1] >> bit) & 1) << (2 * bit + 1)
    return key
