# SPDX-License-Identifier: Apache-2.0
# SPDX-FileCopyrightText: 2024 The Ray Optics Simulation authors and contributors
# SPDX-FileCopyrightText: 2026 napari-talk contributors
#
# Translated from ray-optics (https://github.com/ricktu288/ray-optics, by Yi-Ting Tu and contributors):
# src/core/sceneObjs/glass/Glass.js.
# Licensed under the Apache License, Version 2.0 (see LICENSES/Apache-2.0.txt); modified: translated to
# Python and changed for napari-talk (2026).
"""``Glass``: a glass bounded by a ``path`` of straight sides and circular arcs; holes,
self-crossing outlines and overlapping pieces behave as ray-optics makes them behave (parity)."""

from __future__ import annotations

import math

from ...base import Incident, Point, Ray, SceneObj, Shape
from ..base_glass import GLASS_DEFAULTS, BaseGlass, Edge, classify, edge_shape, n1_for, path_edges


class OutlineGlass(BaseGlass):
    """A glass bounded by straight sides and circular arcs, inside/outside decided by parity."""

    def outline_edges(self) -> list[Edge]:
        raise NotImplementedError

    def setup(self) -> None:
        self.edges = self.outline_edges()

    def intersect(self, ray: Ray) -> Point | None:
        if self.props.get("notDone"):
            return None
        min_sq = self.settings.min_len_sq
        best: Point | None = None
        best_len = math.inf
        for edge in self.edges:
            hit = edge.hit(ray, min_sq)
            if hit is not None and hit[1] < best_len:
                best, best_len = hit
        return best

    def hit_shape(self) -> Shape:
        return edge_shape(self.edges)

    def incident_data(self, ray: Ray) -> tuple[Point | None, Point, float]:
        return classify(self.edges, self.settings, ray)

    def incident_type(self, ray: Ray) -> float:
        return self.incident_data(ray)[2]

    def incident(self, ray: Ray, index: int, point: Point, merging: list[SceneObj]) -> Incident | None:
        if self.props.get("notDone"):
            return None
        _, normal, kind = self.incident_data(ray)
        n1 = n1_for(kind, self, point, ray)
        if n1 is None:
            return Incident(absorbed=True, undefined=True)
        return self.refract(ray, index, point, normal, n1, merging, ray.body)


class Glass(OutlineGlass):
    type = "Glass"
    defaults = {"path": [], "notDone": False, **GLASS_DEFAULTS}
    point_keys = ()

    def outline_edges(self) -> list[Edge]:
        return path_edges(self.path)
