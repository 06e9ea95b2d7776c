"""Plane polygons as the scene's glasses need them: a glass's outline checked to be simple, points
tested against a polygon, whether two polygons overlap, and which of many may (their boxes meet).
"""

from __future__ import annotations

import numpy as np


def clean_polygon(name: str, vertices: np.ndarray) -> np.ndarray:
    """``vertices`` as a float array, repeated points dropped; a ValueError naming glass ``name`` when
    they are not a simple polygon with an area."""
    points = np.array(vertices, dtype=float)
    if points.ndim != 2 or points.shape[1] != 2:
        raise ValueError(f"glass {name!r}: vertices must be (x, y) pairs")
    if not np.all(np.isfinite(points)):
        raise ValueError(f"glass {name!r}: vertices must be finite numbers")
    scale = max(float(np.ptp(points, axis=0).max()) if len(points) else 0.0, 1e-300)
    keep = np.linalg.norm(points - np.roll(points, 1, axis=0), axis=1) > 1e-12 * scale
    points = points[keep] if keep.any() else points[:1]
    if len(points) < 3:
        raise ValueError(f"glass {name!r}: a glass needs at least 3 distinct vertices")
    x, y = points.T
    area = 0.5 * abs(float(np.dot(x, np.roll(y, -1)) - np.dot(np.roll(x, -1), y)))
    if area <= 1e-12 * scale * scale:
        raise ValueError(f"glass {name!r}: the polygon has no area")
    if _self_intersects(points):
        raise ValueError(f"glass {name!r}: the edges cross each other; a glass must be a simple polygon")
    return points


def _self_intersects(points: np.ndarray) -> bool:
    """Whether two non-adjacent edges of the closed polygon meet (proper crossings or touches).

    Pairs whose bounding boxes meet are found by a sweep along x (edges sorted by their left end:
    an edge's candidates are the edges after it that start before it ends) and tested by array
    operations, a block of pairs at a time; only collinear pairs are tested one by one."""
    a, b = points, np.roll(points, -1, axis=0)
    k = len(points)
    low, high = np.minimum(a, b), np.maximum(a, b)

    def orient(p: np.ndarray, q: np.ndarray, r: np.ndarray) -> np.ndarray:
        return (q[:, 0] - p[:, 0]) * (r[:, 1] - p[:, 1]) - (q[:, 1] - p[:, 1]) * (r[:, 0] - p[:, 0])

    by_left = np.argsort(low[:, 0], kind="stable")
    lefts = low[by_left, 0]
    reach = np.searchsorted(lefts, high[by_left, 0], side="right")
    counts = np.maximum(reach - np.arange(k) - 1, 0)
    ends = np.cumsum(counts)
    first = 0
    while first < k:
        # rows first..last-1 of the sweep, about PAIRS_PER_BLOCK pairs
        last = max(first + 1, int(np.searchsorted(ends, ends[first] - counts[first] + PAIRS_PER_BLOCK)))
        rows = np.arange(first, min(last, k))
        n = counts[rows]
        offsets = np.arange(n.sum()) - np.repeat(np.cumsum(n) - n, n)
        i = by_left[np.repeat(rows, n)]
        j = by_left[np.repeat(rows + 1, n) + offsets]
        i, j = np.minimum(i, j), np.maximum(i, j)
        keep = (low[i, 1] <= high[j, 1]) & (low[j, 1] <= high[i, 1])
        keep &= (j >= i + 2) & ~((i == 0) & (j == k - 1))  # not the same edge nor neighbours
        i, j = i[keep], j[keep]
        d1, d2 = orient(a[j], b[j], a[i]), orient(a[j], b[j], b[i])
        d3, d4 = orient(a[i], b[i], a[j]), orient(a[i], b[i], b[j])
        meet = (d1 * d2 <= 0) & (d3 * d4 <= 0)
        collinear = meet & (d1 == 0) & (d2 == 0)
        if (meet & ~collinear).any():
            return True
        for m, n_ in zip(i[collinear], j[collinear], strict=True):
            if _collinear_overlap(a[m], b[m], a[n_], b[n_]):
                return True
        first = int(rows[-1]) + 1
    return False


PAIRS_PER_BLOCK = 1 << 18
"""Candidate edge pairs tested at once by :func:`_self_intersects` (a few MB of temporaries)."""


def _collinear_overlap(p1: np.ndarray, p2: np.ndarray, q1: np.ndarray, q2: np.ndarray) -> bool:
    axis = int(np.argmax(np.abs(p2 - p1)))
    lo, hi = sorted((p1[axis], p2[axis]))
    return max(lo, min(q1[axis], q2[axis])) <= min(hi, max(q1[axis], q2[axis]))


def points_in_polygon(points: np.ndarray, vertices: np.ndarray) -> np.ndarray:
    """Even-odd test of many points against one polygon; points on the boundary may go either way."""
    inside = np.zeros(len(points), dtype=bool)
    low, high = vertices.min(axis=0), vertices.max(axis=0)
    candidates = np.flatnonzero(np.all((points > low) & (points < high), axis=1))
    px, py = points[candidates, 0], points[candidates, 1]
    result = np.zeros(len(candidates), dtype=bool)
    for (ax, ay), (bx, by) in zip(vertices, np.roll(vertices, -1, axis=0), strict=True):
        if ay == by:
            continue
        straddles = (ay > py) != (by > py)
        x_cross = ax + (py - ay) * (bx - ax) / (by - ay)
        result ^= straddles & (px < x_cross)
    inside[candidates] = result
    return inside


PAIRS_AT_ONCE = 1 << 20
"""Edge pairs :func:`interiors_meet` tests in one block (a few tens of MB of temporaries)."""


def interiors_meet(a: np.ndarray, b: np.ndarray) -> bool:
    """Whether two simple polygons overlap, not merely touch: an edge of one properly crosses an
    edge of the other, or a point just inside one is inside the other (nesting, equal shapes).
    Glasses sharing an edge, or touching at a corner, do not overlap."""
    if np.any(a.max(axis=0) <= b.min(axis=0)) or np.any(b.max(axis=0) <= a.min(axis=0)):
        return False
    b1, b2 = b[None, :, :], np.roll(b, -1, axis=0)[None, :, :]
    a_next = np.roll(a, -1, axis=0)

    def side(u: np.ndarray, v: np.ndarray, w: np.ndarray) -> np.ndarray:
        return (v[..., 0] - u[..., 0]) * (w[..., 1] - u[..., 1]) - (v[..., 1] - u[..., 1]) * (
            w[..., 0] - u[..., 0]
        )

    rows = max(1, PAIRS_AT_ONCE // len(b))  # edge pairs in blocks: memory stays bounded
    for lo in range(0, len(a), rows):
        a1, a2 = a[lo : lo + rows, None, :], a_next[lo : lo + rows, None, :]
        if ((side(b1, b2, a1) * side(b1, b2, a2) < 0) & (side(a1, a2, b1) * side(a1, a2, b2) < 0)).any():
            return True
    return bool(points_in_polygon(_just_inside(b), a).any() or points_in_polygon(_just_inside(a), b).any())


def _just_inside(vertices: np.ndarray) -> np.ndarray:
    """Each edge's midpoint moved a hair into the polygon: points of its interior near every edge."""
    starts, ends = vertices, np.roll(vertices, -1, axis=0)
    d = ends - starts
    normals = np.stack([-d[:, 1], d[:, 0]], axis=1)  # left of each edge: inside when counter-clockwise
    x, y = vertices.T
    if np.dot(x, np.roll(y, -1)) - np.dot(np.roll(x, -1), y) < 0:
        normals = -normals
    normals /= np.linalg.norm(normals, axis=1, keepdims=True)
    hair = 1e-6 * float(np.ptp(vertices, axis=0).max())
    return (starts + ends) / 2 + hair * normals


def boxes_meeting(outlines: list[np.ndarray]) -> list[tuple[int, int]]:
    """Pairs (i < j) of outlines whose bounding boxes meet: the only pairs that can overlap.

    A sweep over the boxes sorted by their left edge, so thousands of separate glasses cost
    about n log n instead of testing every pair."""
    if len(outlines) < 2:
        return []
    boxes = np.array([[v[:, 0].min(), v[:, 0].max(), v[:, 1].min(), v[:, 1].max()] for v in outlines])
    order = np.argsort(boxes[:, 0], kind="stable")
    lefts = boxes[order, 0]
    pairs: list[tuple[int, int]] = []
    for k, i in enumerate(order):
        stop = int(np.searchsorted(lefts, boxes[i, 1], side="right"))
        for j in order[k + 1 : stop]:
            if boxes[j, 2] <= boxes[i, 3] and boxes[i, 2] <= boxes[j, 3]:
                pairs.append((int(min(i, j)), int(max(i, j))))
    return sorted(pairs)
