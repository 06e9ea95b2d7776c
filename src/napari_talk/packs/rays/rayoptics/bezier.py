# SPDX-License-Identifier: MIT
# SPDX-FileCopyrightText: 2023 Pomax
# SPDX-FileCopyrightText: 2026 napari-talk contributors
#
# Translated from bezier-js (https://github.com/Pomax/bezierjs): src/bezier.js, src/utils.js. Licensed under
# the MIT License (see LICENSES/MIT-bezier-js.txt); modified: translated to Python and changed for
# napari-talk (2026).
"""Cubic Bézier curves as the ``bezier-js`` library evaluates them for ray-optics' curved glasses:
points, tangents, normals, bounding boxes, exact line crossings (Cardano on the curve aligned
with the line) and the closest-point projection (a 100-sample table, then a finer scan)."""

from __future__ import annotations

import math

import numpy as np

from .base import Point

EPSILON = 1e-6
TAU = 2 * math.pi


def _cbrt(v: float) -> float:
    return -((-v) ** (1 / 3)) if v < 0 else v ** (1 / 3)


def _approx(a: float, b: float) -> bool:
    return abs(a - b) <= EPSILON


def _between(v: float, lo: float, hi: float) -> bool:
    return (lo <= v <= hi) or _approx(v, lo) or _approx(v, hi)


class CubicBezier:
    def __init__(self, points: list[Point]) -> None:
        self.points = points
        self.dpoints = [
            ((points[j + 1][0] - points[j][0]) * 3, (points[j + 1][1] - points[j][1]) * 3) for j in range(3)
        ]
        self.bbox = self._bbox()
        legs = max(
            math.hypot(points[j + 1][0] - points[j][0], points[j + 1][1] - points[j][1]) for j in range(3)
        )
        margin = 0.012 * 3 * legs
        xs, ys = [p[0] for p in points], [p[1] for p in points]
        self.reach = (min(xs) - margin, max(xs) + margin, min(ys) - margin, max(ys) + margin)
        """Where every point ``project_distance`` samples lies (the hull box, widened for its
        slight extrapolation past the ends)."""
        lut = np.linspace(0, 100, 101) / 100
        self._lut = self._compute_many(lut)

    def get(self, t: float) -> Point:
        p = self.points
        if t == 0:
            return p[0]
        if t == 1:
            return p[3]
        mt = 1 - t
        mt2, t2 = mt * mt, t * t
        a, b, c, d = mt2 * mt, mt2 * t * 3, mt * t2 * 3, t * t2
        return (
            a * p[0][0] + b * p[1][0] + c * p[2][0] + d * p[3][0],
            a * p[0][1] + b * p[1][1] + c * p[2][1] + d * p[3][1],
        )

    def derivative(self, t: float) -> Point:
        p = self.dpoints
        if t == 0:
            return p[0]
        if t == 1:
            return p[2]
        mt = 1 - t
        a, b, c = mt * mt, mt * t * 2, t * t
        return a * p[0][0] + b * p[1][0] + c * p[2][0], a * p[0][1] + b * p[1][1] + c * p[2][1]

    def normal(self, t: float) -> Point:
        dx, dy = self.derivative(t)
        q = math.sqrt(dx * dx + dy * dy)
        return -dy / q, dx / q

    def _bbox(self) -> tuple[float, float, float, float]:
        ts = [0.0, 1.0]
        for dim in (0, 1):
            a, b, c = (self.dpoints[k][dim] for k in range(3))
            # roots of the quadratic derivative a(1-t)^2 + 2b(1-t)t + ct^2
            d = a - 2 * b + c
            if d != 0:
                m1 = -math.sqrt(b * b - a * c) if b * b - a * c >= 0 else math.nan
                m2 = -a + b
                for r in ((-(m1 + m2) / d), (-(-m1 + m2) / d)):
                    if 0 <= r <= 1:
                        ts.append(r)
            elif b != c:
                r = (2 * b - c) / (2 * (b - c))
                if 0 <= r <= 1:
                    ts.append(r)
        pts = [self.get(t) for t in ts]
        xs, ys = [p[0] for p in pts], [p[1] for p in pts]
        return min(xs), max(xs), min(ys), max(ys)

    def roots(self, l1: Point, l2: Point) -> list[float]:
        """Parameters in [0, 1] where the curve crosses the infinite line through ``l1``, ``l2``."""
        tx, ty = l1
        a = -math.atan2(l2[1] - ty, l2[0] - tx)
        ca, sa = math.cos(a), math.sin(a)
        ys = [(v[0] - tx) * sa + (v[1] - ty) * ca for v in self.points]
        pa, pb, pc, pd = ys
        d = -pa + 3 * pb - 3 * pc + pd
        qa = 3 * pa - 6 * pb + 3 * pc
        qb = -3 * pa + 3 * pb
        qc = pa

        def keep(values: list[float]) -> list[float]:
            return [t for t in values if 0 <= t <= 1]

        if _approx(d, 0):
            if _approx(qa, 0):
                if _approx(qb, 0):
                    return []
                return keep([-qc / qb])
            disc = qb * qb - 4 * qa * qc
            q = math.sqrt(disc) if disc >= 0 else math.nan
            return keep([(q - qb) / (2 * qa), (-qb - q) / (2 * qa)])
        a3, b3, c3 = qa / d, qb / d, qc / d
        p = (3 * b3 - a3 * a3) / 3
        p3 = p / 3
        q = (2 * a3 * a3 * a3 - 9 * a3 * b3 + 27 * c3) / 27
        q2 = q / 2
        disc = q2 * q2 + p3 * p3 * p3
        if disc < 0:
            mp3 = -p / 3
            r = math.sqrt(mp3 * mp3 * mp3)
            t = -q / (2 * r)
            phi = math.acos(-1 if t < -1 else 1 if t > 1 else t)
            t1 = 2 * _cbrt(r)
            return keep(
                [
                    t1 * math.cos(phi / 3) - a3 / 3,
                    t1 * math.cos((phi + TAU) / 3) - a3 / 3,
                    t1 * math.cos((phi + 2 * TAU) / 3) - a3 / 3,
                ]
            )
        if disc == 0:
            u1 = _cbrt(-q2) if q2 < 0 else -_cbrt(q2)
            return keep([2 * u1 - a3 / 3, -u1 - a3 / 3])
        sd = math.sqrt(disc)
        return keep([_cbrt(-q2 + sd) - _cbrt(q2 + sd) - a3 / 3])

    def line_intersects(self, l1: Point, l2: Point) -> list[float]:
        """Crossings with the segment ``l1``–``l2`` (bounding-box filtered, as bezier-js does)."""
        lo_x, hi_x = min(l1[0], l2[0]), max(l1[0], l2[0])
        lo_y, hi_y = min(l1[1], l2[1]), max(l1[1], l2[1])
        out = []
        for t in self.roots(l1, l2):
            x, y = self.get(t)
            if _between(x, lo_x, hi_x) and _between(y, lo_y, hi_y):
                out.append(t)
        return out

    def _compute(self, t: float) -> Point:
        p = self.points
        mt = 1 - t
        mt2, t2 = mt * mt, t * t
        a, b, c, d = mt2 * mt, mt2 * t * 3, mt * t2 * 3, t * t2
        if t == 0:
            return p[0]
        if t == 1:
            return p[3]
        return (
            a * p[0][0] + b * p[1][0] + c * p[2][0] + d * p[3][0],
            a * p[0][1] + b * p[1][1] + c * p[2][1] + d * p[3][1],
        )

    def _compute_many(self, ts: np.ndarray) -> np.ndarray:
        p = np.asarray(self.points, dtype=float)
        mt = 1 - ts
        mt2, t2 = mt * mt, ts * ts
        a, b, c, d = mt2 * mt, mt2 * ts * 3, mt * t2 * 3, ts * t2
        out = np.stack(
            [
                a * p[0, 0] + b * p[1, 0] + c * p[2, 0] + d * p[3, 0],
                a * p[0, 1] + b * p[1, 1] + c * p[2, 1] + d * p[3, 1],
            ],
            axis=1,
        )
        out[ts == 0] = p[0]
        out[ts == 1] = p[3]
        return out

    def farther_than(self, point: Point, distance: float) -> bool:
        """True when every point ``project_distance`` could sample is farther than ``distance``."""
        x0, x1, y0, y1 = self.reach
        dx = max(x0 - point[0], 0.0, point[0] - x1)
        dy = max(y0 - point[1], 0.0, point[1] - y1)
        return dx * dx + dy * dy > distance * distance

    def project_distance(self, point: Point) -> float:
        """The distance from ``point`` to the curve, as bezier-js's ``project`` estimates it: the
        nearest of 101 samples, then a scan ten times finer around it."""
        steps = 100
        lut = self._lut
        d_lut = np.hypot(point[0] - lut[:, 0], point[1] - lut[:, 1])
        best_i = int(np.argmin(d_lut))
        best_d = float(d_lut[best_i])
        t1, t2 = (best_i - 1) / steps, (best_i + 1) / steps
        step = 0.1 / steps
        ts = []
        t = t1
        while t < t2 + step:
            ts.append(t)
            t += step
        fine = self._compute_many(np.array(ts))
        d_fine = np.hypot(point[0] - fine[:, 0], point[1] - fine[:, 1])
        return min(best_d + 1, float(d_fine.min()))
