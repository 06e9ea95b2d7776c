# SPDX-License-Identifier: Apache-2.0
# SPDX-FileCopyrightText: 2024-2025 The Ray Optics Simulation authors and contributors
# SPDX-FileCopyrightText: 2026 napari-talk contributors
#
# Translated from ray-optics (https://github.com/ricktu288/ray-optics, by Yi-Ting Tu and contributors):
# src/core/sceneObjs/blocker/Aperture.js.
# Licensed under the Apache License, Version 2.0 (see LICENSES/Apache-2.0.txt); modified: translated to
# Python and changed for napari-talk (2026).
"""``Aperture``: two blocking segments with the opening between them."""

from __future__ import annotations

from ...base import Point, Ray, Shape, segment_hit
from ..base_filter import FILTER_DEFAULTS
from .blocker import Blocker


class Aperture(Blocker):
    """Two blocking segments ``p1``–``p3`` and ``p2``–``p4``; light passes between ``p3`` and ``p4``."""

    type = "Aperture"
    defaults = {"p1": None, "p2": None, "p3": None, "p4": None, **FILTER_DEFAULTS}
    point_keys = ("p1", "p2", "p3", "p4")

    def intersect(self, ray: Ray) -> Point | None:
        if not self.passes_filter(ray):
            return None
        return segment_hit(ray, self.p1, self.p3) or segment_hit(ray, self.p2, self.p4)

    def hit_shape(self) -> Shape:
        return [(self.p1, self.p3), (self.p2, self.p4)], []
