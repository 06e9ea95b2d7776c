# SPDX-License-Identifier: Apache-2.0
# SPDX-FileCopyrightText: 2024-2025 The Ray Optics Simulation authors and contributors
# SPDX-FileCopyrightText: 2026 napari-talk contributors
#
# Translated from ray-optics (https://github.com/ricktu288/ray-optics, by Yi-Ting Tu and contributors):
# src/core/sceneObjs/other/CustomParamSurface.js.
# Licensed under the Apache License, Version 2.0 (see LICENSES/Apache-2.0.txt); modified: translated to
# Python and changed for napari-talk (2026).
"""``CustomParamSurface``: a custom surface along parametric curves."""

from __future__ import annotations

import math

from ...base import Incident, Point, Ray, SceneObj, dist_sq
from ..base_custom_surface import DEFAULT_OUT_RAYS, BaseCustomSurface
from ..param_curve_obj_mixin import DEFAULT_PIECES, ParamCurve


class CustomParamSurface(ParamCurve, BaseCustomSurface):
    type = "CustomParamSurface"
    defaults = {
        "origin": {"x": 0, "y": 0},
        "pieces": DEFAULT_PIECES,
        "curveType": "smoothNormal",
        "outRays": DEFAULT_OUT_RAYS,
        "twoSided": False,
    }
    point_keys = ()

    def setup(self) -> None:
        self.setup_curve()
        self.setup_out_rays()

    def intersect(self, ray: Ray) -> Point | None:
        found = []
        for c in self.crossings(ray):
            if math.isnan(c.kind):
                return None
            if not self.twoSided and c.kind == -1:
                continue
            found.append((dist_sq(ray.p1, c.point), c))
        if not found:
            return None
        if not self.twoSided and any(c.kind == 1 for _, c in found):
            found = [f for f in found if f[1].kind == 1]
        return min(found, key=lambda f: f[0])[1].point

    def incident_type(self, ray: Ray) -> float:
        best = min(self.crossings(ray), key=lambda c: dist_sq(ray.p1, c.point), default=None)
        return math.nan if best is None else best.kind

    def incident(self, ray: Ray, index: int, point: Point, merging: list[SceneObj]) -> Incident:
        c = self.matching(ray, point)
        if c is None:
            return Incident(absorbed=True)
        if math.isnan(c.kind) or math.isnan(c.normal[0]) or math.isnan(c.normal[1]):
            return Incident(absorbed=True, undefined=True)
        return self.out_rays(ray, point, c.normal, c.position, merging)
