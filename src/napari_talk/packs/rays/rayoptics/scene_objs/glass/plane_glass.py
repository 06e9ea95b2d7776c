# SPDX-License-Identifier: Apache-2.0
# SPDX-FileCopyrightText: 2024 The Ray Optics Simulation authors and contributors
# SPDX-FileCopyrightText: 2026 napari-talk contributors
#
# Translated from ray-optics (https://github.com/ricktu288/ray-optics, by Yi-Ting Tu and contributors):
# src/core/sceneObjs/glass/PlaneGlass.js.
# Licensed under the Apache License, Version 2.0 (see LICENSES/Apache-2.0.txt); modified: translated to
# Python and changed for napari-talk (2026).
"""``PlaneGlass``: the half-plane of glass on one side of the line ``p1``–``p2``."""

from __future__ import annotations

import math

from ...base import Incident, Point, Ray, SceneObj, lines_intersection, on_ray
from ..base_glass import GLASS_DEFAULTS, BaseGlass, n1_for


class PlaneGlass(BaseGlass):
    type = "PlaneGlass"
    defaults = {"p1": None, "p2": None, **GLASS_DEFAULTS}

    def intersect(self, ray: Ray) -> Point | None:
        p = lines_intersection(ray.p1, ray.p2, self.p1, self.p2)
        return p if on_ray(p, ray.p1, ray.p2) else None

    def incident_type(self, ray: Ray) -> float:
        (ax, ay), (bx, by) = self.p1, self.p2
        cross = (ray.p2[0] - ray.p1[0]) * (by - ay) - (ray.p2[1] - ray.p1[1]) * (bx - ax)
        return 1.0 if cross > 0 else -1.0 if cross < 0 else math.nan

    def incident(self, ray: Ray, index: int, point: Point, merging: list[SceneObj]) -> Incident | None:
        (ax, ay), (bx, by) = self.p1, self.p2
        rdx, rdy = ray.p2[0] - ray.p1[0], ray.p2[1] - ray.p1[1]
        sx, sy = bx - ax, by - ay
        rdots = rdx * sx + rdy * sy
        ssq = sx * sx + sy * sy
        normal = (rdots * sx - ssq * rdx, rdots * sy - ssq * rdy)
        kind = self.incident_type(ray)
        if kind not in (1.0, -1.0):
            return Incident(absorbed=True, undefined=True)
        n1 = n1_for(kind, self, point, ray)
        assert n1 is not None
        return self.refract(ray, index, point, normal, n1, merging, ray.body)
