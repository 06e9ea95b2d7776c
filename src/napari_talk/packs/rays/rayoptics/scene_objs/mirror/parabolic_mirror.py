# SPDX-License-Identifier: Apache-2.0
# SPDX-FileCopyrightText: 2024 The Ray Optics Simulation authors and contributors
# SPDX-FileCopyrightText: 2026 napari-talk contributors
#
# Translated from ray-optics (https://github.com/ricktu288/ray-optics, by Yi-Ting Tu and contributors):
# src/core/sceneObjs/mirror/ParabolicMirror.js.
# Licensed under the Apache License, Version 2.0 (see LICENSES/Apache-2.0.txt); modified: translated to
# Python and changed for napari-talk (2026).
"""``ParabolicMirror``: a parabolic mirror through ``p1`` and ``p2`` with its vertex at ``p3``,
met and reflected exactly."""

from __future__ import annotations

import math

from ...base import Point, Ray, SceneObj, dist_sq, js_div, lines_intersection, on_ray, on_segment
from ..base_filter import FILTER_DEFAULTS, BaseFilter


class ParabolicMirror(BaseFilter):
    """A parabola with its vertex at ``p3`` through the ends ``p1`` and ``p2``, intersected exactly."""

    type = "ParabolicMirror"
    defaults = {"p1": None, "p2": None, "p3": None, **FILTER_DEFAULTS}
    point_keys = ("p1", "p2", "p3")
    merges_with_glass = True

    def setup(self) -> None:
        (x1, y1), (x2, y2) = self.p1, self.p2
        self.length = math.sqrt(dist_sq(self.p1, self.p2))
        self.u = ((x2 - x1) / self.length, (y2 - y1) / self.length) if self.length else (math.nan, math.nan)
        self.v = (self.u[1], -self.u[0])
        x3, y3 = self.p3
        self.degenerate = abs((x2 - x1) * (y3 - y1) - (x3 - x1) * (y2 - y1)) < 1e-10
        local = self.local(self.p1)
        self.a = js_div(local[1], local[0] * local[0])

    def local(self, p: Point) -> Point:
        dx, dy = p[0] - self.p3[0], p[1] - self.p3[1]
        return dx * self.u[0] + dy * self.u[1], dx * self.v[0] + dy * self.v[1]

    def world(self, p: Point) -> Point:
        return (
            self.p3[0] + p[0] * self.u[0] + p[1] * self.v[0],
            self.p3[1] + p[0] * self.u[1] + p[1] * self.v[1],
        )

    def intersect(self, ray: Ray) -> Point | None:
        if not self.passes_filter(ray):
            return None
        min_len = 1e-6 * self.settings.length_scale
        if self.degenerate:
            p = lines_intersection(ray.p1, ray.p2, self.p1, self.p2)
            if (
                on_segment(p, self.p1, self.p2)
                and on_ray(p, ray.p1, ray.p2)
                and math.sqrt(dist_sq(ray.p1, p)) >= min_len
            ):
                return p
            return None
        q1, q2 = self.local(ray.p1), self.local(ray.p2)
        dx, dy = q2[0] - q1[0], q2[1] - q1[1]
        d = math.sqrt(dx * dx + dy * dy)
        vx, vy = dx / d, dy / d
        a = self.a
        half = self.length / 2
        if abs(vx) < 1e-10:
            x = q1[0]
            y = a * x * x
            t = js_div(y - q1[1], vy)
            return self.world((x, y)) if t > min_len and abs(x) <= half else None
        qa = a * vx * vx
        qb = 2 * a * q1[0] * vx - vy
        qc = a * q1[0] * q1[0] - q1[1]
        disc = qb * qb - 4 * qa * qc
        if disc < 0:
            return None
        root = math.sqrt(disc)
        t1 = js_div(-qb - root, 2 * qa) if qb > 0 else js_div(-qb + root, 2 * qa)
        t2 = js_div(qc, qa * t1)
        best: tuple[float, Point] | None = None
        for t in (t1, t2):
            if t > min_len:
                x, y = q1[0] + t * vx, q1[1] + t * vy
                if abs(x) <= half and (best is None or t < best[0]):
                    best = (t, self.world((x, y)))
        return best[1] if best else None

    def incident(self, ray: Ray, index: int, point: Point, merging: list[SceneObj]) -> None:
        if self.degenerate:
            dx, dy = self.p2[0] - self.p1[0], self.p2[1] - self.p1[1]
            length = math.sqrt(dx * dx + dy * dy)
            nx, ny = -dy / length, dx / length
            vx, vy = point[0] - ray.p1[0], point[1] - ray.p1[1]
            d = math.sqrt(vx * vx + vy * vy)
            vx, vy = vx / d, vy / d
            dot = vx * nx + vy * ny
            ray.p1 = point
            ray.p2 = (point[0] + vx - 2 * dot * nx, point[1] + vy - 2 * dot * ny)
            return
        hit, start = self.local(point), self.local(ray.p1)
        dx, dy = hit[0] - start[0], hit[1] - start[1]
        d = math.sqrt(dx * dx + dy * dy)
        vx, vy = dx / d, dy / d
        nx, ny = -2 * self.a * hit[0], 1.0
        nl = math.sqrt(nx * nx + ny * ny)
        nx, ny = nx / nl, ny / nl
        dot = vx * nx + vy * ny
        ray.p1 = point
        ray.p2 = self.world((hit[0] + vx - 2 * dot * nx, hit[1] + vy - 2 * dot * ny))
