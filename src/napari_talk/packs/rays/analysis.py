"""Queries over ray segments in relation to the scene's glasses, vectorized over all segments.

Semantics follow seed 001's original library: "inside" tests a segment's midpoint (strictly inside
the polygon); "crossing" an edge counts segments that touch it; the angle to an edge is measured
from its outward normal (0° head-on, 90° grazing) for segments that pass within twice the edge's
length of it. Each query returns the matching :class:`Segments`, ids kept.
"""

from __future__ import annotations

import numpy as np

from .edges import edges_table, resolve_edge
from .scene import Glass, points_in_polygon
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
    a, b = np.array(edge.p1), np.array(edge.p2)
    tol = TOUCH_TOLERANCE * edge.length
    along = (b - a) / edge.length
    # signed distances of the segment ends from the edge's line
    d1 = _cross(along, segments.p1 - a)
    d2 = _cross(along, segments.p2 - a)
    straddles = (np.minimum(d1, d2) <= tol) & (np.maximum(d1, d2) >= -tol)
    # signed distances of the edge's ends from each segment's line
    r = segments.p2 - segments.p1
    length = np.hypot(r[:, 0], r[:, 1])
    with np.errstate(invalid="ignore", divide="ignore"):
        r_unit = r / length[:, None]
    d3 = _cross_rows(r_unit, a - segments.p1)
    d4 = _cross_rows(r_unit, b - segments.p1)
    spans = (np.minimum(d3, d4) <= tol) & (np.maximum(d3, d4) >= -tol)
    # both on one line: they meet only if their extents along the edge overlap
    u1 = (segments.p1 - a) @ along
    u2 = (segments.p2 - a) @ along
    overlap = (np.maximum(u1, u2) >= -tol) & (np.minimum(u1, u2) <= edge.length + tol)
    collinear = (np.abs(d1) <= tol) & (np.abs(d2) <= tol)
    return segments.take(np.where(collinear, overlap, straddles & spans))


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
    near = _segments_to_segment(segments.p1, segments.p2, a, b) <= reach
    r = segments.p2 - segments.p1
    length = np.hypot(r[:, 0], r[:, 1])
    with np.errstate(invalid="ignore", divide="ignore"):
        cosine = np.abs(r @ np.array(edge.normal)) / length
    angle = np.degrees(np.arccos(np.clip(np.nan_to_num(cosine, nan=0.0), 0.0, 1.0)))
    chosen = (
        near
        & (length > 1e-12)
        & (angle >= min_angle - WINDOW_TOLERANCE)
        & (angle <= max_angle + WINDOW_TOLERANCE)
    )
    return segments.take(chosen)


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


def _cross(u: np.ndarray, v: np.ndarray) -> np.ndarray:
    """u × v for one vector u and rows v."""
    return u[0] * v[:, 1] - u[1] * v[:, 0]


def _cross_rows(u: np.ndarray, v: np.ndarray) -> np.ndarray:
    return u[:, 0] * v[:, 1] - u[:, 1] * v[:, 0]


def _segments_to_segment(p1: np.ndarray, p2: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The least distance between each segment p1→p2 and the segment a→b (0 where they cross)."""
    ends = np.minimum(_distance_to_segment(p1, a, b), _distance_to_segment(p2, a, b))
    from_a = _distance_to_segments(a, p1, p2)
    from_b = _distance_to_segments(b, p1, p2)
    distance = np.minimum(ends, np.minimum(from_a, from_b))
    crossing = _proper_crossing(p1, p2, a, b)
    return np.where(crossing, 0.0, distance)


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


def _distance_to_segment(points: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    ab = b - a
    t = np.clip((points - a) @ ab / float(ab @ ab), 0.0, 1.0)
    closest = a + t[:, None] * ab
    return np.hypot(*(points - closest).T)
