# SPDX-License-Identifier: Apache-2.0
# SPDX-FileCopyrightText: 2025 The Ray Optics Simulation authors and contributors
# SPDX-FileCopyrightText: 2026 napari-talk contributors
#
# Translated from ray-optics (https://github.com/ricktu288/ray-optics, by Yi-Ting Tu and contributors):
# src/core/sceneObjs/CurveObjMixin.js.
# Licensed under the Apache License, Version 2.0 (see LICENSES/Apache-2.0.txt); modified: translated to
# Python and changed for napari-talk (2026).
"""What objects bounded by cubic Bézier curves share (ray-optics' ``CurveObjMixin``): ``points``
(anchors ``a1`` with controls ``c1``, ``c2``) built into curves, the exact crossings of a ray with
them and the normal at a crossing. Inside/outside is the parity of the crossings along the ray, as
ray-optics decides it for these shapes."""

from __future__ import annotations

import math

from ..base import Point, Ray, SceneError, SceneObj, dist_sq, to_point
from ..bezier import CubicBezier

MAX_CURVES = 10_000


class CurveShape(SceneObj):
    def setup_curves(self) -> None:
        points = self.points if isinstance(self.points, list) else []
        if len(points) > MAX_CURVES:
            raise SceneError(f"{len(points)} curve points; at most {MAX_CURVES} are traced")
        closed = self.props.get("isClosed", True) is not False
        anchors = []
        for k, p in enumerate(points, 1):
            if not isinstance(p, dict) or "a1" not in p:
                raise SceneError(f"curve point {k} has no anchor a1")
            anchors.append(p)
        count = len(anchors) if closed else max(0, len(anchors) - 1)
        self.curves: list[CubicBezier] = []
        for i in range(count):
            nxt = anchors[(i + 1) % len(anchors)] if closed else anchors[i + 1]
            here = anchors[i]
            pts = [
                to_point(here["a1"], "a1"),
                to_point(here.get("c1"), "c1"),
                to_point(here.get("c2"), "c2"),
                to_point(nxt["a1"], "a1"),
            ]
            self.curves.append(CubicBezier(pts))
        self.mod_len = sum(
            abs(c.bbox[1]) if abs(c.bbox[1]) > abs(c.bbox[3]) else abs(c.bbox[3]) for c in self.curves
        )
        self.min_x = min((c.bbox[0] for c in self.curves), default=0.0)

    def along(self, p3: Point, p4: Point) -> tuple[int, list[list[float]], tuple[float, int, int]]:
        """Crossings along the ray from ``p3`` through ``p4``: count, per curve, and the nearest."""
        end = (p4[0] + (p4[0] - p3[0]) * self.mod_len, p4[1] + (p4[1] - p3[1]) * self.mod_len)
        min_sq = self.settings.min_len_sq
        per_curve: list[list[float]] = []
        shortest = (math.inf, -1, -1)
        count = 0
        for i, curve in enumerate(self.curves):
            ts = curve.line_intersects(p3, end)
            j = 0
            while j < len(ts):
                if dist_sq(p3, curve.get(ts[j])) < min_sq:
                    del ts[j]
                j += 1
            per_curve.append(ts)
            count += len(ts)
            for j, t in enumerate(ts):
                d = dist_sq(p3, curve.get(t))
                if d < shortest[0]:
                    shortest = (d, i, j)
        return count, per_curve, shortest

    def nearest(self, ray: Ray) -> tuple[Point | None, float, int, float, int]:
        count, per_curve, (val, i, j) = self.along(ray.p1, ray.p2)
        if i < 0:
            return None, math.nan, -1, val, count
        t = per_curve[i][j]
        return self.curves[i].get(t), t, i, val, count

    def curve_normal(self, ray: Ray, i: int, t: float) -> Point:
        nx, ny = self.curves[i].normal(t)
        if nx * (ray.p2[0] - ray.p1[0]) + ny * (ray.p2[1] - ray.p1[1]) > 0:
            nx, ny = -nx, -ny
        return nx, ny
