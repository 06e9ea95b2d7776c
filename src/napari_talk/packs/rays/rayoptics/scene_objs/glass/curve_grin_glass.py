# SPDX-License-Identifier: Apache-2.0
# SPDX-FileCopyrightText: 2025 The Ray Optics Simulation authors and contributors
# SPDX-FileCopyrightText: 2026 napari-talk contributors
#
# Translated from ray-optics (https://github.com/ricktu288/ray-optics, by Yi-Ting Tu and contributors):
# src/core/sceneObjs/glass/CurveGrinGlass.js.
# Licensed under the Apache License, Version 2.0 (see LICENSES/Apache-2.0.txt); modified: translated to
# Python and changed for napari-talk (2026).
"""``CurveGrinGlass``: a gradient-index glass bounded by cubic Bézier curves."""

from __future__ import annotations

import math

from ...base import Incident, Point, Ray, SceneObj, dist_sq
from ..base_grin_glass import GRIN_DEFAULTS, GrinMixin
from ..curve_obj_mixin import CurveShape


class CurveGrinGlass(CurveShape, GrinMixin):
    type = "CurveGrinGlass"
    defaults = {
        "points": [],
        "notDone": False,
        "refIndexFn": "1.1+0.1\\cdot\\cos\\left(0.1\\cdot y\\right)",
        **GRIN_DEFAULTS,
    }
    point_keys = ()

    def setup(self) -> None:
        self.setup_curves()
        self.setup_grin()

    def _count_from(self, p: Point) -> int:
        offset = self.settings.rng()
        outside = (self.min_x - offset - 100, p[1] + offset)
        return sum(len(c.line_intersects(p, outside)) for c in self.curves)

    def inside(self, p: Point) -> bool:
        return not self.on_boundary(p) and self._count_from(p) % 2 == 1

    def outside(self, p: Point) -> bool:
        return not self.on_boundary(p) and self._count_from(p) % 2 == 0

    def on_boundary(self, p: Point) -> bool:
        reach = math.sqrt(self.intersectTol) * 1.000001 if self.intersectTol > 0 else 0.0
        for c in self.curves:
            x0, x1, y0, y1 = c.bbox
            if (x0 <= p[0] <= x1) or (y0 <= p[1] <= y1):
                if c.farther_than(p, reach):
                    continue
                if c.project_distance(p) ** 2 <= self.intersectTol:
                    return True
        return False

    def intersect(self, ray: Ray) -> Point | None:
        if self.notDone:
            return None
        stepped = self._step_hit(ray)
        if stepped is not None:
            return stepped
        return self.nearest(ray)[0]

    def _data(self, ray: Ray) -> tuple[Point | None, Point, float]:
        point, t, i, val, count = self.nearest(ray)
        kind = 1.0 if count % 2 == 1 else -1.0
        if point is None:
            return None, (math.nan, math.nan), 0.0
        length = math.sqrt(dist_sq(ray.p1, ray.p2))
        if kind == 1 and length**2 < val and self.inside(ray.p2):
            s = self.stepSize / length
            return (
                (ray.p1[0] + s * (ray.p2[0] - ray.p1[0]), ray.p1[1] + s * (ray.p2[1] - ray.p1[1])),
                (math.nan, math.nan),
                2.0,
            )
        return point, self.curve_normal(ray, i, t), kind

    def incident_type(self, ray: Ray) -> float:
        return self._data(ray)[2]

    def incident(self, ray: Ray, index: int, point: Point, merging: list[SceneObj]) -> Incident | None:
        try:
            hit, normal, kind = self._data(ray)
            if (self.inside(ray.p1) or self.outside(ray.p1)) and self.on_boundary(point):
                saved = ray.body
                if kind == 1:
                    n1 = self.ref_index_at(hit or point, ray)
                    self.on_exit(ray)
                elif kind == -1:
                    n1 = 1 / self.ref_index_at(hit or point, ray)
                    self.on_enter(ray)
                elif kind == 0:
                    n1 = 1.0
                else:
                    return Incident(absorbed=True, undefined=True)
                if hit is None:
                    return Incident(absorbed=True)
                return self.refract(ray, index, hit, normal, n1, merging, saved)
            if ray.body is None:
                ray.body = self.initial_body(ray)
            nxt = self.step(ray.p1, point, ray)
            ray.p1 = point
            ray.p2 = nxt
        except (ZeroDivisionError, OverflowError, ValueError):
            return Incident(absorbed=True)
        return None
