# SPDX-License-Identifier: Apache-2.0
# SPDX-FileCopyrightText: 2024 The Ray Optics Simulation authors and contributors
# SPDX-FileCopyrightText: 2026 napari-talk contributors
#
# Translated from ray-optics (https://github.com/ricktu288/ray-optics, by Yi-Ting Tu and contributors):
# src/core/sceneObjs/BaseGrinGlass.js.
# Licensed under the Apache License, Version 2.0 (see LICENSES/Apache-2.0.txt); modified: translated to
# Python and changed for napari-talk (2026).
"""Gradient-index (GRIN) glasses: the index n(x, y, λ) and absorption α(x, y, λ) are formulas (LaTeX,
``x``, ``y`` relative to the glass's ``origin``, ``\\lambda`` in nm). Inside, a ray advances in steps
of ``stepSize`` along the ray equation d/ds(n dr/ds) = ∇n (ray-optics' explicit Euler step), losing
exp(-α·step) of its brightness per step; at the boundary it refracts. A ray inside several GRIN
bodies at once sees the product of their indices and the sum of their absorptions ("body merging")."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from ..base import GREEN_WAVELENGTH, Incident, Point, Ray, SceneError, SceneObj, dist_sq, js_sqrt
from ..formula import Formula, FormulaError, compile_tree, derivative, parse
from .base_glass import BaseGlass

Fn = Callable[[float, float, float], float]


GRIN_DEFAULTS: dict[str, Any] = {
    "absorptionFn": "0",
    "plotFns": False,
    "origin": {"x": 0, "y": 0},
    "stepSize": 1.0,
    "intersectTol": 1e-3,
    "partialReflect": True,
}


MIN_STEP = 1e-4


def _safe_call(fn: Callable[[dict[str, float]], float]) -> Callable[[dict[str, float]], float]:
    def call(scope: dict[str, float]) -> float:
        try:
            return fn(scope)
        except (OverflowError, ZeroDivisionError):
            return math.nan

    return call


class Body:
    """The merged index of the GRIN bodies a ray is inside: n, ∂n/∂x, ∂n/∂y and α at a point.

    A ray crossing many bodies carries their product and quotients as a chain of functions, each
    evaluating the ones before it (ray-optics' arithmetic, kept to the last bit). When no body of
    the chain depends on x or y (``uniform``), each link remembers its values by wavelength: a
    step evaluates one link, not the whole chain."""

    __slots__ = ("alpha", "dx", "dy", "p", "uniform")

    def __init__(self, p: Fn, dx: Fn, dy: Fn, alpha: Fn, uniform: bool = False) -> None:
        if uniform:
            p, dx, dy, alpha = (_by_wavelength(f) for f in (p, dx, dy, alpha))
        self.p, self.dx, self.dy, self.alpha, self.uniform = p, dx, dy, alpha, uniform

    def times(self, other: Body) -> Body:
        a, b = other, self
        return Body(
            lambda x, y, z: a.p(x, y, z) * b.p(x, y, z),
            lambda x, y, z: a.p(x, y, z) * b.dx(x, y, z) + a.dx(x, y, z) * b.p(x, y, z),
            lambda x, y, z: a.p(x, y, z) * b.dy(x, y, z) + a.dy(x, y, z) * b.p(x, y, z),
            lambda x, y, z: a.alpha(x, y, z) + b.alpha(x, y, z),
            a.uniform and b.uniform,
        )

    def divided_by(self, other: Body) -> Body:
        """``other`` (the merged body a ray leaves this one from) without this body."""
        a, b = other, self

        def p(x: float, y: float, z: float) -> float:
            return a.p(x, y, z) / b.p(x, y, z)

        return Body(
            p,
            lambda x, y, z: a.dx(x, y, z) / b.p(x, y, z) - a.p(x, y, z) * b.dx(x, y, z) / b.p(x, y, z) ** 2,
            lambda x, y, z: a.dy(x, y, z) / b.p(x, y, z) - a.p(x, y, z) * b.dy(x, y, z) / b.p(x, y, z) ** 2,
            lambda x, y, z: a.alpha(x, y, z) - b.alpha(x, y, z),
            a.uniform and b.uniform,
        )


def _by_wavelength(fn: Fn) -> Fn:
    """``fn`` that does not depend on x or y, evaluated once per wavelength."""
    seen: dict[float, float] = {}

    def call(x: float, y: float, z: float) -> float:
        value = seen.get(z)
        if value is None:
            value = seen[z] = fn(x, y, z)
        return value

    return call


VACUUM = Body(lambda x, y, z: 1.0, lambda x, y, z: 0.0, lambda x, y, z: 0.0, lambda x, y, z: 0.0, True)


def _formula(text: Any, what: str) -> Formula:
    if isinstance(text, Formula):
        return text
    if not isinstance(text, str):
        raise SceneError(f"{what} should be a formula, not {str(text)[:40]!r}")
    formula = parse(text.replace("\\lambda", "(z)"), latex=True, known=frozenset({"x", "y", "z"}))
    unknown = set(formula.variables) - {"x", "y", "z"}
    if unknown:
        raise SceneError(f"{what} {text[:60]!r} uses unknown names: {', '.join(sorted(unknown))}")
    return formula


class GrinMixin(BaseGlass):
    """What GRIN glasses share: their index functions, stepping and body merging."""

    def setup_grin(self) -> None:
        origin = self.origin if isinstance(self.origin, dict) else {"x": 0, "y": 0}
        ox, oy = float(origin.get("x", 0)), float(origin.get("y", 0))
        if not self.stepSize > MIN_STEP * self.settings.length_scale:
            raise SceneError(f"stepSize {self.stepSize} is too small (at least {MIN_STEP})")
        try:
            index = _formula(self.refIndexFn, "refIndexFn")
            absorption = _formula(self.absorptionFn, "absorptionFn")
            trees = [index.tree, derivative(index.tree, "x"), derivative(index.tree, "y"), absorption.tree]
        except FormulaError as exc:
            raise SceneError(str(exc)) from None
        compiled = [_safe_call(compile_tree(t)) for t in trees]

        def shifted(fn: Callable[[dict[str, float]], float]) -> Fn:
            return lambda x, y, z: fn({"x": x - ox, "y": y - oy, "z": z})

        uniform = not {"x", "y"} & (set(index.variables) | set(absorption.variables))
        p, dx, dy, alpha = (shifted(f) for f in compiled)
        self.own = Body(p, dx, dy, alpha, uniform)

    def ref_index_at(self, point: Point, ray: Ray) -> float:
        return self.own.p(point[0], point[1], ray.wl or GREEN_WAVELENGTH)

    def on_enter(self, ray: Ray) -> None:
        if ray.body is None:
            ray.body = self.initial_body(ray)
        ray.body = self.own.times(ray.body)

    def on_exit(self, ray: Ray) -> None:
        if ray.body is None:
            ray.body = self.initial_body(ray)
        ray.body = self.own.divided_by(ray.body)

    def initial_body(self, ray: Ray) -> Body:
        body: Body | None = None
        for obj in self.settings.objs:
            if isinstance(obj, GrinMixin) and (obj.on_boundary(ray.p1) or obj.inside(ray.p1)):
                body = obj.own if body is None else obj.own.times(body)
        return body or VACUUM

    def step(self, p1: Point, p2: Point, ray: Ray) -> Point:
        length = math.sqrt(dist_sq(p1, p2))
        x, y = p2
        z = ray.wl or GREEN_WAVELENGTH
        body: Body = ray.body
        dx_prev = (p2[0] - p1[0]) / length
        dy_sign = (p2[1] - p1[1] > 0) - (p2[1] - p1[1] < 0)
        dy_prev = dy_sign * js_sqrt(1 - dx_prev**2)
        n = body.p(x, y, z)
        gx = body.dx(x, y, z)
        gy = body.dy(x, y, z)
        h = self.stepSize
        dx_new = dx_prev + h * (gx * (1 - dx_prev**2) - gy * dx_prev * dy_prev) / n
        dy_new = dy_prev + h * (gy * (1 - dy_prev**2) - gx * dx_prev * dy_prev) / n
        absorption = math.exp(-body.alpha(x, y, z) * h)
        ray.bs *= absorption
        ray.bp *= absorption
        return x + h * dx_new, y + h * dy_new

    def inside(self, p: Point) -> bool:
        raise NotImplementedError

    def outside(self, p: Point) -> bool:
        raise NotImplementedError

    def on_boundary(self, p: Point) -> bool:
        raise NotImplementedError

    def _step_hit(self, ray: Ray) -> Point | None:
        if self.inside(ray.p1) or self.on_boundary(ray.p1):
            length = math.sqrt(dist_sq(ray.p1, ray.p2))
            t = self.stepSize / length
            p = (ray.p1[0] + t * (ray.p2[0] - ray.p1[0]), ray.p1[1] + t * (ray.p2[1] - ray.p1[1]))
            if self.inside(p):
                return p
        return None

    def boundary_data(self, ray: Ray, point: Point) -> tuple[Point, Point, float]:
        raise NotImplementedError

    def incident(self, ray: Ray, index: int, point: Point, merging: list[SceneObj]) -> Incident | None:
        try:
            if (self.inside(ray.p1) or self.outside(ray.p1)) and self.on_boundary(point):
                saved = ray.body
                hit, normal, kind = self.boundary_data(ray, point)
                if kind == 1:
                    n1 = self.ref_index_at(point, ray)
                    self.on_exit(ray)
                elif kind == -1:
                    n1 = 1 / self.ref_index_at(point, ray)
                    self.on_enter(ray)
                elif kind == 0:
                    n1 = 1.0
                else:
                    return Incident(absorbed=True, undefined=True)
                return self.refract(ray, index, hit, normal, n1, merging, saved)
            if ray.body is None:
                ray.body = self.initial_body(ray)
            nxt = self.step(ray.p1, point, ray)
            ray.p1 = point
            ray.p2 = nxt
        except (ZeroDivisionError, OverflowError, ValueError):
            return Incident(absorbed=True)
        return None
