# SPDX-License-Identifier: Apache-2.0
# SPDX-FileCopyrightText: 2024-2025 The Ray Optics Simulation authors and contributors
# SPDX-FileCopyrightText: 2026 napari-talk contributors
#
# Translated from ray-optics (https://github.com/ricktu288/ray-optics, by Yi-Ting Tu and contributors):
# src/core/sceneObjs/ParamCurveObjMixin.js.
# Licensed under the Apache License, Version 2.0 (see LICENSES/Apache-2.0.txt); modified: translated to
# Python and changed for napari-talk (2026).
"""Objects shaped by parametric curves: ``pieces`` of (x(t), y(t)) for t from ``tMin`` to ``tMax`` in
steps of ``tStep``, offset by ``origin``, sampled into a polyline as ray-optics samples them. Normals
are blended between neighbouring pieces (``curveType`` "smoothNormal") or taken per piece
("polygonal"). In "cubicBezier" mode each pair of neighbouring samples of a piece is joined by the
cubic matching the curve's position and derivative (x'(t), y'(t), differentiated symbolically) at
both ends, and rays meet those cubics exactly."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ..base import (
    Point,
    Ray,
    SceneError,
    SceneObj,
    dist_sq,
    lines_intersection,
    on_ray,
    on_segment,
    segment_crossings,
)
from ..bezier import CubicBezier
from ..formula import Formula, FormulaError, compile_tree, derivative, parse
from .equation import latex_function

MAX_SAMPLES = 200_000


DEFAULT_PIECES = [
    {
        "eqnX": "50\\cdot\\cos\\left(t\\right)",
        "eqnY": "50\\cdot\\sin\\left(t\\right)",
        "tMin": 0,
        "tMax": 2 * math.pi,
        "tStep": 0.01,
    }
]


@dataclass
class Crossing:
    point: Point
    normal: Point
    kind: float
    position: float


class ParamCurve(SceneObj):
    """The sampled path (points with their piece and t) and the ray crossings with it."""

    def setup_curve(self) -> None:
        if self.curveType not in ("polygonal", "smoothNormal", "cubicBezier"):
            self.props["curveType"] = "smoothNormal"
        bezier = self.curveType == "cubicBezier"
        origin = self.origin if isinstance(self.origin, dict) else {"x": 0, "y": 0}
        ox, oy = float(origin.get("x", 0)), float(origin.get("y", 0))
        pieces = self.pieces if isinstance(self.pieces, list) else []
        path: list[tuple[float, float, float]] = []
        slopes: list[tuple[float, float]] = []
        piece_of: list[int] = []
        for n, piece in enumerate(pieces, 1):
            if not isinstance(piece, dict):
                raise SceneError(f"piece {n} is not an object")
            fx = latex_function(piece.get("eqnX"), ("t",))
            fy = latex_function(piece.get("eqnY"), ("t",))
            if bezier:
                dx, dy = _slope(piece.get("eqnX"), n), _slope(piece.get("eqnY"), n)
            t_min, t_max, t_step = (float(piece.get(k, 0)) for k in ("tMin", "tMax", "tStep"))
            if not t_step > 0 or not t_min < t_max:
                raise SceneError(f"piece {n} needs tMin < tMax and tStep > 0")
            if (t_max - t_min) / t_step + len(path) > MAX_SAMPLES:
                raise SceneError(f"piece {n} samples more than {MAX_SAMPLES} points")

            ts = [t_min]
            t = t_min + t_step
            while t < t_max:
                ts.append(t)
                t += t_step
            ts.append(t_max)
            path.extend((ox + fx({"t": t}), oy + fy({"t": t}), t) for t in ts)
            piece_of.extend([n] * len(ts))
            if bezier:
                slopes.extend((dx({"t": t}), dy({"t": t})) for t in ts)
        self.path = path
        self.bezier: list[CubicBezier | None] = []
        if bezier:
            if not all(math.isfinite(v) for xy in slopes for v in xy):
                raise SceneError("the curve's derivative is not finite everywhere on it")
            self.bezier = [
                _hermite(path[i], path[i + 1], slopes[i], slopes[i + 1])
                if piece_of[i] == piece_of[i + 1]
                else None  # the gap between two pieces is not part of the curve
                for i in range(len(path) - 1)
            ]
            hull = np.full((len(self.bezier), 4), np.nan)
            for i, c in enumerate(self.bezier):
                if c is not None:
                    xs, ys = [q[0] for q in c.points], [q[1] for q in c.points]
                    hull[i] = (min(xs), max(xs), min(ys), max(ys))
            margin = 1e-6 * self.settings.length_scale
            self._hull = hull + np.array([-margin, margin, -margin, margin])
        xy = np.array([(x, y) for x, y, _ in path], dtype=float).reshape(-1, 2)
        self._a = xy[:-1]
        self._b = xy[1:]
        if len(xy):
            self.bbox = (
                float(xy[:, 0].min()),
                float(xy[:, 0].max()),
                float(xy[:, 1].min()),
                float(xy[:, 1].max()),
            )
        else:
            self.bbox = (math.inf, -math.inf, math.inf, -math.inf)

    def _candidates(self, ray: Ray) -> np.ndarray:
        """Indices of the path segments the ray crosses (the same tests, vectorized)."""
        a, b = self._a, self._b
        if not len(a):
            return np.zeros(0, dtype=int)
        crossed, px, py = segment_crossings(ray, a, b)
        with np.errstate(all="ignore"):
            far = (ray.p1[0] - px) ** 2 + (ray.p1[1] - py) ** 2 > 1e-10
        return np.flatnonzero(crossed & far)

    def crossings(self, ray: Ray) -> list[Crossing]:
        if self.bezier:
            return self._bezier_crossings(ray)
        out: list[Crossing] = []
        path = self.path
        smooth = self.curveType == "smoothNormal"
        rdx, rdy = ray.p2[0] - ray.p1[0], ray.p2[1] - ray.p1[1]
        for i in self._candidates(ray).tolist():
            a, b = path[i][:2], path[i + 1][:2]
            p = lines_intersection(ray.p1, ray.p2, a, b)
            if not (on_segment(p, a, b) and on_ray(p, ray.p1, ray.p2) and dist_sq(ray.p1, p) > 1e-10):
                continue
            seg_len = math.sqrt(dist_sq(a, b))
            ratio = math.sqrt(dist_sq(a, p)) / seg_len if seg_len > 1e-10 else 0.0
            position = path[i][2] + (path[i + 1][2] - path[i][2]) * ratio
            tx, ty = b[0] - a[0], b[1] - a[1]
            tl = math.sqrt(tx * tx + ty * ty)
            if tl <= 1e-10:
                out.append(Crossing(p, (math.nan, math.nan), math.nan, position))
                continue
            kind, nx, ny = _side_and_normal(rdx, rdy, tx / tl, ty / tl)
            frac = (p[0] - a[0]) / tx if abs(tx) > abs(ty) else (p[1] - a[1]) / ty
            if smooth and ((i > 0 and frac < 0.5) or (i < len(path) - 2 and frac >= 0.5)):
                if frac < 0.5:
                    c, d = path[i - 1][:2], path[i][:2]
                else:
                    c, d = path[i + 1][:2], path[i + 2][:2]
                ax, ay = d[0] - c[0], d[1] - c[1]
                al = math.sqrt(ax * ax + ay * ay)
                if al > 0 and al / tl < 10 and tl / al < 10:
                    vx, vy = ax / al, ay / al
                    rdots_a = rdx * vx + rdy * vy
                    mx, my = rdots_a * vx - rdx, rdots_a * vy - rdy
                    if frac < 0.5:
                        nx, ny = nx * (0.5 + frac) + mx * (0.5 - frac), ny * (0.5 + frac) + my * (0.5 - frac)
                    else:
                        nx, ny = mx * (frac - 0.5) + nx * (1.5 - frac), my * (frac - 0.5) + ny * (1.5 - frac)
            nl = math.sqrt(nx * nx + ny * ny)
            normal = (nx / nl, ny / nl) if nl > 0 else (math.nan, math.nan)
            out.append(Crossing(p, normal, kind, position))
        return out

    def _bezier_crossings(self, ray: Ray) -> list[Crossing]:
        out: list[Crossing] = []
        scale = self.settings.length_scale
        far = 1e9 * scale
        rdx, rdy = ray.p2[0] - ray.p1[0], ray.p2[1] - ray.p1[1]
        end = (ray.p1[0] + rdx * far, ray.p1[1] + rdy * far)
        near_sq = 1e-10 * scale * scale
        for i in self._hull_hits(ray.p1, (rdx, rdy)).tolist():
            curve = self.bezier[i]
            assert curve is not None
            for u in curve.line_intersects(ray.p1, end):
                p = curve.get(u)
                if not on_ray(p, ray.p1, ray.p2) or dist_sq(ray.p1, p) <= near_sq:
                    continue
                position = self.path[i][2] + u * (self.path[i + 1][2] - self.path[i][2])
                tx, ty = curve.derivative(u)
                tl = math.hypot(tx, ty)
                if tl <= 1e-10:
                    out.append(Crossing(p, (math.nan, math.nan), math.nan, position))
                    continue
                kind, nx, ny = _side_and_normal(rdx, rdy, tx / tl, ty / tl)
                nl = math.hypot(nx, ny)
                normal = (nx / nl, ny / nl) if nl > 0 else (math.nan, math.nan)
                out.append(Crossing(p, normal, kind, position))
        return out

    def _hull_hits(self, start: Point, direction: Point) -> np.ndarray:
        """The cubics whose control-point box the half-line from ``start`` meets (a cubic lies in
        its control points' hull, so no other one can be crossed)."""
        h = self._hull
        with np.errstate(all="ignore"):
            near, far = np.zeros(len(h)), np.full(len(h), np.inf)
            for k, (lo, hi) in enumerate(((h[:, 0], h[:, 1]), (h[:, 2], h[:, 3]))):
                o, d = start[k], direction[k]
                if d == 0:
                    far = np.where((lo <= o) & (o <= hi), far, -np.inf)
                    continue
                a, b = (lo - o) / d, (hi - o) / d
                near = np.maximum(near, np.minimum(a, b))
                far = np.minimum(far, np.maximum(a, b))
            return np.flatnonzero(near <= far)

    def matching(self, ray: Ray, point: Point) -> Crossing | None:
        for c in self.crossings(ray):
            if dist_sq(point, c.point) < 1e-10:
                return c
        return None

    def on_curve(self, p: Point) -> bool:
        if self.bezier:
            given = self.props.get("intersectTol")
            tol = given if given is not None else 1e-4 * self.settings.length_scale
            return any(
                c is not None and not c.farther_than(p, tol) and c.project_distance(p) ** 2 < tol * tol
                for c in self.bezier
            )
        tol = self.props.get("intersectTol", 1e-3)
        x0, x1, y0, y1 = self.bbox
        if not (x0 - 2 * tol <= p[0] <= x1 + 2 * tol and y0 - 2 * tol <= p[1] <= y1 + 2 * tol):
            return False
        a, b = self._a, self._b
        with np.errstate(all="ignore"):
            dx, dy = b[:, 0] - a[:, 0], b[:, 1] - a[:, 1]
            ls = dx * dx + dy * dy
            t = np.clip(((p[0] - a[:, 0]) * dx + (p[1] - a[:, 1]) * dy) / ls, 0.0, 1.0)
            ex, ey = p[0] - (a[:, 0] + t * dx), p[1] - (a[:, 1] + t * dy)
            near = np.sqrt(ex * ex + ey * ey) <= tol
        return bool(np.any(near & (ls >= 1e-20)))

    def winding_crossings(self, p: Point) -> int:
        if self.bezier:
            scale = self.settings.length_scale
            start = (p[0] + 1e-9 * scale, p[1])
            end = (p[0] + 1e9 * scale, p[1])
            return sum(
                1
                for i in self._hull_hits(start, (1.0, 0.0)).tolist()
                for u in self.bezier[i].line_intersects(start, end)
                if self.bezier[i].get(u)[0] > start[0]
            )
        _, x1, y0, y1 = self.bbox
        if p[1] > y1 or p[1] <= y0 or p[0] >= x1:
            return 0
        a, b = self._a, self._b
        lo = np.where((a[:, 1] > b[:, 1])[:, None], b, a)
        hi = np.where((a[:, 1] > b[:, 1])[:, None], a, b)
        with np.errstate(all="ignore"):
            dxs, dys = b[:, 0] - a[:, 0], b[:, 1] - a[:, 1]
            valid = ((dxs * dxs + dys * dys) >= 1e-20) & ~(p[1] > hi[:, 1]) & ~(p[1] <= lo[:, 1])
            valid &= ~(np.abs(hi[:, 1] - lo[:, 1]) < 1e-10)
            x = lo[:, 0] + (p[1] - lo[:, 1]) / (hi[:, 1] - lo[:, 1]) * (hi[:, 0] - lo[:, 0])
        return int(np.count_nonzero(valid & (x > p[0])))


def _side_and_normal(rdx: float, rdy: float, ux: float, uy: float) -> tuple[float, float, float]:
    """Which side the ray (rdx, rdy) meets a curve of unit tangent (ux, uy) from (1, -1, or NaN
    when it runs along it), and the curve's normal facing the ray, unnormalised."""
    cross = rdx * uy - rdy * ux
    kind = 1.0 if cross > 1e-10 else -1.0 if cross < -1e-10 else math.nan
    rdots = rdx * ux + rdy * uy
    return kind, rdots * ux - rdx, rdots * uy - rdy


def _slope(eqn: object, n: int) -> Callable[[dict[str, float]], float]:
    """d/dt of a piece's equation, for the cubic-Bézier mode."""
    try:
        formula = eqn if isinstance(eqn, Formula) else parse(str(eqn), latex=True, known=frozenset({"t"}))
        return compile_tree(derivative(formula.tree, "t"))
    except FormulaError as exc:
        raise SceneError(f"piece {n}: the cubic-Bézier mode needs the derivative: {exc}") from None


def _hermite(
    a: tuple[float, float, float],
    b: tuple[float, float, float],
    da: tuple[float, float],
    db: tuple[float, float],
) -> CubicBezier:
    """The cubic through ``a`` and ``b`` whose ends have the curve's derivatives (t mapped to 0..1)."""
    dt = b[2] - a[2]
    p0, p3 = (a[0], a[1]), (b[0], b[1])
    if abs(dt) < 1e-20:
        return CubicBezier([p0, p0, p3, p3])
    p1 = (p0[0] + da[0] * dt / 3, p0[1] + da[1] * dt / 3)
    p2 = (p3[0] - db[0] * dt / 3, p3[1] - db[1] * dt / 3)
    return CubicBezier([p0, p1, p2, p3])
