# SPDX-License-Identifier: Apache-2.0
# SPDX-FileCopyrightText: 2024-2025 The Ray Optics Simulation authors and contributors
# SPDX-FileCopyrightText: 2026 napari-talk contributors
#
# Translated from ray-optics (https://github.com/ricktu288/ray-optics, by Yi-Ting Tu and contributors):
# src/core/sceneObjs/mirror/ArcMirror.js.
# Licensed under the Apache License, Version 2.0 (see LICENSES/Apache-2.0.txt); modified: translated to
# Python and changed for napari-talk (2026).
"""``ArcMirror``: a circular mirror from ``p1`` to ``p2`` through ``p3``."""

from __future__ import annotations

from ...base import Point, Ray, SceneObj, Shape, reflect_about_line, segment_hit
from ..base_filter import FILTER_DEFAULTS, BaseFilter
from ..base_glass import Edge, edge_shape


class ArcMirror(BaseFilter):
    """A circular mirror from ``p1`` to ``p2`` through ``p3`` (a straight mirror when collinear)."""

    type = "ArcMirror"
    defaults = {"p1": None, "p2": None, "p3": None, **FILTER_DEFAULTS}
    point_keys = ("p1", "p2", "p3")
    merges_with_glass = True

    def setup(self) -> None:
        self.edge = Edge(self.p1, self.p2, self.p3)

    def intersect(self, ray: Ray) -> Point | None:
        if not self.passes_filter(ray):
            return None
        edge = self.edge
        if edge.center is None:
            return segment_hit(ray, self.p1, self.p2)
        found = edge.nearest_on_arc(ray, self.settings.min_len_sq)
        return found[0] if found is not None else None

    def hit_shape(self) -> Shape:
        return edge_shape([self.edge])

    def incident(self, ray: Ray, index: int, point: Point, merging: list[SceneObj]) -> None:
        center = self.edge.center
        if center is None:
            reflect_about_line(ray, point, self.p1, self.p2)
            return
        rx = ray.p1[0] - point[0]
        ry = ray.p1[1] - point[1]
        cx = center[0] - point[0]
        cy = center[1] - point[1]
        c_sq = cx * cx + cy * cy
        r_dot_c = rx * cx + ry * cy
        ray.p1 = point
        ray.p2 = (point[0] - c_sq * rx + 2 * r_dot_c * cx, point[1] - c_sq * ry + 2 * r_dot_c * cy)
