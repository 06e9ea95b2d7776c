# SPDX-License-Identifier: Apache-2.0
# SPDX-FileCopyrightText: 2024 The Ray Optics Simulation authors and contributors
# SPDX-FileCopyrightText: 2026 napari-talk contributors
#
# Translated from ray-optics (https://github.com/ricktu288/ray-optics, by Yi-Ting Tu and contributors):
# src/core/sceneObjs/BaseGlass.js, src/core/sceneObjs/glass/Glass.js.
# Licensed under the Apache License, Version 2.0 (see LICENSES/Apache-2.0.txt); modified: translated to
# Python and changed for napari-talk (2026).
"""What every glass shares (ray-optics' ``BaseGlass``): the refractive index (with Cauchy's
dispersion when colours are simulated), refraction with Fresnel partial reflection and total
reflection, and the merging of coincident surfaces (the indices multiply). Beside it, the outline
geometry glasses and arcs are built from: sides and arcs (``Edge``) and ray-optics' classification
of a ray meeting an outline as leaving (1), entering (-1), passing a doubled surface (0) or hitting a
corner (NaN), by the parity of a slightly perturbed test ray's crossings."""

from __future__ import annotations

import math
from typing import Any

from ..base import (
    Incident,
    Point,
    Ray,
    SceneObj,
    Shape,
    circumcenter,
    dist_sq,
    line_circle_intersections,
    lines_intersection,
    on_ray,
    on_segment,
)

GLASS_DEFAULTS: dict[str, Any] = {"refIndex": 1.5, "cauchyB": 0.004, "partialReflect": True}


class BaseGlass(SceneObj):
    is_glass = True
    merges_with_glass = True

    def ref_index_at(self, point: Point, ray: Ray) -> float:
        if self.settings.simulate_colors:
            wl = ray.wl if ray.wl is not None else math.nan
            return self.refIndex + self.cauchyB / (wl * wl * 0.000001)
        return float(self.refIndex)

    def incident_type(self, ray: Ray) -> float:
        raise NotImplementedError

    def on_enter(self, ray: Ray) -> None:
        """Called when a merged surface lets the ray into this body (GRIN glasses track it)."""

    def on_exit(self, ray: Ray) -> None:
        """Called when a merged surface lets the ray out of this body."""

    def refract(
        self, ray: Ray, index: int, point: Point, normal: Point, n1: float, merging: list[SceneObj], body: Any
    ) -> Incident | None:
        for other in merging:
            kind = other.incident_type(ray)
            if kind == 1:
                n1 *= other.ref_index_at(point, ray)
                other.on_exit(ray)
            elif kind == -1:
                n1 /= other.ref_index_at(point, ray)
                other.on_enter(ray)
            elif kind == 0:
                pass
            else:
                return Incident(absorbed=True, undefined=True)
        negative = n1 < 0
        if negative:
            n1 = -n1
        nl = math.sqrt(normal[0] * normal[0] + normal[1] * normal[1])
        nx, ny = normal[0] / nl, normal[1] / nl
        dx, dy = ray.p2[0] - ray.p1[0], ray.p2[1] - ray.p1[1]
        rl = math.sqrt(dx * dx + dy * dy)
        rx, ry = dx / rl, dy / rl
        cos1 = -nx * rx - ny * ry
        sq1 = 1 - n1 * n1 * (1 - cos1 * cos1)
        reflected_dir = (point[0] + rx + 2 * cos1 * nx, point[1] + ry + 2 * cos1 * ny)
        if sq1 < 0:
            ray.p1 = point
            ray.p2 = reflected_dir
            if body is not None:
                ray.body = body
            return None
        cos2 = math.sqrt(sq1)
        if self.partialReflect:
            r_s = ((n1 * cos1 - cos2) / (n1 * cos1 + cos2)) ** 2
            r_p = ((n1 * cos2 - cos1) / (n1 * cos2 + cos1)) ** 2
        else:
            r_s = r_p = 0.0
        new_rays: list[Ray] = []
        truncation = 0.0
        reflected = Ray(point, reflected_dir, ray.bs * r_s, ray.bp * r_p, ray.wl, ray.gap)
        if body is not None:
            reflected.body = body
        floor = self.settings.brightness_floor
        if reflected.brightness > floor:
            new_rays.append(reflected)
        else:
            truncation += reflected.brightness
            if not ray.gap:
                # ray-optics keeps one in ``amp`` of the faint reflections, ``amp`` times brighter
                amp = math.floor(0.01 / reflected.brightness) + 1 if reflected.brightness > 0 else math.inf
                if amp != math.inf and index % amp == 0:
                    reflected.bs *= amp
                    reflected.bp *= amp
                    reflected.amp = int(amp)
                    new_rays.append(reflected)
        if negative:
            n1 = -n1
            cos2 = math.cos(2 * math.pi - math.acos(cos2))
        ray.p1 = point
        ray.p2 = (point[0] + n1 * rx + (n1 * cos1 - cos2) * nx, point[1] + n1 * ry + (n1 * cos1 - cos2) * ny)
        ray.bs *= 1 - r_s
        ray.bp *= 1 - r_p
        if ray.brightness > (1e-6 if self.settings.color_mode != "default" else 0):
            return Incident(new_rays=new_rays, truncation=truncation)
        return Incident(absorbed=True, new_rays=new_rays, truncation=truncation + ray.brightness)


def n1_for(kind: float, glass: BaseGlass, point: Point, ray: Ray) -> float | None:
    if kind == 1:
        return glass.ref_index_at(point, ray)
    if kind == -1:
        return 1 / glass.ref_index_at(point, ray)
    if kind == 0:
        return 1.0
    return None


class Edge:
    """A side of a glass outline: a straight segment ``a``–``b`` or an arc ``a``–``b`` through ``mid``."""

    __slots__ = ("a", "b", "center", "mid", "r_sq")

    def __init__(self, a: Point, b: Point, mid: Point | None = None) -> None:
        self.a, self.b, self.mid = a, b, None
        self.center: Point | None = None
        self.r_sq = 0.0
        if mid is not None:
            c = circumcenter(a, b, mid)
            if math.isfinite(c[0]) and math.isfinite(c[1]):
                self.mid, self.center = mid, c
                self.r_sq = dist_sq(c, b)

    def arc_points(self, ray: Ray, min_sq: float) -> tuple[list[Point], list[bool], list[bool], list[float]]:
        """Both circle crossings, whether each lies on the ray, on the arc (beyond the minimum), and
        their squared distances from the ray's start."""
        assert self.center is not None and self.mid is not None
        pts = line_circle_intersections(ray.p1, ray.p2, self.center, self.r_sq)
        on: list[bool] = []
        exist: list[bool] = []
        lens: list[float] = []
        for q in pts:
            q_on = on_ray(q, ray.p1, ray.p2)
            cut = lines_intersection(self.a, self.b, self.mid, q)
            exist.append(q_on and not on_segment(cut, self.mid, q) and dist_sq(q, ray.p1) > min_sq)
            on.append(q_on)
            lens.append(dist_sq(ray.p1, q))
        return list(pts), on, exist, lens

    def nearest_on_arc(self, ray: Ray, min_sq: float) -> tuple[Point, float] | None:
        """The nearer of the arc's crossings ahead of the ray, and its squared distance."""
        pts, _, exist, lens = self.arc_points(ray, min_sq)
        if exist[0] and (not exist[1] or lens[0] < lens[1]) and lens[0] > min_sq:
            return pts[0], lens[0]
        if exist[1] and (not exist[0] or lens[1] < lens[0]) and lens[1] > min_sq:
            return pts[1], lens[1]
        return None

    def hit(self, ray: Ray, min_sq: float) -> tuple[Point, float] | None:
        if self.center is not None:
            return self.nearest_on_arc(ray, min_sq)
        p = lines_intersection(ray.p1, ray.p2, self.a, self.b)
        if on_segment(p, self.a, self.b) and on_ray(p, ray.p1, ray.p2):
            d = dist_sq(ray.p1, p)
            if d > min_sq:
                return p, d
        return None


def edge_shape(edges: list[Edge]) -> Shape:
    """The segments and circles (an arc's whole circle) ``edges`` lie on."""
    segments: list[tuple[Point, Point]] = []
    circles: list[tuple[Point, float]] = []
    for edge in edges:
        if edge.center is None:
            segments.append((edge.a, edge.b))
        else:
            circles.append((edge.center, edge.r_sq))
    return segments, circles


def path_edges(path: list[dict[str, Any]]) -> list[Edge]:
    """The sides of a ray-optics ``path``: a point flagged ``arc`` is the middle of an arc between
    its neighbours; an arc whose three points are collinear is a straight side."""
    n = len(path)
    edges: list[Edge] = []
    for i in range(n):
        here, nxt = path[i], path[(i + 1) % n]
        if nxt.get("arc") and not here.get("arc"):
            after = path[(i + 2) % n]
            edges.append(Edge((here["x"], here["y"]), (after["x"], after["y"]), (nxt["x"], nxt["y"])))
        elif not nxt.get("arc") and not here.get("arc"):
            edges.append(Edge((here["x"], here["y"]), (nxt["x"], nxt["y"])))
    return edges


def classify(edges: list[Edge], settings: Any, ray: Ray) -> tuple[Point | None, Point, float]:
    """Where the ray meets the outline, the normal there, and the kind: leaving (1), entering
    (-1), a doubled surface (0) or a corner (NaN), by the parity of a perturbed test ray."""
    rng = settings.rng
    test_p2 = (ray.p2[0] + rng() * 1e-5, ray.p2[1] + rng() * 1e-5)
    return classify_with(edges, settings.min_len_sq, ray, test_p2)


def classify_with(
    edges: list[Edge], min_sq: float, ray: Ray, test_p2: Point
) -> tuple[Point | None, Point, float]:
    """:func:`classify` with the perturbed test ray's end given."""
    test = Ray(ray.p1, test_p2)
    best: Point | None = None
    best_len = math.inf
    normal: Point = (math.nan, math.nan)
    near_edge = False
    multiplicity = 1
    crossings = 0
    for edge in edges:
        point: Point | None = None
        point_len = 0.0
        edge_normal: Point = (0.0, 0.0)
        if edge.center is not None:
            c = edge.center
            pts, on, exist, lens = edge.arc_points(ray, min_sq)
            if exist[0] and (not exist[1] or lens[0] < lens[1]) and lens[0] > min_sq:
                point, point_len = pts[0], lens[0]
                outward = on[1] and lens[0] < lens[1]
            if exist[1] and (not exist[0] or lens[1] < lens[0]) and lens[1] > min_sq:
                point, point_len = pts[1], lens[1]
                outward = on[0] and lens[1] < lens[0]
            if point is not None:
                if outward:
                    edge_normal = (point[0] - c[0], point[1] - c[1])
                else:
                    edge_normal = (c[0] - point[0], c[1] - point[1])
            _, _, t_exist, t_lens = edge.arc_points(test, min_sq)
            crossings += sum(1 for e, d in zip(t_exist, t_lens, strict=True) if e and d > min_sq)
        else:
            a, b = edge.a, edge.b
            p = lines_intersection(ray.p1, ray.p2, a, b)
            if on_segment(p, a, b) and on_ray(p, ray.p1, ray.p2) and dist_sq(ray.p1, p) > min_sq:
                point, point_len = p, dist_sq(ray.p1, p)
                rdx, rdy = ray.p2[0] - ray.p1[0], ray.p2[1] - ray.p1[1]
                sx, sy = b[0] - a[0], b[1] - a[1]
                rdots = rdx * sx + rdy * sy
                ssq = sx * sx + sy * sy
                edge_normal = (rdots * sx - ssq * rdx, rdots * sy - ssq * rdy)
            q = lines_intersection(test.p1, test.p2, a, b)
            if on_segment(q, a, b) and on_ray(q, test.p1, test.p2) and dist_sq(test.p1, q) > min_sq:
                crossings += 1
        if point is None:
            continue
        corner = dist_sq(point, edge.a) < min_sq or dist_sq(point, edge.b) < min_sq
        if best is not None and dist_sq(point, best) < min_sq:
            multiplicity += 1
        elif point_len < best_len:
            best, best_len, normal, near_edge, multiplicity = point, point_len, edge_normal, corner, 1
    if near_edge:
        kind = math.nan
    elif multiplicity % 2 == 0:
        kind = 0.0
    elif crossings % 2 == 1:
        kind = 1.0
    else:
        kind = -1.0
    return best, normal, kind
