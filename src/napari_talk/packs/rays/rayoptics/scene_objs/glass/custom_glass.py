# SPDX-License-Identifier: Apache-2.0
# SPDX-FileCopyrightText: 2024 The Ray Optics Simulation authors and contributors
# SPDX-FileCopyrightText: 2026 napari-talk contributors
#
# Translated from ray-optics (https://github.com/ricktu288/ray-optics, by Yi-Ting Tu and contributors):
# src/core/sceneObjs/glass/CustomGlass.js.
# Licensed under the Apache License, Version 2.0 (see LICENSES/Apache-2.0.txt); modified: translated to
# Python and changed for napari-talk (2026).
"""``CustomGlass``: a glass between two equations over the segment ``p1``–``p2``, sampled every
``curveStepSize`` into one closed outline."""

from __future__ import annotations

import math

import numpy as np

from ...base import (
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
from ..base_glass import BaseGlass
from ..equation import MAX_CURVE_POINTS, latex_function


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
