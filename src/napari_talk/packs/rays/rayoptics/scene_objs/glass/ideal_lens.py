# SPDX-License-Identifier: Apache-2.0
# SPDX-FileCopyrightText: 2024-2025 The Ray Optics Simulation authors and contributors
# SPDX-FileCopyrightText: 2026 napari-talk contributors
#
# Translated from ray-optics (https://github.com/ricktu288/ray-optics, by Yi-Ting Tu and contributors):
# src/core/sceneObjs/glass/IdealLens.js.
# Licensed under the Apache License, Version 2.0 (see LICENSES/Apache-2.0.txt); modified: translated to
# Python and changed for napari-talk (2026).
"""``IdealLens``: an ideal thin lens of ``focalLength`` along the segment ``p1``–``p2`` (every ray
through a focal-plane point leaves parallel to the chief ray through it)."""

from __future__ import annotations

import math

from ...base import Point, Ray, SceneObj, Shape, dist_sq, lines_intersection, segment_hit


def ideal_direction(obj: SceneObj, ray: Ray, point: Point) -> Point:
    """The far point an ideal thin lens of ``focalLength`` sends the ray through."""
    (ax, ay), (bx, by) = obj.p1, obj.p2
    length = math.sqrt((bx - ax) ** 2 + (by - ay) ** 2)
    ux = (-ay + by) / length
    uy = (ax - bx) / length
    mid = ((ax + bx) * 0.5, (ay + by) * 0.5)
    f = obj.focalLength
    two_f_1 = (mid[0] + ux * 2 * f, mid[1] + uy * 2 * f)
    two_f_2 = (mid[0] - ux * 2 * f, mid[1] - uy * 2 * f)
    dx, dy = bx - ax, by - ay
    if dist_sq(ray.p1, two_f_1) < dist_sq(ray.p1, two_f_2):
        near, far = two_f_1, two_f_2
    else:
        near, far = two_f_2, two_f_1
    near2 = (near[0] + dx, near[1] + dy)
    far2 = (far[0] + dx, far[1] + dy)
    if f > 0:
        through = lines_intersection(near, near2, ray.p1, ray.p2)
        return lines_intersection(far, far2, mid, through)
    on_far = lines_intersection(far, far2, ray.p1, ray.p2)
    on_near = lines_intersection(near, near2, mid, on_far)
    return lines_intersection(far, far2, point, on_near)


class IdealLens(SceneObj):
    type = "IdealLens"
    defaults = {"p1": None, "p2": None, "focalLength": 100.0}

    def intersect(self, ray: Ray) -> Point | None:
        return segment_hit(ray, self.p1, self.p2)

    def hit_shape(self) -> Shape:
        return [(self.p1, self.p2)], []

    def incident(self, ray: Ray, index: int, point: Point, merging: list[SceneObj]) -> None:
        ray.p2 = ideal_direction(self, ray, point)
        ray.p1 = point
