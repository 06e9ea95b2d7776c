# SPDX-License-Identifier: Apache-2.0
# SPDX-FileCopyrightText: 2024 The Ray Optics Simulation authors and contributors
# SPDX-FileCopyrightText: 2026 napari-talk contributors
#
# Translated from ray-optics (https://github.com/ricktu288/ray-optics, by Yi-Ting Tu and contributors):
# src/core/sceneObjs/lightSource/PointSource.js.
# Licensed under the Apache License, Version 2.0 (see LICENSES/Apache-2.0.txt); modified: translated to
# Python and changed for napari-talk (2026).
"""``PointSource``: rays in every direction from ``p1``."""

from __future__ import annotations

import math

import numpy as np

from ...base import GREEN_WAVELENGTH, Emitted, SceneError
from .base_light_source import (
    BaseLightSource,
    angular_step,
    brightness_scale,
    cosines,
    density_for,
    fan,
    sines,
)


class PointSource(BaseLightSource):
    type = "PointSource"
    defaults = {"x": None, "y": None, "brightness": 0.5, "wavelength": GREEN_WAVELENGTH}
    point_keys = ()

    def setup(self) -> None:
        for key in ("x", "y"):
            value = self.props[key]
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise SceneError(f"{key} should be a number, not {str(value)[:40]!r}")

    def ray_estimate(self) -> float:
        return self._density() * 500

    def start(self) -> tuple[Emitted, float]:
        s = self.settings
        density = density_for(self.brightness, s.ray_density, s.color_mode)
        step = angular_step(density)
        each = min(self.brightness / density, 1)
        start = (-step * 2 + 1e-6) if s.mode == "observer" else 0.0
        x, y = float(self.x), float(self.y)
        angles = []
        angle = start
        while angle < math.pi * 2 - 1e-5:
            angles.append(angle)
            angle = angle + step
        gap = np.array(angles) == start
        emitted = fan(x, y, x + sines(angles), y + cosines(angles), each, self._wavelength(), gap)
        return emitted, brightness_scale(each, self.brightness / density)
