# SPDX-License-Identifier: Apache-2.0
# SPDX-FileCopyrightText: 2024 The Ray Optics Simulation authors and contributors
# SPDX-FileCopyrightText: 2026 napari-talk contributors
#
# Translated from ray-optics (https://github.com/ricktu288/ray-optics, by Yi-Ting Tu and contributors):
# src/core/sceneObjs/lightSource/Beam.js.
# Licensed under the Apache License, Version 2.0 (see LICENSES/Apache-2.0.txt); modified: translated to
# Python and changed for napari-talk (2026).
"""``Beam``: parallel rays (or a spreading beam, ``emisAngle``) from the segment ``p1``–``p2``."""

from __future__ import annotations

import math

import numpy as np

from ...base import GREEN_WAVELENGTH, Emitted, SceneError, js_div
from .base_light_source import BaseLightSource, angular_step, brightness_scale, cosines, sines


class Beam(BaseLightSource):
    type = "Beam"
    defaults = {
        "p1": None,
        "p2": None,
        "brightness": 0.5,
        "wavelength": GREEN_WAVELENGTH,
        "emisAngle": 0.0,
        "lambert": False,
        "random": False,
    }

    def ray_estimate(self) -> float:
        (x1, y1), (x2, y2) = self.p1, self.p2
        density = (
            self._density() * self.settings.length_scale
            if self.settings.color_mode != "default"
            else self.settings.ray_density
        )
        length = math.hypot(x2 - x1, y2 - y1)
        angled = 1 + 2 * abs(self.emisAngle) / 360 * density * 500
        return length * density / self.settings.length_scale * angled + 1

    def start(self) -> tuple[Emitted, float]:
        s = self.settings
        (x1, y1), (x2, y2) = self.p1, self.p2
        density = s.ray_density
        length = math.sqrt((x2 - x1) ** 2 + (y2 - y1) ** 2)
        while True:
            n = length * density / s.length_scale
            step_x = js_div(x2 - x1, n)
            step_y = js_div(y2 - y1, n)
            step = angular_step(density)
            normal = math.atan2(step_x, step_y) + math.pi / 2.0
            half_angle = self.emisAngle / 180.0 * math.pi * 0.5
            angled = 1.0 + math.floor(half_angle / step) * 2.0
            per_ray = 1.0 / angled
            expect = self.brightness * s.length_scale / density * per_ray
            if s.color_mode != "default" and expect > 1:
                density += 1 / 500
                continue
            break
        each = min(self.brightness * s.length_scale / density * per_ray, 1)
        if not self.random:
            # at each point of the beam: the ray along the normal, then the fan's pairs (+, -)
            fan = [0.0]
            angle = step
            while angle < half_angle:
                fan += [angle, -angle]
                angle += step
            if math.isinf(n):
                raise SceneError("a beam of this density needs more rays than the limit")
            count = max(0, math.floor(n + 0.5)) if n == n else 0  # points at i = 0.5, 1.5, ... <= n
            at = np.repeat(np.arange(count) + 0.5, len(fan))
            xs, ys = x1 + at * step_x, y1 + at * step_y
            angles = np.tile(np.array(fan), count)
            turned = [normal + a for a in fan]
            dx, dy = np.tile(sines(turned), count), np.tile(cosines(turned), count)
            gap = np.zeros(len(xs), dtype=bool)
        else:
            wanted = n * angled
            if not math.isfinite(wanted):
                raise SceneError("a random beam of this density needs more rays than the limit")
            count = max(0, math.ceil(wanted))
            draws = s.rng.take(2 * count)
            position, angles = draws[0::2], (draws[1::2] * 2 - 1) * half_angle
            xs, ys = x1 + position * (x2 - x1), y1 + position * (y2 - y1)
            turned = [normal + a for a in angles.tolist()]
            dx, dy = sines(turned), cosines(turned)
            gap = np.arange(count) == 0
        half = np.full(len(xs), each * 0.5)
        if self.lambert:
            half = half * cosines(angles.tolist())
        emitted = Emitted(xs, ys, xs + dx, ys + dy, half, half.copy(), self._wavelength(), gap)
        full = self.brightness * s.length_scale / density * per_ray
        return emitted, brightness_scale(each, full)
