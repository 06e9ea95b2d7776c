# SPDX-License-Identifier: Apache-2.0
# SPDX-FileCopyrightText: 2025 The Ray Optics Simulation authors and contributors
# SPDX-FileCopyrightText: 2026 napari-talk contributors
#
# Translated from ray-optics (https://github.com/ricktu288/ray-optics, by Yi-Ting Tu and contributors):
# src/core/sceneObjs/other/CustomArcSurface.js.
# Licensed under the Apache License, Version 2.0 (see LICENSES/Apache-2.0.txt); modified: translated to
# Python and changed for napari-talk (2026).
"""``CustomArcSurface``: a custom surface on the arc from ``p1`` to ``p2`` through ``p3``."""

from __future__ import annotations

import math

from ...base import Incident, Point, Ray, SceneObj, dist_sq, js_div, lines_intersection, on_ray, on_segment
from ..base_custom_surface import DEFAULT_OUT_RAYS, BaseCustomSurface
from ..base_glass import Edge


class CustomArcSurface(BaseCustomSurface):
    type = "CustomArcSurface"
    defaults = {"p1": None, "p2": None, "p3": None, "outRays": DEFAULT_OUT_RAYS, "twoSided": False}
    point_keys = ("p1", "p2", "p3")

    def setup(self) -> None:
        self.setup_out_rays()
        self.edge = Edge(self.p1, self.p2, self.p3)

    def _data(self, ray: Ray) -> tuple[Point | None, Point, float]:
        edge = self.edge
        if edge.center is None:
            p = lines_intersection(ray.p1, ray.p2, self.p1, self.p2)
            if not (on_segment(p, self.p1, self.p2) and on_ray(p, ray.p1, ray.p2)):
                return None, (math.nan, math.nan), math.nan
            (ax, ay), (bx, by) = self.p1, self.p2
            rdx, rdy = ray.p2[0] - ray.p1[0], ray.p2[1] - ray.p1[1]
            cross = rdx * (by - ay) - rdy * (bx - ax)
            kind = 1.0 if cross > 0 else -1.0 if cross < 0 else math.nan
            sx, sy = bx - ax, by - ay
            rdots = rdx * sx + rdy * sy
            ssq = sx * sx + sy * sy
            return p, (rdots * sx - ssq * rdx, rdots * sy - ssq * rdy), kind
        c = edge.center
        pts, _, exist, _ = edge.arc_points(ray, self.settings.min_len_sq)
        a1 = math.atan2(self.p1[1] - c[1], self.p1[0] - c[0])
        a2 = math.atan2(self.p2[1] - c[1], self.p2[0] - c[0])
        a3 = math.atan2(self.p3[1] - c[1], self.p3[0] - c[0])
        anticlockwise = (a2 < a3 < a1) or (a1 < a2 < a3) or (a3 < a1 < a2)
        found: list[tuple[float, Point, float, Point]] = []
        for q, ok in zip(pts, exist, strict=True):
            if not ok:
                continue
            tx, ty = -(q[1] - c[1]), q[0] - c[0]
            if anticlockwise:
                tx, ty = -tx, -ty
            rdx, rdy = ray.p2[0] - ray.p1[0], ray.p2[1] - ray.p1[1]
            cross = rdx * ty - rdy * tx
            kind = 1.0 if cross > 0 else -1.0 if cross < 0 else math.nan
            nx, ny = c[0] - q[0], c[1] - q[1]
            if rdx * nx + rdy * ny > 0:
                nx, ny = -nx, -ny
            found.append((dist_sq(ray.p1, q), q, kind, (nx, ny)))
        if not found:
            return None, (math.nan, math.nan), math.nan
        if not self.twoSided and any(f[2] == 1 for f in found):
            found = [f for f in found if f[2] == 1]
        best = min(found, key=lambda f: f[0])
        return best[1], best[3], best[2]

    def incident_type(self, ray: Ray) -> float:
        return self._data(ray)[2]

    def intersect(self, ray: Ray) -> Point | None:
        point, _, kind = self._data(ray)
        if not self.twoSided and kind == -1:
            return None
        return point

    def incident(self, ray: Ray, index: int, point: Point, merging: list[SceneObj]) -> Incident:
        _, normal, _ = self._data(ray)
        c = self.edge.center
        if c is not None:
            a1 = math.atan2(self.p1[1] - c[1], self.p1[0] - c[0])
            a2 = math.atan2(self.p2[1] - c[1], self.p2[0] - c[0])
            ai = math.atan2(point[1] - c[1], point[0] - c[0])
            span = a2 - a1
            at = ai - a1
            if span < 0:
                span += 2 * math.pi
            if at < 0:
                at += 2 * math.pi
            position = -1 + 2 * at / span if abs(span) > 1e-10 else 0.0
        else:
            d1 = math.sqrt(dist_sq(point, self.p1))
            d2 = math.sqrt(dist_sq(point, self.p2))
            position = -1 + 2 * js_div(d1, d1 + d2)
        return self.out_rays(ray, point, normal, position, merging)
