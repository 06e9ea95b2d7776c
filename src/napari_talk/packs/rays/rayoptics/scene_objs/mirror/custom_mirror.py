# SPDX-License-Identifier: Apache-2.0
# SPDX-FileCopyrightText: 2024 The Ray Optics Simulation authors and contributors
# SPDX-FileCopyrightText: 2026 napari-talk contributors
#
# Translated from ray-optics (https://github.com/ricktu288/ray-optics, by Yi-Ting Tu and contributors):
# src/core/sceneObjs/mirror/CustomMirror.js, src/core/sceneObjs/mirror/ParabolicMirror.js,
# src/core/sceneObjs/glass/CustomGlass.js.
# Licensed under the Apache License, Version 2.0 (see LICENSES/Apache-2.0.txt); modified: translated to
# Python and changed for napari-talk (2026).
"""Mirrors shaped by an equation: ``CustomMirror`` (y = f(x) over the segment ``p1``–``p2``,
scaled so x runs from -1 to 1), sampled into a polyline every ``curveStepSize`` and reflected with
normals blended between neighbouring pieces (``curveType`` "smoothNormal") as ray-optics does."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from .base import (
    Incident,
    Point,
    Ray,
    SceneError,
    SceneObj,
    crossed_segments,
    dist_sq,
    js_div,
    lines_intersection,
    on_ray,
    on_segment,
)
from .expr import Formula, FormulaError, compile_tree, parse
from .glasses import BaseGlass
from .surfaces import FILTER_DEFAULTS, Filtered

MAX_CURVE_POINTS = 200_000


def latex_function(eqn: Any, variables: tuple[str, ...]) -> Any:
    """A compiled formula from a scene's LaTeX text (or a module's already-parsed equation)."""
    if isinstance(eqn, Formula):
        formula = eqn
    elif isinstance(eqn, str):
        formula = parse(eqn, latex=True, known=frozenset(variables))
    else:
        raise SceneError(f"an equation should be text, not {str(eqn)[:40]!r}")
    unknown = set(formula.variables) - set(variables) - {"pi", "e"}
    if unknown:
        raise SceneError(
            f"the equation {formula.text[:60]!r} uses unknown names: {', '.join(sorted(unknown))}"
        )
    return compile_tree(formula.tree)


class PolylineMirror(Filtered):
    """A mirror along ``points`` (set by ``setup``), reflecting with blended (smooth) normals."""

    smooth = True

    def setup(self) -> None:
        self.points: list[Point] = []
        self.hit_index = 0
        self._a = self._b = np.zeros((0, 2))

    def intersect(self, ray: Ray) -> Point | None:
        pts = self.points
        if len(pts) < 2 or not self.passes_filter(ray):
            return None
        forward = self._forward(ray)
        best: Point | None = None
        best_d = math.inf
        min_len = 1e-6 * self.settings.length_scale
        crossed = crossed_segments(ray, self._a, self._b)
        for i in crossed if forward else reversed(crossed):
            a, b = pts[i], pts[i + 1]
            p = lines_intersection(ray.p1, ray.p2, a, b)
            d = math.sqrt(dist_sq(ray.p1, p))
            if d < min_len:
                continue
            if on_segment(p, a, b) and on_ray(p, ray.p1, ray.p2) and (best is None or d < best_d):
                best, best_d = p, d
                self.hit_index = i
        return best

    def _forward(self, ray: Ray) -> bool:
        return True

    def incident(self, ray: Ray, index: int, point: Point, merging: list[SceneObj]) -> None:
        pts = self.points
        i = self.hit_index
        rx = ray.p1[0] - point[0]
        ry = ray.p1[1] - point[1]
        a, b = pts[i], pts[i + 1]
        mx, my = b[0] - a[0], b[1] - a[1]
        ray.p1 = point
        frac = js_div(point[0] - a[0], mx) if abs(mx) > abs(my) else js_div(point[1] - a[1], my)

        def mirrored(mx: float, my: float) -> Point:
            return (
                point[0] + rx * (my * my - mx * mx) - 2 * ry * mx * my,
                point[1] + ry * (mx * mx - my * my) - 2 * rx * mx * my,
            )

        out = mirrored(mx, my)
        if not self.smooth or (i == 0 and frac < 0.5) or (i == len(pts) - 2 and frac >= 0.5):
            ray.p2 = out
            return
        if frac < 0.5:
            c, d = pts[i - 1], pts[i]
        else:
            c, d = pts[i + 1], pts[i + 2]
        other = mirrored(d[0] - c[0], d[1] - c[1])
        if frac < 0.5:
            ray.p2 = (
                out[0] * (0.5 + frac) + other[0] * (0.5 - frac),
                out[1] * (0.5 + frac) + other[1] * (0.5 - frac),
            )
        else:
            ray.p2 = (
                other[0] * (frac - 0.5) + out[0] * (1.5 - frac),
                other[1] * (frac - 0.5) + out[1] * (1.5 - frac),
            )


class CustomMirror(PolylineMirror):
    type = "CustomMirror"
    defaults = {
        "p1": None,
        "p2": None,
        "eqn": "0.5\\cdot\\sqrt{1-x^2}",
        "curveStepSize": 0.1000001,
        "curveType": "smoothNormal",
        **FILTER_DEFAULTS,
    }

    def setup(self) -> None:
        super().setup()
        if self.curveType not in ("smoothNormal", "linear"):
            raise SceneError(f"curveType {self.curveType!r} is not traced (smoothNormal and linear are)")
        self.smooth = self.curveType == "smoothNormal"
        if self.p1 == self.p2 or not self.curveStepSize > 1e-6:
            return
        fn = latex_function(self.eqn, ("x",))
        (x1, y1), (x2, y2) = self.p1, self.p2
        length = math.sqrt(dist_sq(self.p1, self.p2))
        d1 = ((x2 - x1) / length, (y2 - y1) / length)
        d2 = (d1[1], -d1[0])
        step = self.curveStepSize * self.settings.length_scale
        if length / step > MAX_CURVE_POINTS:
            raise SceneError(f"curveStepSize {self.curveStepSize} gives more than {MAX_CURVE_POINTS} points")
        i = -step
        while i < length + 0.9 * step:
            ix = min(max(i + 0.5 * step, 0.0), length)
            sx = 2 * (ix - length / 2) / length
            try:
                y = fn({"x": sx}) * length * 0.5
            except (FormulaError, TypeError):
                y = math.nan
            self.points.append((x1 + d1[0] * ix + d2[0] * y, y1 + d1[1] * ix + d2[1] * y))
            i += step
        xy = np.array(self.points, dtype=float).reshape(-1, 2)
        self._a, self._b = xy[:-1], xy[1:]

    def _forward(self, ray: Ray) -> bool:
        return math.sqrt(dist_sq(self.p2, ray.p1)) > math.sqrt(dist_sq(self.p1, ray.p1))


class ParabolicMirror(Filtered):
    """A parabola with its vertex at ``p3`` through the ends ``p1`` and ``p2``, intersected exactly."""

    type = "ParabolicMirror"
    defaults = {"p1": None, "p2": None, "p3": None, **FILTER_DEFAULTS}
    point_keys = ("p1", "p2", "p3")
    merges_with_glass = True

    def setup(self) -> None:
        (x1, y1), (x2, y2) = self.p1, self.p2
        self.length = math.sqrt(dist_sq(self.p1, self.p2))
        self.u = ((x2 - x1) / self.length, (y2 - y1) / self.length) if self.length else (math.nan, math.nan)
        self.v = (self.u[1], -self.u[0])
        x3, y3 = self.p3
        self.degenerate = abs((x2 - x1) * (y3 - y1) - (x3 - x1) * (y2 - y1)) < 1e-10
        local = self.local(self.p1)
        self.a = js_div(local[1], local[0] * local[0])

    def local(self, p: Point) -> Point:
        dx, dy = p[0] - self.p3[0], p[1] - self.p3[1]
        return dx * self.u[0] + dy * self.u[1], dx * self.v[0] + dy * self.v[1]

    def world(self, p: Point) -> Point:
        return (
            self.p3[0] + p[0] * self.u[0] + p[1] * self.v[0],
            self.p3[1] + p[0] * self.u[1] + p[1] * self.v[1],
        )

    def intersect(self, ray: Ray) -> Point | None:
        if not self.passes_filter(ray):
            return None
        min_len = 1e-6 * self.settings.length_scale
        if self.degenerate:
            p = lines_intersection(ray.p1, ray.p2, self.p1, self.p2)
            if (
                on_segment(p, self.p1, self.p2)
                and on_ray(p, ray.p1, ray.p2)
                and math.sqrt(dist_sq(ray.p1, p)) >= min_len
            ):
                return p
            return None
        q1, q2 = self.local(ray.p1), self.local(ray.p2)
        dx, dy = q2[0] - q1[0], q2[1] - q1[1]
        d = math.sqrt(dx * dx + dy * dy)
        vx, vy = dx / d, dy / d
        a = self.a
        half = self.length / 2
        if abs(vx) < 1e-10:
            x = q1[0]
            y = a * x * x
            t = js_div(y - q1[1], vy)
            return self.world((x, y)) if t > min_len and abs(x) <= half else None
        qa = a * vx * vx
        qb = 2 * a * q1[0] * vx - vy
        qc = a * q1[0] * q1[0] - q1[1]
        disc = qb * qb - 4 * qa * qc
        if disc < 0:
            return None
        root = math.sqrt(disc)
        t1 = js_div(-qb - root, 2 * qa) if qb > 0 else js_div(-qb + root, 2 * qa)
        t2 = js_div(qc, qa * t1)
        best: tuple[float, Point] | None = None
        for t in (t1, t2):
            if t > min_len:
                x, y = q1[0] + t * vx, q1[1] + t * vy
                if abs(x) <= half and (best is None or t < best[0]):
                    best = (t, self.world((x, y)))
        return best[1] if best else None

    def incident(self, ray: Ray, index: int, point: Point, merging: list[SceneObj]) -> None:
        if self.degenerate:
            dx, dy = self.p2[0] - self.p1[0], self.p2[1] - self.p1[1]
            length = math.sqrt(dx * dx + dy * dy)
            nx, ny = -dy / length, dx / length
            vx, vy = point[0] - ray.p1[0], point[1] - ray.p1[1]
            d = math.sqrt(vx * vx + vy * vy)
            vx, vy = vx / d, vy / d
            dot = vx * nx + vy * ny
            ray.p1 = point
            ray.p2 = (point[0] + vx - 2 * dot * nx, point[1] + vy - 2 * dot * ny)
            return
        hit, start = self.local(point), self.local(ray.p1)
        dx, dy = hit[0] - start[0], hit[1] - start[1]
        d = math.sqrt(dx * dx + dy * dy)
        vx, vy = dx / d, dy / d
        nx, ny = -2 * self.a * hit[0], 1.0
        nl = math.sqrt(nx * nx + ny * ny)
        nx, ny = nx / nl, ny / nl
        dot = vx * nx + vy * ny
        ray.p1 = point
        ray.p2 = self.world((hit[0] + vx - 2 * dot * nx, hit[1] + vy - 2 * dot * ny))


class CustomGlass(BaseGlass):
    """A glass between two equations over the segment ``p1``–``p2`` (x from -1 to 1): ``eqn1``
    below and ``eqn2`` above, sampled every ``curveStepSize`` into one closed outline."""

    type = "CustomGlass"
    defaults = {
        "p1": None,
        "p2": None,
        "eqn1": "0",
        "eqn2": "0.5\\cdot\\sqrt{1-x^2}",
        "curveStepSize": 0.1000001,
        "curveType": "smoothNormal",
        "refIndex": 1.5,
        "cauchyB": 0.004,
        "partialReflect": True,
    }

    def setup(self) -> None:
        if self.curveType not in ("smoothNormal", "linear", "polygonal"):
            raise SceneError(f"curveType {self.curveType!r} is not traced (smoothNormal and linear are)")
        self.smooth = self.curveType == "smoothNormal"
        self.path: list[Point] = []
        self.hit_index = 0
        self._a = self._b = np.zeros((0, 2))
        if not self.curveStepSize > 1e-6 or self.p1 == self.p2:
            return
        fns = [latex_function(self.eqn1, ("x",)), latex_function(self.eqn2, ("x",))]
        path = [self.p1]
        step = self.curveStepSize * self.settings.length_scale
        for side in (0, 1):
            a, b = (self.p1, self.p2) if side == 0 else (self.p2, self.p1)
            length = math.sqrt(dist_sq(a, b))
            if length / step > MAX_CURVE_POINTS:
                raise SceneError(
                    f"curveStepSize {self.curveStepSize} gives more than {MAX_CURVE_POINTS} points"
                )
            d1 = ((b[0] - a[0]) / length, (b[1] - a[1]) / length)
            d2 = (d1[1], -d1[0])
            i = -step
            while i < length + 0.9 * step:
                ix = min(max(i + 0.5 * step, 0.0), length)
                sx = 2 * (ix - length / 2) / length
                sign = 1 if side == 0 else -1
                sy = sign * fns[side]({"x": sx if side == 0 else -sx})
                if side == 1 and -sy < fns[0]({"x": -sx}):
                    raise SceneError("eqn2 lies below eqn1 somewhere: the glass has no inside")
                y = sy * length * 0.5
                path.append((a[0] + d1[0] * ix + d2[0] * y, a[1] + d1[1] * ix + d2[1] * y))
                i += step
        self.path = path
        xy = np.array(path, dtype=float)
        self._a, self._b = xy, np.roll(xy, -1, axis=0)

    def intersect(self, ray: Ray) -> Point | None:
        pts = self.path
        n = len(pts)
        min_sq = self.settings.min_len_sq
        best: Point | None = None
        best_len = math.inf
        best_index = -1
        for i in crossed_segments(ray, self._a, self._b):
            a, b = pts[i], pts[(i + 1) % n]
            p = lines_intersection(ray.p1, ray.p2, a, b)
            if not (on_segment(p, a, b) and on_ray(p, ray.p1, ray.p2)):
                continue
            d = dist_sq(ray.p1, p)
            if d <= min_sq:
                continue
            if best is not None and dist_sq(p, best) < min_sq and best_index != i - 1:
                return None
            if d < best_len:
                best, best_len, best_index = p, d, i
        if best is not None:
            self.hit_index = best_index
        return best

    def incident_data(self, ray: Ray) -> tuple[Point, Point, float]:
        pts = self.path
        n = len(pts)
        i = self.hit_index
        a, b = pts[i % n], pts[(i + 1) % n]
        point = lines_intersection(ray.p1, ray.p2, a, b)
        rdx, rdy = ray.p2[0] - ray.p1[0], ray.p2[1] - ray.p1[1]
        sx, sy = b[0] - a[0], b[1] - a[1]
        rdots = rdx * sx + rdy * sy
        cross = rdx * sy - rdy * sx
        ssq = sx * sx + sy * sy
        nx, ny = rdots * sx - ssq * rdx, rdots * sy - ssq * rdy
        kind = 1.0 if cross < 0 else -1.0
        frac = (point[0] - a[0]) / sx if abs(sx) > abs(sy) else js_div(point[1] - a[1], sy)
        if self.smooth:
            if frac < 0.5:
                c, d = pts[(i - 1 + n) % n], pts[i % n]
            else:
                c, d = pts[(i + 1) % n], pts[(i + 2) % n]
            tx, ty = d[0] - c[0], d[1] - c[1]
            rdots_a = rdx * tx + rdy * ty
            ssq_a = tx * tx + ty * ty
            mx, my = rdots_a * tx - ssq_a * rdx, rdots_a * ty - ssq_a * rdy
            if frac < 0.5:
                nx, ny = nx * (0.5 + frac) + mx * (0.5 - frac), ny * (0.5 + frac) + my * (0.5 - frac)
            else:
                nx, ny = mx * (frac - 0.5) + nx * (1.5 - frac), my * (frac - 0.5) + ny * (1.5 - frac)
        return point, (nx, ny), kind

    def incident_type(self, ray: Ray) -> float:
        if self.intersect(ray) is None:
            return math.nan
        return self.incident_data(ray)[2]

    def incident(self, ray: Ray, index: int, point: Point, merging: list[SceneObj]) -> Incident | None:
        _, normal, kind = self.incident_data(ray)
        n1 = self.ref_index_at(point, ray) if kind == 1 else 1 / self.ref_index_at(point, ray)
        return self.refract(ray, index, point, normal, n1, merging, ray.body)
