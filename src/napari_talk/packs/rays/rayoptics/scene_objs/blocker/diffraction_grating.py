# SPDX-License-Identifier: Apache-2.0
# SPDX-FileCopyrightText: 2024-2025 The Ray Optics Simulation authors and contributors
# SPDX-FileCopyrightText: 2026 napari-talk contributors
#
# Translated from ray-optics (https://github.com/ricktu288/ray-optics, by Yi-Ting Tu and contributors):
# src/core/sceneObjs/blocker/DiffractionGrating.js.
# Licensed under the Apache License, Version 2.0 (see LICENSES/Apache-2.0.txt); modified: translated to
# Python and changed for napari-talk (2026).
"""``DiffractionGrating``: a transmission grating; every allowed diffraction order leaves it."""

from __future__ import annotations

import math

from ...base import GREEN_WAVELENGTH, Incident, Point, Ray, SceneObj, Shape, segment_hit


class DiffractionGrating(SceneObj):
    """A transmission grating of ``lineDensity`` lines per mm: every allowed order leaves, with a
    single-slit envelope of ``slitRatio`` or the ``brightnesses`` given per order (0, -1, 1, -2, ...)."""

    type = "DiffractionGrating"
    defaults = {
        "p1": None,
        "p2": None,
        "lineDensity": 1000.0,
        "customBrightness": False,
        "brightnesses": [1, 0.5, 0.5],
        "slitRatio": 0.5,
        "mirrored": False,
    }

    def intersect(self, ray: Ray) -> Point | None:
        return segment_hit(ray, self.p1, self.p2)

    def hit_shape(self) -> Shape:
        return [(self.p1, self.p2)], []

    def incident(self, ray: Ray, index: int, point: Point, merging: list[SceneObj]) -> Incident:
        new_rays, truncation = diffract(self, ray, point, self.mirrored)
        return Incident(absorbed=True, new_rays=new_rays, truncation=truncation)


def diffract(obj: SceneObj, ray: Ray, point: Point, mirrored: bool) -> tuple[list[Ray], float]:
    """The diffracted orders of a grating ``obj`` (its ``p1``–``p2`` the local grating line)."""
    rx = ray.p1[0] - point[0]
    ry = ray.p1[1] - point[1]
    mx = obj.p2[0] - obj.p1[0]
    my = obj.p2[1] - obj.p1[1]
    wavelength = (ray.wl or GREEN_WAVELENGTH) * 1e-6
    interval = 1 / obj.lineDensity
    slit = interval * obj.slitRatio
    left = obj.p1 if rx * my - ry * mx > 0 else obj.p2
    mirror = -1 if mirrored else 1
    theta_left = math.pi - math.atan2(left[1] - point[1], left[0] - point[0])
    theta_i = math.pi - math.atan2(ry, rx)
    incidence = math.pi / 2 - (
        theta_left + 2 * math.pi - theta_i if theta_left < theta_i else theta_left - theta_i
    )
    m_min = -math.floor(interval / wavelength * (1 - math.sin(incidence)))
    m_max = -math.ceil(interval / wavelength * (-1 - math.sin(incidence)))
    floor = obj.settings.brightness_floor
    new_rays: list[Ray] = []
    truncation = 0.0
    lx, ly = left[0] - point[0], left[1] - point[1]
    brightnesses = obj.brightnesses if isinstance(obj.brightnesses, list) else []
    for m in range(int(m_min), int(m_max) + 1):
        s = math.sin(incidence) - m * wavelength / interval
        angle = math.asin(s) if -1 <= s <= 1 else math.nan
        rot_c = math.cos(mirror * (-math.pi / 2 - angle))
        rot_s = math.sin(mirror * (-math.pi / 2 - angle))
        if obj.customBrightness:
            k = -2 * m if m <= 0 else 2 * m - 1
            value = brightnesses[k] if 0 <= k < len(brightnesses) else 0
            intensity = float(value) if isinstance(value, (int, float)) and value == value else 0.0
        else:
            phase = 2 * math.pi * slit / wavelength * (math.sin(incidence) - math.sin(angle))
            sinc = 1 if phase == 0 else math.sin(phase / 2) / (phase / 2)
            intensity = slit * slit / (interval * interval) * sinc**2
        if intensity == 0:
            continue
        out = Ray(
            point,
            (point[0] + lx * rot_c - ly * rot_s, point[1] + lx * rot_s + ly * rot_c),
            ray.bs * intensity,
            ray.bp * intensity,
            ray.wl,
            gap=True,
        )
        if out.brightness > floor:
            new_rays.append(out)
        else:
            truncation += out.brightness
    return new_rays, truncation
