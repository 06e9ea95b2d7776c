# SPDX-License-Identifier: Apache-2.0
# SPDX-FileCopyrightText: 2024 The Ray Optics Simulation authors and contributors
# SPDX-FileCopyrightText: 2026 napari-talk contributors
#
# Translated from ray-optics (https://github.com/ricktu288/ray-optics, by Yi-Ting Tu and contributors):
# src/core/sceneObjs/lightSource/SingleRay.js.
# Licensed under the Apache License, Version 2.0 (see LICENSES/Apache-2.0.txt); modified: translated to
# Python and changed for napari-talk (2026).
"""``SingleRay``: one ray from ``p1`` through ``p2``."""

from __future__ import annotations

import numpy as np

from ...base import GREEN_WAVELENGTH, Emitted
from .base_light_source import BaseLightSource


class SingleRay(BaseLightSource):
    type = "SingleRay"
    defaults = {"p1": None, "p2": None, "brightness": 1.0, "wavelength": GREEN_WAVELENGTH}

    def start(self) -> tuple[Emitted, float]:
        (x1, y1), (x2, y2) = self.p1, self.p2
        half = np.array([0.5 * self.brightness])
        one = np.ones(1, dtype=bool)
        emitted = Emitted(np.array([x1]), np.array([y1]), np.array([x2]), np.array([y2]), half, half.copy(),
                          self._wavelength(), one)  # fmt: skip
        return emitted, 0.0
