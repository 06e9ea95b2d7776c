# SPDX-License-Identifier: Apache-2.0
# SPDX-FileCopyrightText: 2025 The Ray Optics Simulation authors and contributors
# SPDX-FileCopyrightText: 2026 napari-talk contributors
#
# Translated from ray-optics (https://github.com/ricktu288/ray-optics, by Yi-Ting Tu and contributors):
# src/core/sceneObjs/CurveObjMixin.js, src/core/sceneObjs/glass/CurveGlass.js,
# src/core/sceneObjs/glass/CurveGrinGlass.js.
# Licensed under the Apache License, Version 2.0 (see LICENSES/Apache-2.0.txt); modified: translated to
# Python and changed for napari-talk (2026).
"""Glasses bounded by cubic Bézier curves (``points``: anchors ``a1`` with controls ``c1``, ``c2``),
plain (``CurveGlass``) and gradient-index (``CurveGrinGlass``). Inside/outside is the parity of the
crossings along the ray, as ray-optics decides it for these shapes."""

from __future__ import annotations

import math

from .base import Incident, Point, Ray, SceneError, SceneObj, dist_sq, to_point
from .bezier import CubicBezier
from .glasses import GLASS_DEFAULTS, BaseGlass
from .grin import GRIN_DEFAULTS, GrinMixin

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


class CurveGlass(CurveShape, BaseGlass):
    type = "CurveGlass"
    defaults = {"points": [], "notDone": False, **GLASS_DEFAULTS}
    point_keys = ()

    def setup(self) -> None:
        self.setup_curves()

    def intersect(self, ray: Ray) -> Point | None:
        if self.notDone:
            return None
        return self.nearest(ray)[0]

    def _data(self, ray: Ray) -> tuple[Point | None, Point, float]:
        point, t, i, _, count = self.nearest(ray)
        kind = 1.0 if count % 2 == 1 else -1.0
        if point is None:
            return None, (math.nan, math.nan), kind
        return point, self.curve_normal(ray, i, t), kind

    def incident_type(self, ray: Ray) -> float:
        return self._data(ray)[2]

    def incident(self, ray: Ray, index: int, point: Point, merging: list[SceneObj]) -> Incident | None:
        hit, normal, kind = self._data(ray)
        if hit is None:
            return Incident(absorbed=True)
        n1 = self.ref_index_at(point, ray) if kind == 1 else 1 / self.ref_index_at(point, ray)
        return self.refract(ray, index, hit, normal, n1, merging, ray.body)


class CurveGrinGlass(CurveShape, GrinMixin):
    type = "CurveGrinGlass"
    defaults = {
        "points": [],
        "notDone": False,
        "refIndexFn": "1.1+0.1\\cdot\\cos\\left(0.1\\cdot y\\right)",
        **GRIN_DEFAULTS,
    }
    point_keys = ()

    def setup(self) -> None:
        self.setup_curves()
        self.setup_grin()

    def _count_from(self, p: Point) -> int:
        offset = self.settings.rng()
        outside = (self.min_x - offset - 100, p[1] + offset)
        return sum(len(c.line_intersects(p, outside)) for c in self.curves)

    def inside(self, p: Point) -> bool:
        return not self.on_boundary(p) and self._count_from(p) % 2 == 1

    def outside(self, p: Point) -> bool:
        return not self.on_boundary(p) and self._count_from(p) % 2 == 0

    def on_boundary(self, p: Point) -> bool:
        reach = math.sqrt(self.intersectTol) * 1.000001 if self.intersectTol > 0 else 0.0
        for c in self.curves:
            x0, x1, y0, y1 = c.bbox
            if (x0 <= p[0] <= x1) or (y0 <= p[1] <= y1):
                if c.farther_than(p, reach):
                    continue
                if c.project_distance(p) ** 2 <= self.intersectTol:
                    return True
        return False

    def intersect(self, ray: Ray) -> Point | None:
        if self.notDone:
            return None
        stepped = self._step_hit(ray)
        if stepped is not None:
            return stepped
        return self.nearest(ray)[0]

    def _data(self, ray: Ray) -> tuple[Point | None, Point, float]:
        point, t, i, val, count = self.nearest(ray)
        kind = 1.0 if count % 2 == 1 else -1.0
        if point is None:
            return None, (math.nan, math.nan), 0.0
        length = math.sqrt(dist_sq(ray.p1, ray.p2))
        if kind == 1 and length**2 < val and self.inside(ray.p2):
            s = self.stepSize / length
            return (
                (ray.p1[0] + s * (ray.p2[0] - ray.p1[0]), ray.p1[1] + s * (ray.p2[1] - ray.p1[1])),
                (math.nan, math.nan),
                2.0,
            )
        return point, self.curve_normal(ray, i, t), kind

    def incident_type(self, ray: Ray) -> float:
        return self._data(ray)[2]

    def incident(self, ray: Ray, index: int, point: Point, merging: list[SceneObj]) -> Incident | None:
        try:
            hit, normal, kind = self._data(ray)
            if (self.inside(ray.p1) or self.outside(ray.p1)) and self.on_boundary(point):
                saved = ray.body
                if kind == 1:
                    n1 = self.ref_index_at(hit or point, ray)
                    self.on_exit(ray)
                elif kind == -1:
                    n1 = 1 / self.ref_index_at(hit or point, ray)
                    self.on_enter(ray)
                elif kind == 0:
                    n1 = 1.0
                else:
                    return Incident(absorbed=True, undefined=True)
                if hit is None:
                    return Incident(absorbed=True)
                return self.refract(ray, index, hit, normal, n1, merging, saved)
            if ray.body is None:
                ray.body = self.initial_body(ray)
            nxt = self.step(ray.p1, point, ray)
            ray.p1 = point
            ray.p2 = nxt
        except (ZeroDivisionError, OverflowError, ValueError):
            return Incident(absorbed=True)
        return None
