# SPDX-License-Identifier: Apache-2.0
# SPDX-FileCopyrightText: 2024-2025 The Ray Optics Simulation authors and contributors
# SPDX-FileCopyrightText: 2026 napari-talk contributors
#
# Translated from ray-optics (https://github.com/ricktu288/ray-optics, by Yi-Ting Tu and contributors):
# src/core/sceneObjs/mirror/Mirror.js.
# Licensed under the Apache License, Version 2.0 (see LICENSES/Apache-2.0.txt); modified: translated to
# Python and changed for napari-talk (2026).
"""``Mirror``: a flat mirror along the segment ``p1``–``p2``."""

from __future__ import annotations

from ...base import Point, Ray, SceneObj, Shape, reflect_about_line, segment_hit
from ..base_filter import FILTER_DEFAULTS, BaseFilter


class Mirror(BaseFilter):
    type = "Mirror"
    defaults = {"p1": None, "p2": None, **FILTER_DEFAULTS}
    merges_with_glass = True

    def intersect(self, ray: Ray) -> Point | None:
        return segment_hit(ray, self.p1, self.p2) if self.passes_filter(ray) else None

    def hit_shape(self) -> Shape:
        return [(self.p1, self.p2)], []

    def incident(self, ray: Ray, index: int, point: Point, merging: list[SceneObj]) -> None:
        reflect_about_line(ray, point, self.p1, self.p2)
