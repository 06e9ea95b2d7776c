# SPDX-License-Identifier: Apache-2.0
# SPDX-FileCopyrightText: 2024-2025 The Ray Optics Simulation authors and contributors
# SPDX-FileCopyrightText: 2026 napari-talk contributors
#
# Translated from ray-optics (https://github.com/ricktu288/ray-optics, by Yi-Ting Tu and contributors):
# src/core/sceneObjs/mirror/BeamSplitter.js.
# Licensed under the Apache License, Version 2.0 (see LICENSES/Apache-2.0.txt); modified: translated to
# Python and changed for napari-talk (2026).
"""``BeamSplitter``: a segment that reflects part of the light (``1 - transRatio``) and lets the rest
through."""

from __future__ import annotations

from ...base import Incident, Point, Ray, SceneObj, Shape, reflect_about_line, segment_hit
from ..base_filter import FILTER_DEFAULTS, BaseFilter


class BeamSplitter(BaseFilter):
    type = "BeamSplitter"
    defaults = {"p1": None, "p2": None, "transRatio": 0.5, **FILTER_DEFAULTS}

    def intersect(self, ray: Ray) -> Point | None:
        return segment_hit(ray, self.p1, self.p2) if self.passes_filter(ray) else None

    def hit_shape(self) -> Shape:
        return [(self.p1, self.p2)], []

    def incident(self, ray: Ray, index: int, point: Point, merging: list[SceneObj]) -> Incident:
        rx = ray.p1[0] - point[0]
        ry = ray.p1[1] - point[1]
        reflect_about_line(ray, point, self.p1, self.p2)
        t = self.transRatio
        through = Ray(point, (point[0] - rx, point[1] - ry), t * ray.bs, t * ray.bp, ray.wl)
        ray.bs *= 1 - t
        ray.bp *= 1 - t
        floor = self.settings.brightness_floor
        if through.brightness > floor:
            return Incident(new_rays=[through])
        if ray.brightness > floor:
            return Incident(truncation=through.brightness)
        return Incident(absorbed=True, truncation=ray.brightness + through.brightness)
