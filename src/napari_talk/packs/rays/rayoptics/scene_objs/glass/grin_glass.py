# SPDX-License-Identifier: Apache-2.0
# SPDX-FileCopyrightText: 2024 The Ray Optics Simulation authors and contributors
# SPDX-FileCopyrightText: 2026 napari-talk contributors
#
# Translated from ray-optics (https://github.com/ricktu288/ray-optics, by Yi-Ting Tu and contributors):
# src/core/sceneObjs/glass/GrinGlass.js.
# Licensed under the Apache License, Version 2.0 (see LICENSES/Apache-2.0.txt); modified: translated to
# Python and changed for napari-talk (2026).
"""``GrinGlass``: a gradient-index glass bounded by a ``path`` (straight sides), inside decided by
the parity of a ray's crossings."""

from __future__ import annotations

import math

from ...base import Point, Ray, dist_sq, lines_intersection, on_ray, on_segment
from ..base_glass import Edge, classify
from ..base_grin_glass import GRIN_DEFAULTS, GrinMixin


class GrinGlass(GrinMixin):
    type = "GrinGlass"
    defaults = {
        "path": [],
        "notDone": False,
        "refIndexFn": "1.1+0.1\\cdot\\cos\\left(0.1\\cdot y\\right)",
        **GRIN_DEFAULTS,
    }
    point_keys = ()

    def setup(self) -> None:
        self.setup_grin()
        pts = [(float(p["x"]), float(p["y"])) for p in self.path]
        self.points = pts
        self.sides = [(pts[i], pts[(i + 1) % len(pts)]) for i in range(len(pts))]
        self.edges = [Edge(a, b) for a, b in self.sides]

    def on_boundary(self, p: Point) -> bool:
        tol = self.intersectTol
        for a, b in self.sides:
            ux, uy = b[0] - a[0], b[1] - a[1]
            vx, vy = p[0] - a[0], p[1] - a[1]
            cross = ux * vy - uy * vx
            if cross - tol < 0 and cross + tol > 0:
                dot = ux * vx + uy * vy
                if dist_sq(a, b) - dot + tol >= 0 and dot + tol >= 0:
                    return True
        return False

    def _crossings(self, p: Point) -> int:
        tol = self.intersectTol
        count = 0
        for a, b in self.sides:
            y_max, y_min = max(a[1], b[1]), min(a[1], b[1])
            if (
                y_max - p[1] - tol > 0
                and y_max - p[1] + tol > 0
                and y_min - p[1] - tol < 0
                and y_min - p[1] + tol < 0
            ):
                if a[0] == b[0] and a[0] - p[0] + tol > 0 and a[0] - p[0] - tol > 0:
                    count += 1
                else:
                    x = a[0] + ((p[1] - a[1]) / (b[1] - a[1])) * (b[0] - a[0]) if b[1] != a[1] else math.nan
                    if x - p[0] - tol > 0 and x - p[0] + tol > 0:
                        count += 1
        return count

    def inside(self, p: Point) -> bool:
        return not self.on_boundary(p) and self._crossings(p) % 2 == 1

    def hit_box(self) -> tuple[float, float, float, float] | None:
        """The path's box, widened by the tolerance its inside and boundary tests allow."""
        if not self.points:
            return None
        xs, ys = [p[0] for p in self.points], [p[1] for p in self.points]
        pad = 2 * abs(self.intersectTol)
        return min(xs) - pad, min(ys) - pad, max(xs) + pad, max(ys) + pad

    def outside(self, p: Point) -> bool:
        return not self.on_boundary(p) and self._crossings(p) % 2 == 0

    def intersect(self, ray: Ray) -> Point | None:
        if self.notDone:
            return None
        stepped = self._step_hit(ray)
        if stepped is not None:
            return stepped
        min_sq = self.settings.min_len_sq
        best: Point | None = None
        best_len = math.inf
        for a, b in self.sides:
            p = lines_intersection(ray.p1, ray.p2, a, b)
            if on_segment(p, a, b) and on_ray(p, ray.p1, ray.p2):
                d = dist_sq(ray.p1, p)
                if min_sq < d < best_len:
                    best, best_len = p, d
        return best

    def incident_type(self, ray: Ray) -> float:
        return self._incident_data(ray)[2]

    def boundary_data(self, ray: Ray, point: Point) -> tuple[Point, Point, float]:
        hit, normal, kind = self._incident_data(ray)
        return (hit if hit is not None else point), normal, kind

    def _incident_data(self, ray: Ray) -> tuple[Point | None, Point, float]:
        return classify(self.edges, self.settings, ray)
