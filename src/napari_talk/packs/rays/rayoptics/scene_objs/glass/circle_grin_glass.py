# SPDX-License-Identifier: Apache-2.0
# SPDX-FileCopyrightText: 2024 The Ray Optics Simulation authors and contributors
# SPDX-FileCopyrightText: 2026 napari-talk contributors
#
# Translated from ray-optics (https://github.com/ricktu288/ray-optics, by Yi-Ting Tu and contributors):
# src/core/sceneObjs/glass/CircleGrinGlass.js.
# Licensed under the Apache License, Version 2.0 (see LICENSES/Apache-2.0.txt); modified: translated to
# Python and changed for napari-talk (2026).
"""``CircleGrinGlass``: a gradient-index disc centred on ``p1`` through ``p2``."""

from __future__ import annotations

import math

from ...base import Point, Ray, circle_hit, dist_sq
from ..base_grin_glass import GRIN_DEFAULTS, GrinMixin


class CircleGrinGlass(GrinMixin):
    type = "CircleGrinGlass"
    defaults = {"p1": None, "p2": None, "refIndexFn": "1+e^{-\\frac{x^2+y^2}{50^2}}", **GRIN_DEFAULTS}

    def setup(self) -> None:
        self.setup_grin()
        self.r_sq = dist_sq(self.p1, self.p2)

    def _d(self, p: Point) -> float:
        return dist_sq(self.p1, p) - self.r_sq

    def outside(self, p: Point) -> bool:
        d, tol = self._d(p), self.intersectTol
        return d - tol > 0 and d + tol > 0

    def inside(self, p: Point) -> bool:
        d, tol = self._d(p), self.intersectTol
        return d - tol < 0 and d + tol < 0

    def on_boundary(self, p: Point) -> bool:
        d, tol = self._d(p), self.intersectTol
        return d - tol < 0 and d + tol > 0

    def intersect(self, ray: Ray) -> Point | None:
        stepped = self._step_hit(ray)
        if stepped is not None:
            return stepped
        return circle_hit(ray, self.p1, self.r_sq, self.settings.min_len_sq)

    def hit_box(self) -> tuple[float, float, float, float] | None:
        """The circle's box, widened by the tolerance its inside and boundary tests allow."""
        r = math.sqrt(self.r_sq + abs(self.intersectTol)) * (1 + 1e-9)
        (cx, cy), pad = self.p1, 2 * abs(self.intersectTol)
        return cx - r - pad, cy - r - pad, cx + r + pad, cy + r + pad

    def _side(self, ray: Ray, point: Point) -> float:
        mid = ((ray.p1[0] + point[0]) * 0.5, (ray.p1[1] + point[1]) * 0.5)
        d = self.r_sq - dist_sq(self.p1, mid)
        return 1.0 if d > 0 else -1.0 if d < 0 else math.nan

    def incident_type(self, ray: Ray) -> float:
        hit = circle_hit(ray, self.p1, self.r_sq, self.settings.min_len_sq)
        return math.nan if hit is None else self._side(ray, hit)

    def boundary_data(self, ray: Ray, point: Point) -> tuple[Point, Point, float]:
        kind = self._side(ray, point)
        c = self.p1
        if kind == 1:
            return point, (c[0] - point[0], c[1] - point[1]), kind
        return point, (point[0] - c[0], point[1] - c[1]), kind
