# SPDX-License-Identifier: Apache-2.0
# SPDX-FileCopyrightText: 2024-2025 The Ray Optics Simulation authors and contributors
# SPDX-FileCopyrightText: 2026 napari-talk contributors
#
# Translated from ray-optics (https://github.com/ricktu288/ray-optics, by Yi-Ting Tu and contributors):
# src/core/sceneObjs/mirror/ConcaveDiffractionGrating.js.
# Licensed under the Apache License, Version 2.0 (see LICENSES/Apache-2.0.txt); modified: translated to
# Python and changed for napari-talk (2026).
"""``ConcaveDiffractionGrating``: a reflection grating on an arc; every allowed order leaves it."""

from __future__ import annotations

import math

from ...base import GREEN_WAVELENGTH, Incident, Point, Ray, SceneObj, Shape, segment_hit
from ..base_glass import Edge, edge_shape


class ConcaveDiffractionGrating(SceneObj):
    """A reflection grating on the arc ``p1``–``p2`` through ``p3`` (flat when collinear)."""

    type = "ConcaveDiffractionGrating"
    defaults = {
        "p1": None,
        "p2": None,
        "p3": None,
        "lineDensity": 1000.0,
        "customBrightness": False,
        "brightnesses": [1, 0.5, 0.5],
        "slitRatio": 0.5,
    }
    point_keys = ("p1", "p2", "p3")

    def setup(self) -> None:
        self.edge = Edge(self.p1, self.p2, self.p3)

    def intersect(self, ray: Ray) -> Point | None:
        edge = self.edge
        if edge.center is None:
            return segment_hit(ray, self.p1, self.p2)
        found = edge.nearest_on_arc(ray, self.settings.min_len_sq)
        return found[0] if found is not None else None

    def hit_shape(self) -> Shape:
        return edge_shape([self.edge])

    def incident(self, ray: Ray, index: int, point: Point, merging: list[SceneObj]) -> Incident:
        rx = ray.p1[0] - point[0]
        ry = ray.p1[1] - point[1]
        c = self.edge.center
        wavelength = (ray.wl or GREEN_WAVELENGTH) * 1e-6
        interval = 1 / self.lineDensity
        slit = interval * self.slitRatio
        ray_angle = math.atan2(ry, rx)
        if c is not None:
            normal_angle = math.atan2(point[1] - c[1], point[0] - c[0])
            dot = rx * (point[0] - c[0]) + ry * (point[1] - c[1])
        else:
            dx, dy = self.p2[0] - self.p1[0], self.p2[1] - self.p1[1]
            dot = rx * dx + ry * dy
            normal_angle = math.atan2(-dx, dy)
        if dot < 0:
            normal_angle += math.pi
        incidence = ray_angle - normal_angle
        m_min = math.ceil((math.sin(incidence) - 1) * interval / wavelength)
        m_max = math.floor((math.sin(incidence) + 1) * interval / wavelength)
        brightnesses = self.brightnesses if isinstance(self.brightnesses, list) else []
        floor = self.settings.brightness_floor
        new_rays: list[Ray] = []
        truncation = 0.0
        for m in range(m_min, m_max + 1):
            argument = m * wavelength / interval - math.sin(incidence)
            if argument < -1 or argument > 1:
                continue
            angle = math.asin(argument)
            rot = normal_angle + angle
            if self.customBrightness:
                k = -2 * m if m <= 0 else 2 * m - 1
                value = brightnesses[k] if 0 <= k < len(brightnesses) else 0
                intensity = float(value) if isinstance(value, (int, float)) and value == value else 0.0
            else:
                s = math.sin(incidence) - m * wavelength / interval
                diffracted = math.asin(s) if -1 <= s <= 1 else math.nan
                phase = 2 * math.pi * slit / wavelength * (math.sin(incidence) - math.sin(diffracted))
                sinc = 1 if phase == 0 else math.sin(phase / 2) / (phase / 2)
                intensity = slit * slit / (interval * interval) * sinc**2
            if intensity == 0:
                continue
            out = Ray(
                point,
                (point[0] + math.cos(rot), point[1] + math.sin(rot)),
                ray.bs * intensity,
                ray.bp * intensity,
                ray.wl,
                gap=True,
            )
            if out.brightness > floor:
                new_rays.append(out)
            else:
                truncation += out.brightness
        return Incident(absorbed=True, new_rays=new_rays, truncation=truncation)
