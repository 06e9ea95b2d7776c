# SPDX-License-Identifier: Apache-2.0
# SPDX-FileCopyrightText: 2024-2025 The Ray Optics Simulation authors and contributors
# SPDX-FileCopyrightText: 2026 napari-talk contributors
#
# Translated from ray-optics (https://github.com/ricktu288/ray-optics, by Yi-Ting Tu and contributors):
# src/core/sceneObjs/glass/ParamGlass.js.
# Licensed under the Apache License, Version 2.0 (see LICENSES/Apache-2.0.txt); modified: translated to
# Python and changed for napari-talk (2026).
"""``ParamGlass``: a glass bounded by parametric curves."""

from __future__ import annotations

import math

from ...base import Incident, Point, Ray, SceneObj, dist_sq
from ..base_glass import GLASS_DEFAULTS, BaseGlass
from ..param_curve_obj_mixin import DEFAULT_PIECES, ParamCurve


class ParamGlass(ParamCurve, BaseGlass):
    type = "ParamGlass"
    defaults = {
        "origin": {"x": 0, "y": 0},
        "pieces": DEFAULT_PIECES,
        "curveType": "smoothNormal",
        **GLASS_DEFAULTS,
    }
    point_keys = ()

    def setup(self) -> None:
        self.setup_curve()

    def _data(self, ray: Ray) -> tuple[Point | None, Point, float]:
        found = sorted(self.crossings(ray), key=lambda c: dist_sq(ray.p1, c.point))
        min_sq = self.settings.min_len_sq
        for i, c in enumerate(found):
            if math.isnan(c.kind):
                return c.point, c.normal, math.nan
            overlapping = [o for j, o in enumerate(found) if j != i and dist_sq(c.point, o.point) < min_sq]
            if not overlapping:
                return c.point, c.normal, c.kind
            if len(overlapping) == 1 and {c.kind, overlapping[0].kind} == {1.0, -1.0}:
                continue
            return c.point, c.normal, math.nan
        return None, (math.nan, math.nan), 0.0

    def intersect(self, ray: Ray) -> Point | None:
        return self._data(ray)[0]

    def incident_type(self, ray: Ray) -> float:
        return self._data(ray)[2]

    def incident(self, ray: Ray, index: int, point: Point, merging: list[SceneObj]) -> Incident | None:
        _, normal, kind = self._data(ray)
        if kind == 1:
            n1 = self.ref_index_at(point, ray)
        elif kind == -1:
            n1 = 1 / self.ref_index_at(point, ray)
        elif kind == 0:
            n1 = 1.0
        else:
            return Incident(absorbed=True, undefined=True)
        return self.refract(ray, index, point, normal, n1, merging, ray.body)
