# SPDX-License-Identifier: Apache-2.0
# SPDX-FileCopyrightText: 2024-2025 The Ray Optics Simulation authors and contributors
# SPDX-FileCopyrightText: 2026 napari-talk contributors
#
# Translated from ray-optics (https://github.com/ricktu288/ray-optics, by Yi-Ting Tu and contributors):
# src/core/sceneObjs/blocker/CircleBlocker.js.
# Licensed under the Apache License, Version 2.0 (see LICENSES/Apache-2.0.txt); modified: translated to
# Python and changed for napari-talk (2026).
"""``CircleBlocker``: a disc centred on ``p1`` through ``p2`` that absorbs the rays meeting it."""

from __future__ import annotations

from ...base import Point, Ray, Shape, circle_hit, dist_sq
from .blocker import Blocker


class CircleBlocker(Blocker):
    type = "CircleBlocker"

    def intersect(self, ray: Ray) -> Point | None:
        if not self.passes_filter(ray):
            return None
        return circle_hit(ray, self.p1, dist_sq(self.p1, self.p2), self.settings.min_len_sq)

    def hit_shape(self) -> Shape:
        return [], [(self.p1, dist_sq(self.p1, self.p2))]
