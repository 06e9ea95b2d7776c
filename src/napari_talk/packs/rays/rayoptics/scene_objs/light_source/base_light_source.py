# SPDX-License-Identifier: Apache-2.0
# SPDX-FileCopyrightText: 2024 The Ray Optics Simulation authors and contributors
# SPDX-FileCopyrightText: 2026 napari-talk contributors
#
# Translated from ray-optics (https://github.com/ricktu288/ray-optics, by Yi-Ting Tu and contributors):
# src/core/sceneObjs/lightSource/SingleRay.js, src/core/sceneObjs/lightSource/PointSource.js,
# src/core/sceneObjs/lightSource/AngleSource.js, src/core/sceneObjs/lightSource/Beam.js.
# Licensed under the Apache License, Version 2.0 (see LICENSES/Apache-2.0.txt); modified: translated to
# Python and changed for napari-talk (2026).
"""Light sources as ray-optics emits them: how many rays, in which directions, of what brightness.

The density is the scene's ``rayModeDensity`` (``imageModeDensity`` in the image modes). In the
default colour mode a ray carries at most brightness 1 (a brighter source is drawn with more
intensity per ray, not more rays); in the other colour modes the density is raised in steps of
1/500 until no ray would exceed 1, so the detected power stays exact.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from ...base import Emitted, SceneError, SceneObj, js_div

MAX_DENSITY_STEPS = 1_000_000


def angular_step(density: float) -> float:
    count = int(density * 500)
    return js_div(math.pi * 2, count)


def density_for(
    brightness_per_density: float, settings_density: float, color_mode: str, factor: float = 1.0
) -> float:
    density = settings_density
    if color_mode != "default" and (brightness_per_density * factor - density) * 500 > MAX_DENSITY_STEPS:
        raise SceneError(
            f"a brightness of {brightness_per_density * factor:g} needs more rays than the limit"
        )
    while color_mode != "default" and brightness_per_density / density * factor > 1:
        density += 1 / 500
    return density


def sines(values: Sequence[float]) -> np.ndarray:
    """``math.sin`` of each value (numpy's own sine may differ from it in the last bit)."""
    return np.array([math.sin(v) for v in values], dtype=float)


def cosines(values: Sequence[float]) -> np.ndarray:
    return np.array([math.cos(v) for v in values], dtype=float)


def fan(
    x: float, y: float, ends_x: np.ndarray, ends_y: np.ndarray, each: float, wl: float | None, gap: np.ndarray
) -> Emitted:
    """Rays from one point through the given points, each of brightness ``each``."""
    half = np.full(len(ends_x), each * 0.5)
    starts_x, starts_y = np.full(len(ends_x), x), np.full(len(ends_x), y)
    return Emitted(starts_x, starts_y, ends_x, ends_y, half, half.copy(), wl, gap)


def brightness_scale(each: float, full: float) -> float:
    """The share of its brightness a source's rays carry; 0 (no scale) for a dark source."""
    return each / full if full else 0.0


class BaseLightSource(SceneObj):
    def _density(self) -> float:
        s = self.settings
        return max(s.ray_density, self.brightness if s.color_mode != "default" else 0.0)

    def ray_estimate(self) -> float:
        """About how many rays this source emits (checked against the limit before emitting)."""
        return 1.0

    def _wavelength(self) -> float | None:
        return float(self.wavelength) if self.settings.simulate_colors else None
