# SPDX-License-Identifier: Apache-2.0
# SPDX-FileCopyrightText: 2024 The Ray Optics Simulation authors and contributors
# SPDX-FileCopyrightText: 2026 napari-talk contributors
#
# Translated from ray-optics (https://github.com/ricktu288/ray-optics, by Yi-Ting Tu and contributors):
# src/core/sceneObjs/glass/CircleGlass.js.
# Licensed under the Apache License, Version 2.0 (see LICENSES/Apache-2.0.txt); modified: translated to
# Python and changed for napari-talk (2026).
"""``CircleGlass``: a disc of glass centred on ``p1`` through ``p2``."""

from __future__ import annotations

import math

from ...base import Incident, Point, Ray, SceneObj, Shape, circle_hit, dist_sq
from ..base_glass import GLASS_DEFAULTS, BaseGlass


class CircleGlass(BaseGlass):
    type = "CircleGlass"
    defaults = {"p1": None, "p2": None, **GLASS_DEFAULTS}

    def intersect(self, ray: Ray) -> Point | None:
        return circle_hit(ray, self.p1, dist_sq(self.p1, self.p2), self.settings.min_len_sq)

    def hit_shape(self) -> Shape:
        return [], [(self.p1, dist_sq(self.p1, self.p2))]

    def _side(self, ray: Ray, point: Point) -> float:
        mid = ((ray.p1[0] + point[0]) * 0.5, (ray.p1[1] + point[1]) * 0.5)
        d = dist_sq(self.p1, self.p2) - dist_sq(self.p1, mid)
        return 1.0 if d > 0 else -1.0 if d < 0 else math.nan

    def incident(self, ray: Ray, index: int, point: Point, merging: list[SceneObj]) -> Incident | None:
        kind = self._side(ray, point)
        c = self.p1
        if kind == 1:
            n1 = self.ref_index_at(point, ray)
            normal = (c[0] - point[0], c[1] - point[1])
        elif kind == -1:
            n1 = 1 / self.ref_index_at(point, ray)
            normal = (point[0] - c[0], point[1] - c[1])
        else:
            return Incident(absorbed=True, undefined=True)
        return self.refract(ray, index, point, normal, n1, merging, ray.body)

    def incident_type(self, ray: Ray) -> float:
        hit = self.intersect(ray)
        if hit is None:
            return math.nan
        return self._side(ray, hit)
