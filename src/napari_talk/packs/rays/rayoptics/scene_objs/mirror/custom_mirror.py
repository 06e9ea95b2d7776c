# SPDX-License-Identifier: Apache-2.0
# SPDX-FileCopyrightText: 2024 The Ray Optics Simulation authors and contributors
# SPDX-FileCopyrightText: 2026 napari-talk contributors
#
# Translated from ray-optics (https://github.com/ricktu288/ray-optics, by Yi-Ting Tu and contributors):
# src/core/sceneObjs/mirror/CustomMirror.js.
# Licensed under the Apache License, Version 2.0 (see LICENSES/Apache-2.0.txt); modified: translated to
# Python and changed for napari-talk (2026).
"""``CustomMirror``: a mirror along y = f(x) over the segment ``p1``–``p2`` (scaled so x runs from
-1 to 1), sampled into a polyline every ``curveStepSize`` and reflected with normals blended between
neighbouring pieces (``curveType`` "smoothNormal") as ray-optics does."""

from __future__ import annotations

import math

import numpy as np

from ...base import (
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
from ...formula import FormulaError
from ..base_filter import FILTER_DEFAULTS, BaseFilter
from ..equation import MAX_CURVE_POINTS, latex_function


class PolylineMirror(BaseFilter):
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
