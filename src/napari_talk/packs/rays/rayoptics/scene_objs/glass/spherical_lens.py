# SPDX-License-Identifier: Apache-2.0
# SPDX-FileCopyrightText: 2024 The Ray Optics Simulation authors and contributors
# SPDX-FileCopyrightText: 2026 napari-talk contributors
#
# Translated from ray-optics (https://github.com/ricktu288/ray-optics, by Yi-Ting Tu and contributors):
# src/core/sceneObjs/glass/SphericalLens.js.
# Licensed under the Apache License, Version 2.0 (see LICENSES/Apache-2.0.txt); modified: translated to
# Python and changed for napari-talk (2026).
"""``SphericalLens``: a lens given by its outline, or by thickness and radii (or focal distances),
built into the six-point outline ray-optics builds."""

from __future__ import annotations

import math
from typing import Any

from ...base import Point
from ..base_glass import GLASS_DEFAULTS, Edge, path_edges
from .glass import OutlineGlass


class SphericalLens(OutlineGlass):
    """A lens saved with its ``path`` (read as that glass), or by ``p1``, ``p2`` (the ends of its
    axis-perpendicular diameter) and ``params``: ``d``, ``r1``, ``r2`` (``defBy`` "DR1R2") or
    ``d``, ``ffd``, ``bfd`` (``defBy`` "DFfdBfd", the radii solved as ray-optics solves them)."""

    type = "SphericalLens"
    defaults = {"path": None, "defBy": "DR1R2", "p1": None, "p2": None, "params": None, **GLASS_DEFAULTS}
    point_keys = ()

    def outline_edges(self) -> list[Edge]:
        path = self.path
        if not path:
            path = self._path_from_params()
        if not path:
            raise ValueError("a spherical lens whose parameters give no lens shape")
        return path_edges(path)

    def _path_from_params(self) -> list[dict[str, Any]] | None:
        from ...base import to_point

        params = self.params if isinstance(self.params, dict) else {}
        p1 = to_point(self.p1, "SphericalLens.p1")
        p2 = to_point(self.p2, "SphericalLens.p2")

        def num(key: str) -> float:
            value = params.get(key)
            if value is None:
                return math.inf
            return float(value)

        d = num("d")
        if self.defBy == "DFfdBfd":
            radii = self._radii_from_focal(d, num("ffd"), num("bfd"))
            if radii is None:
                return None
            for r1, r2 in radii:
                path = lens_path(p1, p2, d, r1, r2)
                if path:
                    return path
            return None
        return lens_path(p1, p2, d, num("r1"), num("r2"))

    def _radii_from_focal(self, d: float, ffd: float, bfd: float) -> list[tuple[float, float]] | None:
        n = (
            self.refIndex + self.cauchyB / (546 * 546 * 0.000001)
            if self.settings.simulate_colors
            else self.refIndex
        )
        root = d**2 + 4 * bfd * ffd * n**2
        sq = math.sqrt(root) if root >= 0 else math.nan

        def solve(sign: float) -> tuple[float, float]:
            den1 = 2 * n * (d + (-bfd + ffd) * n)
            den2 = 2 * n * (d + (bfd - ffd) * n)
            r1 = (d * (-1 + n) * (d + 2 * ffd * n + sign * sq)) / den1 if den1 else math.nan
            r2 = -(d * (-1 + n) * (d + 2 * bfd * n + sign * sq)) / den2 if den2 else math.nan
            return r1, r2

        first, second = solve(-1), solve(1)
        ok1 = not math.isnan(first[0]) and not math.isnan(first[1])
        ok2 = not math.isnan(second[0]) and not math.isnan(second[1])
        if ok1 and not ok2:
            return [first]
        if ok2 and not ok1:
            return [second]
        if ok1 and ok2:
            if abs(first[0]) + abs(first[1]) < abs(second[0]) + abs(second[1]):
                return [first, second]
            return [second, first]
        return None


def lens_path(p1: Point, p2: Point, d: float, r1: float, r2: float) -> list[dict[str, Any]] | None:
    """The six-point outline ray-optics builds for a lens of thickness ``d`` and radii ``r1``, ``r2``."""
    length = math.hypot(p1[0] - p2[0], p1[1] - p2[1])
    if length == 0:
        return None
    dx = (p2[0] - p1[0]) / length
    dy = (p2[1] - p1[1]) / length
    dpx, dpy = dy, -dx
    cx, cy = (p1[0] + p2[0]) * 0.5, (p1[1] + p2[1]) * 0.5

    def shift(r: float) -> float:
        if not math.isfinite(r):
            return 0.0
        under = r * r - length * length / 4
        if under < 0:
            return math.nan
        return r - math.sqrt(under) * ((r > 0) - (r < 0))

    s1, s2 = shift(r1), shift(r2)
    if math.isnan(s1) or math.isnan(s2):
        return None
    e1 = d / 2 - s1
    e2 = d / 2 + s2
    return [
        {"x": p1[0] - dpx * e1, "y": p1[1] - dpy * e1, "arc": False},
        {"x": p1[0] + dpx * e2, "y": p1[1] + dpy * e2, "arc": False},
        {"x": cx + dpx * (d / 2), "y": cy + dpy * (d / 2), "arc": True},
        {"x": p2[0] + dpx * e2, "y": p2[1] + dpy * e2, "arc": False},
        {"x": p2[0] - dpx * e1, "y": p2[1] - dpy * e1, "arc": False},
        {"x": cx - dpx * (d / 2), "y": cy - dpy * (d / 2), "arc": True},
    ]
