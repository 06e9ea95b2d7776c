# SPDX-License-Identifier: Apache-2.0
# SPDX-FileCopyrightText: 2025 The Ray Optics Simulation authors and contributors
# SPDX-FileCopyrightText: 2026 napari-talk contributors
#
# Translated from ray-optics (https://github.com/ricktu288/ray-optics, by Yi-Ting Tu and contributors):
# src/core/sceneObjs/glass/CurveGlass.js.
# Licensed under the Apache License, Version 2.0 (see LICENSES/Apache-2.0.txt); modified: translated to
# Python and changed for napari-talk (2026).
"""``CurveGlass``: a glass bounded by cubic Bézier curves."""

from __future__ import annotations

import math

from ...base import Incident, Point, Ray, SceneObj
from ..base_glass import GLASS_DEFAULTS, BaseGlass
from ..curve_obj_mixin import CurveShape


class CurveGlass(CurveShape, BaseGlass):
    type = "CurveGlass"
    defaults = {"points": [], "notDone": False, **GLASS_DEFAULTS}
    point_keys = ()

    def setup(self) -> None:
        self.setup_curves()

    def intersect(self, ray: Ray) -> Point | None:
        if self.notDone:
            return None
        return self.nearest(ray)[0]

    def _data(self, ray: Ray) -> tuple[Point | None, Point, float]:
        point, t, i, _, count = self.nearest(ray)
        kind = 1.0 if count % 2 == 1 else -1.0
        if point is None:
            return None, (math.nan, math.nan), kind
        return point, self.curve_normal(ray, i, t), kind

    def incident_type(self, ray: Ray) -> float:
        return self._data(ray)[2]

    def incident(self, ray: Ray, index: int, point: Point, merging: list[SceneObj]) -> Incident | None:
        hit, normal, kind = self._data(ray)
        if hit is None:
            return Incident(absorbed=True)
        n1 = self.ref_index_at(point, ray) if kind == 1 else 1 / self.ref_index_at(point, ray)
        return self.refract(ray, index, hit, normal, n1, merging, ray.body)
