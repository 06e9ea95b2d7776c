# SPDX-License-Identifier: Apache-2.0
# SPDX-FileCopyrightText: 2024-2025 The Ray Optics Simulation authors and contributors
# SPDX-FileCopyrightText: 2026 napari-talk contributors
#
# Translated from ray-optics (https://github.com/ricktu288/ray-optics, by Yi-Ting Tu and contributors):
# src/core/sceneObjs/glass/ParamGrinGlass.js.
# Licensed under the Apache License, Version 2.0 (see LICENSES/Apache-2.0.txt); modified: translated to
# Python and changed for napari-talk (2026).
"""``ParamGrinGlass``: a gradient-index glass bounded by parametric curves."""

from __future__ import annotations

import math

from ...base import Point, Ray, dist_sq
from ..base_grin_glass import GRIN_DEFAULTS, GrinMixin
from ..param_curve_obj_mixin import DEFAULT_PIECES, Crossing, ParamCurve


class ParamGrinGlass(ParamCurve, GrinMixin):
    type = "ParamGrinGlass"
    defaults = {
        "origin": {"x": 0, "y": 0},
        "pieces": DEFAULT_PIECES,
        "curveType": "smoothNormal",
        "refIndexFn": "1+e^{-\\frac{x^2+y^2}{50^2}}",
        **{k: v for k, v in GRIN_DEFAULTS.items() if k != "origin"},
    }
    point_keys = ()

    def setup(self) -> None:
        self.setup_curve()
        self.setup_grin()

    def on_boundary(self, p: Point) -> bool:
        return self.on_curve(p)

    def inside(self, p: Point) -> bool:
        return not self.on_curve(p) and self.winding_crossings(p) % 2 == 1

    def outside(self, p: Point) -> bool:
        return not self.on_curve(p) and self.winding_crossings(p) % 2 == 0

    def _data(self, ray: Ray) -> tuple[Point | None, Point, float]:
        best: Crossing | None = None
        best_d = math.inf
        for c in self.crossings(ray):
            if math.isnan(c.kind):
                return c.point, c.normal, math.nan
            d = dist_sq(ray.p1, c.point)
            if d < best_d:
                best, best_d = c, d
        if best is None:
            return None, (math.nan, math.nan), 0.0
        return best.point, best.normal, best.kind

    def intersect(self, ray: Ray) -> Point | None:
        stepped = self._step_hit(ray)
        if stepped is not None:
            return stepped
        point, _, kind = self._data(ray)
        return None if math.isnan(kind) else point

    def incident_type(self, ray: Ray) -> float:
        return self._data(ray)[2]

    def boundary_data(self, ray: Ray, point: Point) -> tuple[Point, Point, float]:
        _, normal, kind = self._data(ray)
        return point, normal, kind if kind in (1.0, -1.0) else math.nan
