# SPDX-License-Identifier: Apache-2.0
# SPDX-FileCopyrightText: 2025 The Ray Optics Simulation authors and contributors
# SPDX-FileCopyrightText: 2026 napari-talk contributors
#
# Translated from ray-optics (https://github.com/ricktu288/ray-optics, by Yi-Ting Tu and contributors):
# src/core/sceneObjs/other/CustomSurface.js.
# Licensed under the Apache License, Version 2.0 (see LICENSES/Apache-2.0.txt); modified: translated to
# Python and changed for napari-talk (2026).
"""``CustomSurface``: a custom surface along the segment ``p1``–``p2``."""

from __future__ import annotations

import math

from ...base import Incident, Point, Ray, SceneObj, dist_sq, js_div, lines_intersection, on_ray, on_segment
from ..base_custom_surface import DEFAULT_OUT_RAYS, BaseCustomSurface


class CustomSurface(BaseCustomSurface):
    type = "CustomSurface"
    defaults = {"p1": None, "p2": None, "outRays": DEFAULT_OUT_RAYS, "twoSided": False}

    def setup(self) -> None:
        self.setup_out_rays()

    def incident_type(self, ray: Ray) -> float:
        (ax, ay), (bx, by) = self.p1, self.p2
        cross = (ray.p2[0] - ray.p1[0]) * (by - ay) - (ray.p2[1] - ray.p1[1]) * (bx - ax)
        return 1.0 if cross > 0 else -1.0 if cross < 0 else math.nan

    def intersect(self, ray: Ray) -> Point | None:
        if not self.twoSided and self.incident_type(ray) == -1:
            return None
        p = lines_intersection(ray.p1, ray.p2, self.p1, self.p2)
        return p if on_segment(p, self.p1, self.p2) and on_ray(p, ray.p1, ray.p2) else None

    def incident(self, ray: Ray, index: int, point: Point, merging: list[SceneObj]) -> Incident:
        d1 = math.sqrt(dist_sq(point, self.p1))
        d2 = math.sqrt(dist_sq(point, self.p2))
        position = -1 + 2 * js_div(d1, d1 + d2)
        (ax, ay), (bx, by) = self.p1, self.p2
        rdx, rdy = ray.p2[0] - ray.p1[0], ray.p2[1] - ray.p1[1]
        sx, sy = bx - ax, by - ay
        rdots = rdx * sx + rdy * sy
        ssq = sx * sx + sy * sy
        normal = (rdots * sx - ssq * rdx, rdots * sy - ssq * rdy)
        return self.out_rays(ray, point, normal, position, merging)
