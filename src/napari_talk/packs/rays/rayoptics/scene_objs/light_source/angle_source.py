# SPDX-License-Identifier: Apache-2.0
# SPDX-FileCopyrightText: 2024 The Ray Optics Simulation authors and contributors
# SPDX-FileCopyrightText: 2026 napari-talk contributors
#
# Translated from ray-optics (https://github.com/ricktu288/ray-optics, by Yi-Ting Tu and contributors):
# src/core/sceneObjs/lightSource/AngleSource.js.
# Licensed under the Apache License, Version 2.0 (see LICENSES/Apache-2.0.txt); modified: translated to
# Python and changed for napari-talk (2026).
"""``AngleSource``: a fan of rays from ``p1`` towards ``p2``, ``emisAngle`` wide."""

from __future__ import annotations

import math

import numpy as np

from ...base import GREEN_WAVELENGTH, Emitted
from .base_light_source import (
    BaseLightSource,
    angular_step,
    brightness_scale,
    cosines,
    density_for,
    fan,
    sines,
)


class AngleSource(BaseLightSource):
    type = "AngleSource"
    defaults = {
        "p1": None,
        "p2": None,
        "brightness": 0.5,
        "wavelength": GREEN_WAVELENGTH,
        "emisAngle": 36.001,
        "symmetric": True,
    }

    def ray_estimate(self) -> float:
        return self._density() * 500 * min(abs(self.emisAngle), 360.0) / 360.0 + 1

    def start(self) -> tuple[Emitted, float]:
        s = self.settings
        density = density_for(self.brightness, s.ray_density, s.color_mode)
        step = angular_step(density)
        i0 = (-step * 2 + 1e-6) if s.mode == "observer" else 0.0
        spread = math.pi / 180.0 * self.emisAngle
        if self.symmetric:
            first, last = i0 - spread / 2.0, i0 + spread / 2.0 - 1e-5
        else:
            first, last = i0, i0 + spread - 1e-5
        (x1, y1), (x2, y2) = self.p1, self.p2
        radius = math.sqrt((x2 - x1) ** 2 + (y2 - y1) ** 2)
        base = math.atan2(y2 - y1, x2 - x1)
        each = min(self.brightness / density, 1)
        angles = []
        angle = first
        while angle < last:
            angles.append(angle)
            angle = angle + step
        turned = [a + base for a in angles]
        ends_x, ends_y = x1 + radius * cosines(turned), y1 + radius * sines(turned)
        emitted = fan(x1, y1, ends_x, ends_y, each, self._wavelength(), np.array(angles) == i0)
        return emitted, brightness_scale(each, self.brightness / density)
