# SPDX-License-Identifier: Apache-2.0
# SPDX-FileCopyrightText: 2025 The Ray Optics Simulation authors and contributors
# SPDX-FileCopyrightText: 2026 napari-talk contributors
#
# Translated from ray-optics (https://github.com/ricktu288/ray-optics, by Yi-Ting Tu and contributors):
# src/core/sceneObjs/BaseCustomSurface.js.
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

from ..base import GREEN_WAVELENGTH, Incident, Point, Ray, SceneError, SceneObj
from ..formula import Formula, FormulaError, compile_tree, free_variables, parse
from ..formula.nodes import Num

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
        tree = Num(float(eqn))
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


class BaseCustomSurface(SceneObj):
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
