"""Curved glass outlines, as ray-optics draws them, and their tessellation into straight facets.

A ray-optics ``Glass`` path is a closed list of points ``(x, y, arc)``: two points in a row with
``arc`` false are joined by a straight side; a point with ``arc`` true is a point *on* a circular
arc from the point before it to the point after it (three points fix the circle; if they are in a
line the side is straight, from the point before to the point after). A ``CircleGlass`` is a full
circle: a centre and a point on its rim.

The scene model knows only straight edges, so each arc becomes facets: chords of the arc whose
sagitta (the gap between chord and arc) is at most :data:`MAX_SAGITTA` of the radius, and at least
:data:`MIN_FACETS` per arc. The facets stand in for where the arc is (edge labels, queries, which
edge a traced segment ends on; the simulator traces the arc itself); ``Glass.facet_centres`` gives
the circle's own normal where a ray meets one. The facets of an arc
are computed the same way whichever way round the arc is walked, so two glasses cemented along
one arc share exactly the same vertices.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property

import numpy as np

Point = tuple[float, float]
PathPoint = tuple[float, float, bool]
"""``(x, y, arc)`` as in a ray-optics path."""

MAX_SAGITTA = 1e-5
"""Largest gap between a facet and its arc, relative to the radius: facets of 0.51°, 703 on a
full circle."""
MIN_FACETS = 16
"""Facets on an arc however short it is."""


@dataclass(frozen=True)
class Side:
    """One side of an outline: straight from ``start`` to ``end``, or, with ``via``, the circular
    arc from ``start`` through ``via`` to ``end`` (``start == end`` for a full circle, ``via``
    then being its centre)."""

    start: Point
    end: Point
    via: Point | None = None
    full_circle: bool = False

    @property
    def curved(self) -> bool:
        return self.via is not None

    @cached_property
    def circle(self) -> tuple[np.ndarray, float, float, float]:
        """(centre, radius, angle of ``start``, signed sweep to ``end`` in radians)."""
        via = self.via
        assert via is not None, "only an arc has a circle"
        if self.full_circle:
            centre = np.asarray(via, float)
            offset = np.asarray(self.start, float) - centre
            return centre, float(np.hypot(*offset)), math.atan2(offset[1], offset[0]), 2 * math.pi
        first, second, third = sorted((self.start, via, self.end))  # the same centre in any order
        found = _circumcentre(first, second, third)
        assert found is not None, "a curved side has three points not in a line"
        centre = found
        a1, a3, a2 = (math.atan2(p[1] - centre[1], p[0] - centre[0]) for p in (self.start, via, self.end))
        ccw = (a2 - a1) % (2 * math.pi)
        sweep = ccw if (a3 - a1) % (2 * math.pi) < ccw else ccw - 2 * math.pi
        return centre, float(np.hypot(*(np.asarray(self.start) - centre))), a1, sweep

    @property
    def n_facets(self) -> int:
        if not self.curved:
            return 1
        sweep = abs(self.circle[3])
        return max(MIN_FACETS, math.ceil(sweep / (2 * math.acos(1 - MAX_SAGITTA))))

    def points(self) -> np.ndarray:
        """The side's vertices from ``start``, without ``end``: (n_facets, 2)."""
        if not self.curved:
            return np.array([self.start], float)
        centre, radius, a1, sweep = self.circle
        n = self.n_facets
        if self.full_circle:
            steps = a1 + sweep * np.arange(n) / n
            return centre + radius * np.stack([np.cos(steps), np.sin(steps)], axis=1)
        # walk from the smaller end point, so walking the arc either way gives the same points
        flip = tuple(self.end) < tuple(self.start)
        first, last = (self.end, self.start) if flip else (self.start, self.end)
        offset = np.asarray(first, float) - centre
        a_first = math.atan2(offset[1], offset[0])
        a_last = math.atan2(last[1] - centre[1], last[0] - centre[0])
        ccw = (a_last - a_first) % (2 * math.pi)
        steps = a_first + (ccw if (sweep > 0) != flip else ccw - 2 * math.pi) * np.arange(n + 1) / n
        points = centre + float(np.hypot(*offset)) * np.stack([np.cos(steps), np.sin(steps)], axis=1)
        points[0], points[-1] = first, last
        return (points[::-1] if flip else points)[:n]

    def midpoint(self) -> np.ndarray:
        """The point halfway along the side."""
        if not self.curved:
            return (np.asarray(self.start, float) + np.asarray(self.end, float)) / 2
        centre, radius, a1, sweep = self.circle
        middle = a1 + sweep / 2
        return centre + radius * np.array([math.cos(middle), math.sin(middle)])


@dataclass(frozen=True)
class Outline:
    """The shape a curved glass was given: a ray-optics path, or a circle (``centre``, ``rim``)."""

    path: tuple[PathPoint, ...] = ()
    circle: tuple[Point, Point] | None = None

    def __post_init__(self) -> None:
        path = tuple((float(x), float(y), bool(arc)) for x, y, arc in self.path)
        object.__setattr__(self, "path", path)
        if self.circle is not None:
            centre, rim = (tuple(map(float, p)) for p in self.circle)
            object.__setattr__(self, "circle", (centre, rim))
            if path:
                raise ValueError("an outline is a path or a circle, not both")
        values = [v for x, y, _ in path for v in (x, y)] + [v for p in self.circle or () for v in p]
        if not all(math.isfinite(v) for v in values):
            raise ValueError("an outline's points must be finite numbers")
        if self.circle is not None and self.circle[0] == self.circle[1]:
            raise ValueError("a circle needs a radius > 0")
        if self.circle is None and len(path) < 3:
            raise ValueError("a glass path needs at least 3 points")
        for i, (_, _, arc) in enumerate(path):
            if arc and path[(i + 1) % len(path)][2]:
                raise ValueError(f"path points {i} and {(i + 1) % len(path)} are both arc points")

    @cached_property
    def sides(self) -> tuple[Side, ...]:
        """The sides in path order (a circle has one)."""
        if self.circle is not None:
            centre, rim = self.circle
            return (Side(rim, rim, centre, full_circle=True),)
        path, k = self.path, len(self.path)
        sides: list[Side] = []
        for i in range(k):
            here, after = path[i], path[(i + 1) % k]
            if here[2]:
                continue  # an arc point: inside the side that started at the point before
            if not after[2]:
                sides.append(Side(here[:2], after[:2]))
                continue
            end = path[(i + 2) % k][:2]
            curved = _circumcentre(here[:2], after[:2], end) is not None
            sides.append(Side(here[:2], end, after[:2] if curved else None))
        return tuple(sides)

    @property
    def curved(self) -> bool:
        return any(side.curved for side in self.sides)

    @cached_property
    def tessellation(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(vertices (n, 2), side of each edge, facet of each edge within its side)."""
        parts = [side.points() for side in self.sides]
        counts = [len(part) for part in parts]
        side_of = np.repeat(np.arange(len(parts)), counts)
        facet_of = np.concatenate([np.arange(c) for c in counts])
        return np.concatenate(parts), side_of, facet_of

    @property
    def centre(self) -> np.ndarray:
        """ray-optics' centre of a glass: the mean of its path points (a circle's centre)."""
        if self.circle is not None:
            return np.asarray(self.circle[0], float)
        return np.array([(x, y) for x, y, _ in self.path]).mean(axis=0)

    def translated(self, dx: float, dy: float) -> Outline:
        if self.circle is not None:
            (cx, cy), (rx, ry) = self.circle
            return Outline(circle=((cx + dx, cy + dy), (rx + dx, ry + dy)))
        return Outline(path=tuple((x + dx, y + dy, arc) for x, y, arc in self.path))


def _circumcentre(a: Point, b: Point, c: Point) -> np.ndarray | None:
    """The centre of the circle through three points; None when they are (nearly) in a line."""
    bx, by = b[0] - a[0], b[1] - a[1]
    cx, cy = c[0] - a[0], c[1] - a[1]
    d = 2 * (bx * cy - by * cx)
    scale = max(math.hypot(bx, by), math.hypot(cx, cy))
    if abs(d) <= 1e-12 * scale * scale:
        return None
    b2, c2 = bx * bx + by * by, cx * cx + cy * cy
    return np.array([a[0] + (cy * b2 - by * c2) / d, a[1] + (bx * c2 - cx * b2) / d])
