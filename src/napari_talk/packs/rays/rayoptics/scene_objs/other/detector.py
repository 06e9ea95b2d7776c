# SPDX-License-Identifier: Apache-2.0
# SPDX-FileCopyrightText: 2024-2025 The Ray Optics Simulation authors and contributors
# SPDX-FileCopyrightText: 2026 napari-talk contributors
#
# Translated from ray-optics (https://github.com/ricktu288/ray-optics, by Yi-Ting Tu and contributors):
# src/core/sceneObjs/other/Detector.js.
# Licensed under the Apache License, Version 2.0 (see LICENSES/Apache-2.0.txt); modified: translated to
# Python and changed for napari-talk (2026).
"""``Detector``: measures the power, force and (with ``irradMap``) the irradiance of the rays
crossing it, in bins of ``binSize`` along itself, as ray-optics exports them."""

from __future__ import annotations

import math

from ...base import Point, Ray, SceneObj, Shape, dist_sq, segment_hit


class Detector(SceneObj):
    """Measures power, force and (with ``irradMap``) irradiance in bins of ``binSize`` along itself."""

    type = "Detector"
    defaults = {"p1": None, "p2": None, "twoSided": True, "irradMap": False, "binSize": 1.0}

    def setup(self) -> None:
        self.power = self.normal = self.shear = 0.0
        self.bins: list[float] | None = None

    @property
    def bin_count(self) -> int:
        length = math.sqrt(dist_sq(self.p1, self.p2))
        return math.ceil(length / self.binSize)

    def start(self) -> None:
        self.power = self.normal = self.shear = 0.0
        self.bins = [0.0] * self.bin_count if self.irradMap else None
        return None

    def _cross(self, ray: Ray) -> float:
        (ax, ay), (bx, by) = self.p1, self.p2
        return (ray.p2[0] - ray.p1[0]) * (by - ay) - (ray.p2[1] - ray.p1[1]) * (bx - ax)

    def intersect(self, ray: Ray) -> Point | None:
        if not self.twoSided and not self._cross(ray) > 0:
            return None
        return segment_hit(ray, self.p1, self.p2)

    def hit_shape(self) -> Shape:
        return [(self.p1, self.p2)], []

    def incident(self, ray: Ray, index: int, point: Point, merging: list[SceneObj]) -> None:
        (ax, ay), (bx, by) = self.p1, self.p2
        rx, ry = ray.p2[0] - ray.p1[0], ray.p2[1] - ray.p1[1]
        cross = rx * (by - ay) - ry * (bx - ax)
        ray_len = math.sqrt(rx * rx + ry * ry)
        det_len = math.sqrt((bx - ax) ** 2 + (by - ay) ** 2)
        sint = cross / ray_len / det_len
        cost = (rx * (bx - ax) + ry * (by - ay)) / ray_len / det_len
        ray.p2 = (point[0] + rx, point[1] + ry)
        ray.p1 = point
        sign = (cross > 0) - (cross < 0)
        b = ray.bs + ray.bp
        self.power += sign * b
        self.normal += sign * sint * b
        self.shear -= sign * cost * b
        if self.bins is not None:
            index_ = math.floor(math.sqrt(dist_sq(point, self.p1)) / self.binSize)
            if 0 <= index_ < len(self.bins):
                self.bins[index_] += sign * b

    def csv(self) -> str:
        """The irradiance map as ray-optics exports it: ``Position,Irradiance`` per bin."""
        rows = ["Position,Irradiance"]
        for i, value in enumerate(self.bins or []):
            rows.append(f"{_js_number(i * self.binSize)},{_js_number(value / self.binSize)}")
        return "\n".join(rows)


def _js_number(value: float) -> str:
    if value == int(value) and abs(value) < 1e21:
        return str(int(value))
    return repr(value)
