"""Light sources as ray-optics emits them: how many rays, in which directions, of what brightness.

The density is the scene's ``rayModeDensity`` (``imageModeDensity`` in the image modes). In the
default colour mode a ray carries at most brightness 1 (a brighter source is drawn with more
intensity per ray, not more rays); in the other colour modes the density is raised in steps of
1/500 until no ray would exceed 1, so the detected power stays exact.
"""

from __future__ import annotations

import math

from .base import GREEN_WAVELENGTH, Ray, SceneError, SceneObj, js_div

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

    def start(self) -> tuple[list[Ray], float]:
        half = 0.5 * self.brightness
        return [Ray(self.p1, self.p2, half, half, self._wavelength(), gap=True)], 0.0


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

    def start(self) -> tuple[list[Ray], float]:
        s = self.settings
        density = _density_for(self.brightness, s.ray_density, s.color_mode)
        step = _angular_step(density)
        each = min(self.brightness / density, 1)
        start = (-step * 2 + 1e-6) if s.mode == "observer" else 0.0
        x, y = float(self.x), float(self.y)
        rays = []
        angle = start
        wl = self._wavelength()
        while angle < math.pi * 2 - 1e-5:
            rays.append(
                Ray(
                    (x, y),
                    (x + math.sin(angle), y + math.cos(angle)),
                    each * 0.5,
                    each * 0.5,
                    wl,
                    gap=angle == start,
                )
            )
            angle = angle + step
        return rays, _scale(each, self.brightness / density)


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

    def start(self) -> tuple[list[Ray], float]:
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
        wl = self._wavelength()
        rays = []
        angle = first
        while angle < last:
            a = angle + base
            rays.append(
                Ray(
                    (x1, y1),
                    (x1 + radius * math.cos(a), y1 + radius * math.sin(a)),
                    each * 0.5,
                    each * 0.5,
                    wl,
                    gap=angle == i0,
                )
            )
            angle = angle + step
        return rays, _scale(each, self.brightness / density)


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

    def start(self) -> tuple[list[Ray], float]:
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
        wl = self._wavelength()

        def new_ray(x: float, y: float, angle: float, gap: bool) -> Ray:
            b = each * 0.5
            if self.lambert:
                b *= math.cos(angle)
            return Ray((x, y), (x + math.sin(normal + angle), y + math.cos(normal + angle)), b, b, wl, gap)

        rays = []
        if not self.random:
            i = 0.5
            while i <= n:
                x = x1 + i * step_x
                y = y1 + i * step_y
                rays.append(new_ray(x, y, 0.0, False))
                angle = step
                while angle < half_angle:
                    rays.append(new_ray(x, y, angle, False))
                    rays.append(new_ray(x, y, -angle, False))
                    angle += step
                i += 1
        else:
            rng = s.rng
            i = 0
            while i < n * angled:
                position = rng()
                angle = rng()
                rays.append(
                    new_ray(
                        x1 + position * (x2 - x1),
                        y1 + position * (y2 - y1),
                        (angle * 2 - 1) * half_angle,
                        i == 0,
                    )
                )
                i += 1
        full = self.brightness * s.length_scale / density * per_ray
        return rays, _scale(each, full)
