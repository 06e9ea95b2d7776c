# SPDX-License-Identifier: Apache-2.0
# SPDX-FileCopyrightText: 2025 The Ray Optics Simulation authors and contributors
# SPDX-FileCopyrightText: 2026 napari-talk contributors
#
# Translated from ray-optics (https://github.com/ricktu288/ray-optics, by Yi-Ting Tu and contributors):
# src/core/sceneObjs/BaseCustomSurface.js, src/core/sceneObjs/other/CustomSurface.js,
# src/core/sceneObjs/other/CustomArcSurface.js.
# Licensed under the Apache License, Version 2.0 (see LICENSES/Apache-2.0.txt); modified: translated to
# Python and changed for napari-talk (2026).
"""Custom surfaces: a ray meeting one leaves as the rays its ``outRays`` formulas describe.

Each out-ray has an angle ``eqnTheta`` (measured from the surface normal, as the incident angle
``\\theta_0`` is) and a brightness ``eqnP``, evaluated once per polarisation (``p`` 0 for s, 1 for
p) over the incident angle, brightness ``P_0``, wavelength ``\\lambda``, position ``t`` along the
surface (-1 to 1), the indices ``n_0``/``n_1`` of the glasses merged on either side, and the angles
and brightnesses of the earlier out-rays (``\\theta_1``, ``P_1``, ...). An out-ray pointing forward
crosses into the merged glasses; the first reuses the incident ray.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from .base import (
    GREEN_WAVELENGTH,
    Incident,
    Point,
    Ray,
    SceneError,
    SceneObj,
    dist_sq,
    js_div,
    lines_intersection,
    on_ray,
    on_segment,
)
from .expr import Formula, FormulaError, compile_tree, free_variables, parse
from .glasses import Edge

MAX_OUT_RAYS = 32
DEFAULT_OUT_RAYS = [
    {"eqnTheta": "\\theta_0", "eqnP": "0.7\\cdot P_0"},
    {"eqnTheta": "\\pi-\\theta_0", "eqnP": "P_0-P_1"},
]


def _compile_out_ray(eqn: Any, count: int, what: str) -> tuple[Callable[[dict[str, float]], float], set[int]]:
    names = {"theta_0", "P_0", "lambda", "t", "n_0", "n_1", "p"}
    names |= {f"theta_{i}" for i in range(1, count + 1)} | {f"P_{i}" for i in range(1, count + 1)}
    if isinstance(eqn, Formula):
        tree = eqn.tree
    elif isinstance(eqn, str):
        tree = parse(eqn, latex=True, known=frozenset(names)).tree
    elif isinstance(eqn, (int, float)) and not isinstance(eqn, bool):
        tree = ("num", float(eqn))
    else:
        raise SceneError(f"{what} should be a formula, not {str(eqn)[:40]!r}")
    used = free_variables(tree)
    unknown = used - names
    if unknown:
        raise SceneError(f"{what} uses unknown names: {', '.join(sorted(unknown))}")
    deps = {i for i in range(1, count + 1) if f"theta_{i}" in used}
    fn = compile_tree(tree)

    def evaluate(scope: dict[str, float]) -> float:
        for i in deps:
            value = scope.get(f"theta_{i}")
            if value is not None and not math.isfinite(value):
                return math.nan
        try:
            return fn(scope)
        except (FormulaError, OverflowError, ZeroDivisionError):
            return math.nan

    return evaluate, deps


def _js_mod(a: float, b: float) -> float:
    return math.fmod(a, b) if math.isfinite(a) else math.nan


class CustomSurfaceBase(SceneObj):
    merges_with_glass = True

    def setup_out_rays(self) -> None:
        out_rays = self.outRays if isinstance(self.outRays, list) else []
        if len(out_rays) > MAX_OUT_RAYS:
            raise SceneError(f"{len(out_rays)} outRays; at most {MAX_OUT_RAYS} are traced")
        self.fns = []
        for i, spec in enumerate(out_rays, 1):
            if not isinstance(spec, dict):
                raise SceneError(f"outRays {i} is not an object")
            angle, _ = _compile_out_ray(spec.get("eqnTheta"), len(out_rays), f"eqnTheta of out-ray {i}")
            power, _ = _compile_out_ray(spec.get("eqnP"), len(out_rays), f"eqnP of out-ray {i}")
            self.fns.append((angle, power))

    def out_rays(
        self, ray: Ray, point: Point, normal: Point, position: float, merging: list[SceneObj]
    ) -> Incident:
        if not self.fns:
            return Incident(absorbed=True)
        sources, destinations = [], []
        for obj in merging:
            kind = obj.incident_type(ray)
            if kind == 1:
                sources.append(obj)
            elif kind == -1:
                destinations.append(obj)
            else:
                return Incident(absorbed=True, undefined=True)
        n0 = n1 = 1.0
        for obj in sources:
            n0 *= obj.ref_index_at(point, ray)
        for obj in destinations:
            n1 *= obj.ref_index_at(point, ray)
        normal_angle = math.atan2(normal[1], normal[0])
        ray_angle = math.atan2(ray.p2[1] - ray.p1[1], ray.p2[0] - ray.p1[0])
        incident_angle = _js_mod(normal_angle - (ray_angle + math.pi) + 3 * math.pi, 2 * math.pi) - math.pi
        bs, bp, wl, body, gap = ray.bs, ray.bp, ray.wl, ray.body, ray.gap
        scopes = [
            {
                "theta_0": incident_angle,
                "P_0": bs,
                "lambda": wl or GREEN_WAVELENGTH,
                "t": position,
                "n_0": n0,
                "n_1": n1,
                "p": 0.0,
            },
            {
                "theta_0": incident_angle,
                "P_0": bp,
                "lambda": wl or GREEN_WAVELENGTH,
                "t": position,
                "n_0": n0,
                "n_1": n1,
                "p": 1.0,
            },
        ]
        new_rays: list[Ray] = []
        absorbed = False
        truncation = 0.0
        floor = self.settings.brightness_floor
        for i, (angle_fn, power_fn) in enumerate(self.fns):
            angles = [angle_fn(scopes[0]), angle_fn(scopes[1])]
            scopes[0][f"theta_{i + 1}"], scopes[1][f"theta_{i + 1}"] = angles
            powers = [power_fn(scopes[0]), power_fn(scopes[1])]
            for k in (0, 1):
                if not powers[k] > 0 or not math.isfinite(angles[k]):
                    powers[k] = 0.0
            scopes[0][f"P_{i + 1}"], scopes[1][f"P_{i + 1}"] = powers
            count = 1 if angles[0] == angles[1] else 2
            for j in range(count):
                if i == 0 and j == 0:
                    out = ray
                else:
                    out = Ray(point, point, wl=wl, gap=gap)
                    out.body = body
                a = angles[j]
                a = _js_mod(_js_mod(a + math.pi, 2 * math.pi) + 2 * math.pi, 2 * math.pi) - math.pi
                angles[j] = a
                if -math.pi / 2 < a < math.pi / 2:
                    for obj in sources:
                        obj.on_exit(out)
                    for obj in destinations:
                        obj.on_enter(out)
                out_angle = (normal_angle + math.pi) - a
                if count == 1:
                    out.bs, out.bp = powers[0], powers[1]
                elif j == 0:
                    out.bs, out.bp = powers[0], 0.0
                else:
                    out.bs, out.bp = 0.0, powers[1]
                out.p1 = point
                out.p2 = (point[0] + math.cos(out_angle), point[1] + math.sin(out_angle))
                if out.bs + out.bp > floor:
                    if out is not ray:
                        new_rays.append(out)
                else:
                    truncation += out.bs + out.bp
                    if out is ray:
                        absorbed = True
        if len(new_rays) > 1:
            for new in new_rays:
                new.gap = True
        return Incident(absorbed=absorbed, new_rays=new_rays, truncation=truncation)


class CustomSurface(CustomSurfaceBase):
    type = "CustomSurface"
    defaults = {"p1": None, "p2": None, "outRays": DEFAULT_OUT_RAYS, "twoSided": False}

    def setup(self) -> None:
        self.setup_out_rays()

    def incident_type(self, ray: Ray) -> float:
        (ax, ay), (bx, by) = self.p1, self.p2
        cross = (ray.p2[0] - ray.p1[0]) * (by - ay) - (ray.p2[1] - ray.p1[1]) * (bx - ax)
        return 1.0 if cross > 0 else -1.0 if cross < 0 else math.nan

    def intersect(self, ray: Ray) -> Point | None:
        if not self.twoSided and self.incident_type(ray) == -1:
            return None
        p = lines_intersection(ray.p1, ray.p2, self.p1, self.p2)
        return p if on_segment(p, self.p1, self.p2) and on_ray(p, ray.p1, ray.p2) else None

    def incident(self, ray: Ray, index: int, point: Point, merging: list[SceneObj]) -> Incident:
        d1 = math.sqrt(dist_sq(point, self.p1))
        d2 = math.sqrt(dist_sq(point, self.p2))
        position = -1 + 2 * js_div(d1, d1 + d2)
        (ax, ay), (bx, by) = self.p1, self.p2
        rdx, rdy = ray.p2[0] - ray.p1[0], ray.p2[1] - ray.p1[1]
        sx, sy = bx - ax, by - ay
        rdots = rdx * sx + rdy * sy
        ssq = sx * sx + sy * sy
        normal = (rdots * sx - ssq * rdx, rdots * sy - ssq * rdy)
        return self.out_rays(ray, point, normal, position, merging)


class CustomArcSurface(CustomSurfaceBase):
    type = "CustomArcSurface"
    defaults = {"p1": None, "p2": None, "p3": None, "outRays": DEFAULT_OUT_RAYS, "twoSided": False}
    point_keys = ("p1", "p2", "p3")

    def setup(self) -> None:
        self.setup_out_rays()
        self.edge = Edge(self.p1, self.p2, self.p3)

    def _data(self, ray: Ray) -> tuple[Point | None, Point, float]:
        edge = self.edge
        if edge.center is None:
            p = lines_intersection(ray.p1, ray.p2, self.p1, self.p2)
            if not (on_segment(p, self.p1, self.p2) and on_ray(p, ray.p1, ray.p2)):
                return None, (math.nan, math.nan), math.nan
            (ax, ay), (bx, by) = self.p1, self.p2
            rdx, rdy = ray.p2[0] - ray.p1[0], ray.p2[1] - ray.p1[1]
            cross = rdx * (by - ay) - rdy * (bx - ax)
            kind = 1.0 if cross > 0 else -1.0 if cross < 0 else math.nan
            sx, sy = bx - ax, by - ay
            rdots = rdx * sx + rdy * sy
            ssq = sx * sx + sy * sy
            return p, (rdots * sx - ssq * rdx, rdots * sy - ssq * rdy), kind
        c = edge.center
        pts, _, exist, _ = edge.arc_points(ray, self.settings.min_len_sq)
        a1 = math.atan2(self.p1[1] - c[1], self.p1[0] - c[0])
        a2 = math.atan2(self.p2[1] - c[1], self.p2[0] - c[0])
        a3 = math.atan2(self.p3[1] - c[1], self.p3[0] - c[0])
        anticlockwise = (a2 < a3 < a1) or (a1 < a2 < a3) or (a3 < a1 < a2)
        found: list[tuple[float, Point, float, Point]] = []
        for q, ok in zip(pts, exist, strict=True):
            if not ok:
                continue
            tx, ty = -(q[1] - c[1]), q[0] - c[0]
            if anticlockwise:
                tx, ty = -tx, -ty
            rdx, rdy = ray.p2[0] - ray.p1[0], ray.p2[1] - ray.p1[1]
            cross = rdx * ty - rdy * tx
            kind = 1.0 if cross > 0 else -1.0 if cross < 0 else math.nan
            nx, ny = c[0] - q[0], c[1] - q[1]
            if rdx * nx + rdy * ny > 0:
                nx, ny = -nx, -ny
            found.append((dist_sq(ray.p1, q), q, kind, (nx, ny)))
        if not found:
            return None, (math.nan, math.nan), math.nan
        if not self.twoSided and any(f[2] == 1 for f in found):
            found = [f for f in found if f[2] == 1]
        best = min(found, key=lambda f: f[0])
        return best[1], best[3], best[2]

    def incident_type(self, ray: Ray) -> float:
        return self._data(ray)[2]

    def intersect(self, ray: Ray) -> Point | None:
        point, _, kind = self._data(ray)
        if not self.twoSided and kind == -1:
            return None
        return point

    def incident(self, ray: Ray, index: int, point: Point, merging: list[SceneObj]) -> Incident:
        _, normal, _ = self._data(ray)
        c = self.edge.center
        if c is not None:
            a1 = math.atan2(self.p1[1] - c[1], self.p1[0] - c[0])
            a2 = math.atan2(self.p2[1] - c[1], self.p2[0] - c[0])
            ai = math.atan2(point[1] - c[1], point[0] - c[0])
            span = a2 - a1
            at = ai - a1
            if span < 0:
                span += 2 * math.pi
            if at < 0:
                at += 2 * math.pi
            position = -1 + 2 * at / span if abs(span) > 1e-10 else 0.0
        else:
            d1 = math.sqrt(dist_sq(point, self.p1))
            d2 = math.sqrt(dist_sq(point, self.p2))
            position = -1 + 2 * js_div(d1, d1 + d2)
        return self.out_rays(ray, point, normal, position, merging)
