# SPDX-License-Identifier: Apache-2.0
# SPDX-FileCopyrightText: 2024-2025 The Ray Optics Simulation authors and contributors
# SPDX-FileCopyrightText: 2026 napari-talk contributors
#
# Translated from ray-optics (https://github.com/ricktu288/ray-optics, by Yi-Ting Tu and contributors):
# src/core/sceneObjs/mirror/ParamMirror.js.
# Licensed under the Apache License, Version 2.0 (see LICENSES/Apache-2.0.txt); modified: translated to
# Python and changed for napari-talk (2026).
"""``ParamMirror``: a mirror along parametric curves."""

from __future__ import annotations

import math

from ...base import Point, Ray, SceneObj, dist_sq
from ..base_filter import FILTER_DEFAULTS, BaseFilter
from ..param_curve_obj_mixin import DEFAULT_PIECES, ParamCurve


class ParamMirror(ParamCurve, BaseFilter):
    type = "ParamMirror"
    defaults = {
        "origin": {"x": 0, "y": 0},
        "pieces": DEFAULT_PIECES,
        "curveType": "smoothNormal",
        **FILTER_DEFAULTS,
    }
    point_keys = ()
    merges_with_glass = True

    def setup(self) -> None:
        self.setup_curve()

    def intersect(self, ray: Ray) -> Point | None:
        if not self.passes_filter(ray):
            return None
        best: Point | None = None
        best_d = math.inf
        for c in self.crossings(ray):
            if math.isnan(c.kind):
                return None
            d = dist_sq(ray.p1, c.point)
            if d < best_d:
                best, best_d = c.point, d
        return best

    def incident(self, ray: Ray, index: int, point: Point, merging: list[SceneObj]) -> None:
        c = self.matching(ray, point)
        if c is None or math.isnan(c.kind) or math.isnan(c.normal[0]) or math.isnan(c.normal[1]):
            return
        rx, ry = ray.p2[0] - ray.p1[0], ray.p2[1] - ray.p1[1]
        nx, ny = c.normal
        nl = math.sqrt(nx * nx + ny * ny)
        if nl < 1e-10:
            return
        nx, ny = nx / nl, ny / nl
        dot = rx * nx + ry * ny
        ray.p1 = point
        ray.p2 = (point[0] + rx - 2 * dot * nx, point[1] + ry - 2 * dot * ny)
