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

from .base import GREEN_WAVELENGTH, Emitted, SceneError, SceneObj, js_div

MAX_DENSITY_STEPS = 1_000_000


def _angular_step(density: float) -> float:
    count = int(density * 500)
    return js_div(math.pi * 2, count)


def _density_for(
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


def _sines(values: Sequence[float]) -> np.ndarray:
    """``math.sin`` of each value (numpy's own sine may differ from it in the last bit)."""
    return np.array([math.sin(v) for v in values], dtype=float)


def _cosines(values: Sequence[float]) -> np.ndarray:
    return np.array([math.cos(v) for v in values], dtype=float)


def _fan(
    x: float, y: float, ends_x: np.ndarray, ends_y: np.ndarray, each: float, wl: float | None, gap: np.ndarray
) -> Emitted:
    """Rays from one point through the given points, each of brightness ``each``."""
    half = np.full(len(ends_x), each * 0.5)
    starts_x, starts_y = np.full(len(ends_x), x), np.full(len(ends_x), y)
    return Emitted(starts_x, starts_y, ends_x, ends_y, half, half.copy(), wl, gap)


def _scale(each: float, full: float) -> float:
    """The share of its brightness a source's rays carry; 0 (no scale) for a dark source."""
    return each / full if full else 0.0


class _Source(SceneObj):
    def _density(self) -> float:
        s = self.settings
        return max(s.ray_density, self.brightness if s.color_mode != "default" else 0.0)

    def ray_estimate(self) -> float:
        """About how many rays this source emits (checked against the limit before emitting)."""
        return 1.0

    def _wavelength(self) -> float | None:
        return float(self.wavelength) if self.settings.simulate_colors else None


class SingleRay(_Source):
    type = "SingleRay"
    defaults = {"p1": None, "p2": None, "brightness": 1.0, "wavelength": GREEN_WAVELENGTH}

    def start(self) -> tuple[Emitted, float]:
        (x1, y1), (x2, y2) = self.p1, self.p2
        half = np.array([0.5 * self.brightness])
        one = np.ones(1, dtype=bool)
        emitted = Emitted(np.array([x1]), np.array([y1]), np.array([x2]), np.array([y2]), half, half.copy(),
                          self._wavelength(), one)  # fmt: skip
        return emitted, 0.0


class PointSource(_Source):
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
        density = _density_for(self.brightness, s.ray_density, s.color_mode)
        step = _angular_step(density)
        each = min(self.brightness / density, 1)
        start = (-step * 2 + 1e-6) if s.mode == "observer" else 0.0
        x, y = float(self.x), float(self.y)
        angles = []
        angle = start
        while angle < math.pi * 2 - 1e-5:
            angles.append(angle)
            angle = angle + step
        gap = np.array(angles) == start
        emitted = _fan(x, y, x + _sines(angles), y + _cosines(angles), each, self._wavelength(), gap)
        return emitted, _scale(each, self.brightness / density)


class AngleSource(_Source):
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
        density = _density_for(self.brightness, s.ray_density, s.color_mode)
        step = _angular_step(density)
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
        ends_x, ends_y = x1 + radius * _cosines(turned), y1 + radius * _sines(turned)
        emitted = _fan(x1, y1, ends_x, ends_y, each, self._wavelength(), np.array(angles) == i0)
        return emitted, _scale(each, self.brightness / density)


class Beam(_Source):
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
            step = _angular_step(density)
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
            dx, dy = np.tile(_sines(turned), count), np.tile(_cosines(turned), count)
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
            dx, dy = _sines(turned), _cosines(turned)
            gap = np.arange(count) == 0
        half = np.full(len(xs), each * 0.5)
        if self.lambert:
            half = half * _cosines(angles.tolist())
        emitted = Emitted(xs, ys, xs + dx, ys + dy, half, half.copy(), self._wavelength(), gap)
        full = self.brightness * s.length_scale / density * per_ray
        return emitted, _scale(each, full)
