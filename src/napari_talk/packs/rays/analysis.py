"""Queries over ray segments in relation to the scene's glasses, vectorized over all segments.

Semantics follow ray_tracing_shapely, the original library: "inside" tests a segment's midpoint
(strictly inside the polygon); "crossing" an edge counts segments that touch it; the angle to an
edge is measured from its outward normal (0° head-on, 90° grazing) for segments that pass within
twice the edge's length of it. Each query returns the matching :class:`Segments`, ids kept.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from .edges import edges_table, resolve_edge
from .polygons import points_in_polygon
from .scene import Glass
from .simulation import Segments

TOUCH_TOLERANCE = 1e-9
"""Relative to the edge's length: how close counts as touching it."""
WINDOW_TOLERANCE = 1e-9
"""Windows include their bounds, and rounding: a ray at 60° is in 30..60 and in 60..90."""


def find_rays_inside_glass(segments: Segments, glass: Glass) -> Segments:
    """Segments whose midpoint lies inside ``glass``."""
    return segments.take(points_in_polygon(segments.midpoints, glass.vertices))


def find_rays_crossing_edge(segments: Segments, glass: Glass, edge_label: str) -> Segments:
    """Segments that cross or touch one edge of ``glass`` (ending or starting on it counts)."""
    edge = resolve_edge(glass, edge_label)
    (ax, ay), (bx, by) = edge.p1, edge.p2
    tol = TOUCH_TOLERANCE * edge.length
    ux, uy = (bx - ax) / edge.length, (by - ay) / edge.length
    # Cheap tests first, each on what the one before left: the bounding boxes must meet (grown by
    # the tolerance), then the segment must reach the edge's line.
    low, high = (min(ax, bx) - tol, min(ay, by) - tol), (max(ax, bx) + tol, max(ay, by) + tol)
    rows = _boxes_meet(segments.p1, segments.p2, low, high)
    x1, y1, x2, y2 = (np.take(column, rows) for column in _columns(segments.p1, segments.p2))
    # signed distances of the segment ends from the edge's line
    d1 = ux * (y1 - ay) - uy * (x1 - ax)
    d2 = ux * (y2 - ay) - uy * (x2 - ax)
    keep = np.flatnonzero((np.minimum(d1, d2) <= tol) & (np.maximum(d1, d2) >= -tol))
    rows, x1, y1, x2, y2, d1, d2 = (np.take(v, keep) for v in (rows, x1, y1, x2, y2, d1, d2))
    # both on one line (rare): they meet only if their extents along the edge overlap
    collinear = (np.abs(d1) <= tol) & (np.abs(d2) <= tol)
    on_line = np.flatnonzero(collinear)
    u1 = (x1[on_line] - ax) * ux + (y1[on_line] - ay) * uy
    u2 = (x2[on_line] - ax) * ux + (y2[on_line] - ay) * uy
    overlap = (np.maximum(u1, u2) >= -tol) & (np.minimum(u1, u2) <= edge.length + tol)
    # otherwise the edge's ends must lie on both sides of the segment's line (distances times its length)
    rx, ry = x2 - x1, y2 - y1
    slack = np.sqrt(rx * rx + ry * ry) * tol
    c3 = rx * (ay - y1) - ry * (ax - x1)
    c4 = rx * (by - y1) - ry * (bx - x1)
    meets = (np.minimum(c3, c4) <= slack) & (np.maximum(c3, c4) >= -slack)
    meets[on_line] = overlap
    return segments.take(rows[meets])


def find_rays_by_angle_to_edge(
    segments: Segments,
    glass: Glass,
    edge_label: str,
    min_angle: float = 0.0,
    max_angle: float = 90.0,
    proximity: float | None = None,
) -> Segments:
    """Segments at ``min_angle``..``max_angle`` degrees from the edge's outward normal that pass
    within ``proximity`` (default: twice the edge's length) of the edge.

    "Pass within" is the nearest approach of the segment to the edge, not where its midpoint
    lies: a ray leaving the scene is drawn to an arbitrary escape length, and the answer must not
    depend on it."""
    _check_window(min_angle, max_angle, 0.0, 90.0, "angle")
    edge = resolve_edge(glass, edge_label)
    a, b = np.array(edge.p1), np.array(edge.p2)
    reach = 2.0 * edge.length if proximity is None else float(proximity)
    x1, y1, x2, y2 = _columns(segments.p1, segments.p2)
    rx, ry = x2 - x1, y2 - y1
    squared = rx * rx
    squared += ry * ry
    nx, ny = edge.normal
    # the window as squared cosines (the angle falls as its cosine rises): no root or arccos
    # (a window reaching 0° or 90° has no bound there, so rounding cannot drop a head-on or grazing ray)
    top, bottom = max_angle + WINDOW_TOLERANCE, min_angle - WINDOW_TOLERANCE
    lowest = 0.0 if top >= 90.0 else math.cos(math.radians(top)) ** 2
    highest = math.inf if bottom <= 0.0 else math.cos(math.radians(bottom)) ** 2
    along = rx * nx
    along += ry * ny
    along *= along
    in_window = squared > 1e-24
    if lowest > 0:
        in_window &= along >= lowest * squared
    if highest < math.inf:
        in_window &= along <= highest * squared
    rows = np.flatnonzero(in_window)
    p1, p2 = np.take(segments.p1, rows, axis=0), np.take(segments.p2, rows, axis=0)
    return segments.take(rows[_within(p1, p2, a, b, reach)])


def find_rays_by_polarization(segments: Segments, min_dop: float = 0.0, max_dop: float = 1.0) -> Segments:
    """Segments whose degree of polarization |p − s| / (p + s) is within min_dop..max_dop."""
    _check_window(min_dop, max_dop, 0.0, 1.0, "degree of polarization")
    dop = segments.degree_of_polarization
    return segments.take((dop >= min_dop - WINDOW_TOLERANCE) & (dop <= max_dop + WINDOW_TOLERANCE))


def describe_glass_edges(glass: Glass) -> str:
    """The edges of a glass (index, label, length, end points, midpoint) as a text table."""
    return edges_table(glass)


def _check_window(low: float, high: float, floor: float, ceiling: float, what: str) -> None:
    if not (floor <= low <= high <= ceiling):
        raise ValueError(
            f"the {what} window must satisfy {floor:g} <= min <= max <= {ceiling:g}, not {low}..{high}"
        )


def _columns(p1: np.ndarray, p2: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    return p1[:, 0], p1[:, 1], p2[:, 0], p2[:, 1]


def _boxes_meet(p1: np.ndarray, p2: np.ndarray, low: Sequence[float], high: Sequence[float]) -> np.ndarray:
    """Positions of the segments p1→p2 whose bounding box meets the box ``low``..``high``: the
    box's narrower side is tested first, the other only on the segments that pass."""
    first, second = (1, 0) if high[1] - low[1] < high[0] - low[0] else (0, 1)
    c1, c2 = p1[:, first], p2[:, first]
    rows = np.flatnonzero((np.minimum(c1, c2) <= high[first]) & (np.maximum(c1, c2) >= low[first]))
    c1, c2 = np.take(p1[:, second], rows), np.take(p2[:, second], rows)
    return rows[(np.minimum(c1, c2) <= high[second]) & (np.maximum(c1, c2) >= low[second])]


def _within(p1: np.ndarray, p2: np.ndarray, a: np.ndarray, b: np.ndarray, reach: float) -> np.ndarray:
    """Whether each segment p1→p2 comes within ``reach`` of the segment a→b: an end of one within
    reach of the other, or the two crossing. Each test runs only on the segments still open."""
    near = _point_near_edge(p1[:, 0], p1[:, 1], a, b, reach)
    rows = np.flatnonzero(~near)
    near[rows] = _point_near_edge(p2[rows, 0], p2[rows, 1], a, b, reach)
    for end in (a, b):
        rows = np.flatnonzero(~near)
        near[rows] = _distance_to_segments(end, p1[rows], p2[rows]) <= reach
    rows = np.flatnonzero(~near)
    near[rows] = _proper_crossing(p1[rows], p2[rows], a, b)
    return near


def _point_near_edge(x: np.ndarray, y: np.ndarray, a: np.ndarray, b: np.ndarray, reach: float) -> np.ndarray:
    """Whether each point (x, y) is within ``reach`` of the segment a→b (squared, by columns)."""
    (ax, ay), (ex, ey) = a, b - a
    qx, qy = x - ax, y - ay
    t = qx * ex
    t += qy * ey
    t *= 1.0 / (ex * ex + ey * ey)
    np.clip(t, 0.0, 1.0, out=t)
    qx -= t * ex
    qy -= t * ey
    qx *= qx
    qy *= qy
    qx += qy
    return qx <= reach * reach


def _distance_to_segments(point: np.ndarray, p1: np.ndarray, p2: np.ndarray) -> np.ndarray:
    d = p2 - p1
    squared = np.einsum("ij,ij->i", d, d)
    with np.errstate(invalid="ignore", divide="ignore"):
        t = np.clip(np.nan_to_num(np.einsum("ij,ij->i", point - p1, d) / squared), 0.0, 1.0)
    closest = p1 + t[:, None] * d
    return np.hypot(*(point - closest).T)


def _proper_crossing(p1: np.ndarray, p2: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    def side(u: np.ndarray, v: np.ndarray, w: np.ndarray) -> np.ndarray:
        return (v[..., 0] - u[..., 0]) * (w[..., 1] - u[..., 1]) - (v[..., 1] - u[..., 1]) * (
            w[..., 0] - u[..., 0]
        )

    d1, d2 = side(a, b, p1), side(a, b, p2)
    d3, d4 = side(p1, p2, a), side(p1, p2, b)
    return (d1 * d2 < 0) & (d3 * d4 < 0)


@dataclass(frozen=True)
class DetectorReading:
    """The light a detector line measured: ``irradiance[i]`` is the net power crossing bin ``i``
    (from ``positions[i]`` along the detector, ``bin_size`` long) divided by ``bin_size``."""

    positions: list[float]
    irradiance: list[float]
    bin_size: float
    power: float

    def to_dict(self) -> dict[str, Any]:
        return {
            "positions": self.positions,
            "irradiance": self.irradiance,
            "bin_size": self.bin_size,
            "power": self.power,
        }


def detector_reading(segments: Segments, detector: Any, bin_size: float | None = None) -> DetectorReading:
    """What a detector from ``p1`` to ``p2`` reads from the traced segments: each segment crossing
    it adds its brightness to the bin it crosses, positive when the ray turns clockwise onto the
    detector's direction (cross product of ray and detector > 0, as ray-optics), negative the
    other way (net power); a one-sided detector counts the positive side only. A segment ending
    on the detector counts, the one starting there does not, so a ray split there counts once."""
    p1 = np.asarray(detector.p1, dtype=float)
    p2 = np.asarray(detector.p2, dtype=float)
    size = float(bin_size or getattr(detector, "bin_size", None) or 1.0)
    along = p2 - p1
    length = float(np.hypot(*along))
    if length == 0 or not (size > 0):
        raise ValueError("a detector needs two different end points and a bin size > 0")
    start, direction = segments.p1, segments.p2 - segments.p1
    denom = direction[:, 0] * along[1] - direction[:, 1] * along[0]
    offset = p1 - start
    with np.errstate(divide="ignore", invalid="ignore"):
        u = (offset[:, 0] * along[1] - offset[:, 1] * along[0]) / denom  # along the segment
        t = (offset[:, 0] * direction[:, 1] - offset[:, 1] * direction[:, 0]) / denom  # along the detector
    hit = (denom != 0) & (u > 0) & (u <= 1) & (t >= 0) & (t <= 1)
    if not getattr(detector, "two_sided", True):
        hit &= denom > 0
    sign = np.where(denom[hit] > 0, 1.0, -1.0)
    n_bins = max(1, math.ceil(length / size))
    bins = np.floor(t[hit] * length / size).astype(int)
    inside = bins < n_bins  # as ray-optics: a crossing past the last whole bin's end is not binned
    weights = (sign * segments.total[hit])[inside]
    power = np.bincount(bins[inside], weights=weights, minlength=n_bins)
    return DetectorReading(
        positions=[float(i * size) for i in range(n_bins)],
        irradiance=[float(v) for v in power / size],
        bin_size=size,
        power=float((sign * segments.total[hit]).sum()),
    )


def reading_rows(reading: DetectorReading) -> list[tuple[str, str]]:
    """Position and irradiance of every bin, written as ray-optics' CSV export writes them (the
    bin's start along the detector, then power over bin size)."""
    return [
        (f"{position:g}", f"{value:.6g}")
        for position, value in zip(reading.positions, reading.irradiance, strict=True)
    ]


def reading_table(reading: DetectorReading, rows: int = 40) -> str:
    """Position and irradiance, one bin a line, as ray-optics writes them (CSV-like)."""
    lines = ["  Position,Irradiance"]
    every = reading_rows(reading)
    lines.extend(f"  {position},{value}" for position, value in every[:rows])
    if len(every) > rows:
        lines.append(f"  … and {len(every) - rows} more bins (all of them are in the data)")
    return "\n".join(lines)
