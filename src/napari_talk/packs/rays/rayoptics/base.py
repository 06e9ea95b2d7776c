# SPDX-License-Identifier: Apache-2.0
# SPDX-FileCopyrightText: 2024 The Ray Optics Simulation authors and contributors
# SPDX-FileCopyrightText: 2026 napari-talk contributors
#
# Translated from ray-optics (https://github.com/ricktu288/ray-optics, by Yi-Ting Tu and contributors):
# src/core/geometry.js, src/core/Scene.js, src/core/sceneObjs/BaseSceneObj.js,
# src/core/sceneObjs/LineObjMixin.js, src/core/sceneObjs/CircleObjMixin.js.
# Licensed under the Apache License, Version 2.0 (see LICENSES/Apache-2.0.txt); modified: translated to
# Python and changed for napari-talk (2026).
"""What every ray-optics object shares: the ray, the scene settings a simulation reads, plane
geometry with JavaScript's arithmetic (a division by zero gives an infinity or NaN, not an error),
and the base class with ray-optics' serializable defaults."""

from __future__ import annotations

import copy
import math
from dataclasses import dataclass, field
from typing import Any, ClassVar

import numpy as np

Point = tuple[float, float]
NAN = math.nan
MIN_SEGMENT = 1e-6
"""ray-optics' shortest ray segment (times ``lengthScale``): closer hits are ignored, and surfaces
closer than this are merged."""
GREEN_WAVELENGTH = 540.0
Shape = tuple[list[tuple[Point, Point]], list[tuple[Point, float]]]
"""Segments (ends) and circles (centre, squared radius)."""


class Ray:
    """A ray from ``p1`` through ``p2``; brightness in its two polarisations, as ray-optics keeps it."""

    __slots__ = ("amp", "body", "bp", "bs", "depth", "gap", "is_new", "p1", "p2", "wl")

    def __init__(
        self,
        p1: Point,
        p2: Point,
        bs: float = 0.0,
        bp: float = 0.0,
        wl: float | None = None,
        gap: bool = False,
    ) -> None:
        self.p1, self.p2, self.bs, self.bp, self.wl, self.gap = p1, p2, bs, bp, wl, gap
        self.depth: int | None = None
        self.body: Any = None
        self.is_new = True
        self.amp = 1
        """A faint partial reflection ray-optics kept one in ``amp`` of, ``amp`` times brighter."""

    @property
    def brightness(self) -> float:
        return self.bs + self.bp


@dataclass
class Emitted:
    """The rays a source emits, one array entry a ray (no Python object per ray): start, a point
    ahead, brightness in each polarisation, wavelength (None: the scene is not coloured), and
    which rays start a gap (ray-optics draws no line joining them to the previous ray)."""

    x1: np.ndarray
    y1: np.ndarray
    x2: np.ndarray
    y2: np.ndarray
    bs: np.ndarray
    bp: np.ndarray
    wl: float | None
    gap: np.ndarray

    def __len__(self) -> int:
        return len(self.x1)


@dataclass
class Incident:
    """What an object did to a ray that hit it."""

    absorbed: bool = False
    new_rays: list[Ray] = field(default_factory=list)
    truncation: float = 0.0
    undefined: bool = False


@dataclass
class Settings:
    """The scene-wide settings objects read while simulating."""

    length_scale: float = 1.0
    ray_density: float = 0.1
    mode: str = "rays"
    simulate_colors: bool = False
    color_mode: str = "default"
    rng: Any = None
    objs: list[Any] = field(default_factory=list)
    """All optical objects (GRIN glasses look for the bodies a ray starts in)."""

    @property
    def min_len_sq(self) -> float:
        return MIN_SEGMENT * MIN_SEGMENT * self.length_scale * self.length_scale

    @property
    def brightness_floor(self) -> float:
        return 1e-6 if self.color_mode != "default" else 0.01


def js_div(a: float, b: float) -> float:
    if b == 0:
        if a == 0 or a != a:
            return NAN
        return math.copysign(math.inf, a) * math.copysign(1.0, b)
    return a / b


def js_sqrt(v: float) -> float:
    return math.sqrt(v) if v >= 0 else NAN


def dist_sq(a: Point, b: Point) -> float:
    dx = a[0] - b[0]
    dy = a[1] - b[1]
    return dx * dx + dy * dy


def lines_intersection(a1: Point, a2: Point, b1: Point, b2: Point) -> Point:
    big_a = a2[0] * a1[1] - a1[0] * a2[1]
    big_b = b2[0] * b1[1] - b1[0] * b2[1]
    xa = a2[0] - a1[0]
    xb = b2[0] - b1[0]
    ya = a2[1] - a1[1]
    yb = b2[1] - b1[1]
    den = xa * yb - xb * ya
    return js_div(big_a * xb - big_b * xa, den), js_div(big_a * yb - big_b * ya, den)


def line_circle_intersections(l1: Point, l2: Point, c: Point, r_sq: float) -> tuple[Point, Point]:
    """The two points where the line meets the circle (NaN when it misses), in ray-optics' order."""
    xa = l2[0] - l1[0]
    ya = l2[1] - l1[1]
    length = math.sqrt(xa * xa + ya * ya)
    ux = js_div(xa, length)
    uy = js_div(ya, length)
    cu = (c[0] - l1[0]) * ux + (c[1] - l1[1]) * uy
    px = l1[0] + cu * ux
    py = l1[1] + cu * uy
    d = js_sqrt(r_sq - (px - c[0]) * (px - c[0]) - (py - c[1]) * (py - c[1]))
    return (px + ux * d, py + uy * d), (px - ux * d, py - uy * d)


def on_ray(p: Point, r1: Point, r2: Point) -> bool:
    return (p[0] - r1[0]) * (r2[0] - r1[0]) + (p[1] - r1[1]) * (r2[1] - r1[1]) >= 0


def on_segment(p: Point, s1: Point, s2: Point) -> bool:
    return (p[0] - s1[0]) * (s2[0] - s1[0]) + (p[1] - s1[1]) * (s2[1] - s1[1]) >= 0 and (p[0] - s2[0]) * (
        s1[0] - s2[0]
    ) + (p[1] - s2[1]) * (s1[1] - s2[1]) >= 0


def perpendicular_bisector(a: Point, b: Point) -> tuple[Point, Point]:
    return (
        ((-a[1] + b[1] + a[0] + b[0]) * 0.5, (a[0] - b[0] + a[1] + b[1]) * 0.5),
        ((a[1] - b[1] + a[0] + b[0]) * 0.5, (-a[0] + b[0] + a[1] + b[1]) * 0.5),
    )


def circumcenter(p1: Point, p2: Point, p3: Point) -> Point:
    """The centre of the circle through an arc's ends ``p1``, ``p2`` and its middle ``p3``."""
    b1 = perpendicular_bisector(p1, p3)
    b2 = perpendicular_bisector(p2, p3)
    return lines_intersection(b1[0], b1[1], b2[0], b2[1])


def segment_hit(ray: Ray, a: Point, b: Point) -> Point | None:
    """Where the ray crosses segment ``ab`` (ray-optics' line-object test), or None."""
    p = lines_intersection(ray.p1, ray.p2, a, b)
    if on_segment(p, a, b) and on_ray(p, ray.p1, ray.p2):
        return p
    return None


def crossed_segments(ray: Ray, a: np.ndarray, b: np.ndarray) -> list[int]:
    """Indices of the segments ``a[i]``–``b[i]`` the ray crosses, by the arithmetic of
    :func:`segment_hit` done for all segments at once (callers redo the exact test on these few)."""
    if not len(a):
        return []
    crossed, _, _ = segment_crossings(ray, a, b)
    return np.flatnonzero(crossed).tolist()


def segment_crossings(ray: Ray, a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For every segment ``a[i]``–``b[i]`` at once: whether the ray's line meets it ahead of the
    ray, and where (x, y)."""
    (r1x, r1y), (r2x, r2y) = ray.p1, ray.p2
    return line_crossings(r1x, r1y, r2x, r2y, a[:, 0], a[:, 1], b[:, 0], b[:, 1])


def line_crossings(
    r1x: Any, r1y: Any, r2x: Any, r2y: Any, ax: Any, ay: Any, bx: Any, by: Any
) -> tuple[Any, Any, Any]:
    """:func:`segment_hit`'s arithmetic on arrays that broadcast (rays against segments): whether
    each ray meets each segment ahead of it, and where (x, y)."""
    with np.errstate(all="ignore"):
        big_a = r2x * r1y - r1x * r2y
        big_b = bx * ay - ax * by
        xa, ya = r2x - r1x, r2y - r1y
        xb, yb = bx - ax, by - ay
        den = xa * yb - xb * ya
        px = (big_a * xb - big_b * xa) / den
        py = (big_a * yb - big_b * ya) / den
        on_seg = ((px - ax) * xb + (py - ay) * yb >= 0) & ((px - bx) * (-xb) + (py - by) * (-yb) >= 0)
        ahead = (px - r1x) * xa + (py - r1y) * ya >= 0
    return on_seg & ahead, px, py


def circle_hit(ray: Ray, c: Point, r_sq: float, min_len_sq: float) -> Point | None:
    """The nearest crossing of the ray with a full circle beyond the minimum segment, or None."""
    q1, q2 = line_circle_intersections(ray.p1, ray.p2, c, r_sq)
    e1 = on_ray(q1, ray.p1, ray.p2) and dist_sq(q1, ray.p1) > min_len_sq
    e2 = on_ray(q2, ray.p1, ray.p2) and dist_sq(q2, ray.p1) > min_len_sq
    l1 = dist_sq(ray.p1, q1)
    l2 = dist_sq(ray.p1, q2)
    if e1 and (not e2 or l1 < l2):
        return q1
    if e2 and (not e1 or l2 < l1):
        return q2
    return None


def reflect_about_line(ray: Ray, point: Point, a: Point, b: Point) -> None:
    """Mirror the ray's direction in the line ``ab`` and restart it at ``point``."""
    rx = ray.p1[0] - point[0]
    ry = ray.p1[1] - point[1]
    mx = b[0] - a[0]
    my = b[1] - a[1]
    ray.p1 = point
    ray.p2 = (
        point[0] + rx * (my * my - mx * mx) - 2 * ry * mx * my,
        point[1] + ry * (mx * mx - my * my) - 2 * rx * mx * my,
    )


class SceneObj:
    """One object of a scene, built from its JSON with ray-optics' defaults for missing keys."""

    type: ClassVar[str] = ""
    defaults: ClassVar[dict[str, Any]] = {}
    optical: ClassVar[bool] = True
    merges_with_glass: ClassVar[bool] = False
    is_glass: ClassVar[bool] = False
    point_keys: ClassVar[tuple[str, ...]] = ("p1", "p2")

    def __init__(self, settings: Settings, data: dict[str, Any]) -> None:
        self.settings = settings
        self.name = data.get("name") or ""
        self.props: dict[str, Any] = {}
        for key, default in self.defaults.items():
            self.props[key] = copy.deepcopy(data[key]) if key in data else copy.deepcopy(default)
        for key in self.point_keys:
            if key in self.props:
                self.props[key] = to_point(self.props[key], f"{self.type}.{key}")
        for key, default in self.defaults.items():
            value = self.props[key]
            if isinstance(default, bool):
                self.props[key] = bool(value)
            elif isinstance(default, (int, float)):
                if isinstance(value, bool) or not isinstance(value, (int, float)):
                    raise SceneError(f"{key} should be a number, not {str(value)[:40]!r}")
                self.props[key] = float(value)
        self.setup()

    def setup(self) -> None:
        """Derive what tracing needs from ``props`` (checked by the loader beforehand)."""

    def __getattr__(self, key: str) -> Any:
        props = self.__dict__.get("props")
        if props is not None and key in props:
            return props[key]
        raise AttributeError(key)

    def start(self) -> tuple[Emitted, float] | None:
        """Rays this object emits when a simulation starts, and its brightness scale (0: none)."""
        return None

    def intersect(self, ray: Ray) -> Point | None:
        return None

    def hit_shape(self) -> Shape | None:
        """Segments and circles every point :meth:`intersect` can return lies on (an arc: its
        whole circle), for the simulator's vectorized search; None: test every ray exactly."""
        return None

    def hit_box(self) -> tuple[float, float, float, float] | None:
        """(x0, y0, x1, y1): a box every point :meth:`intersect` can return lies in, for an object
        without a :meth:`hit_shape` (a GRIN glass stops a ray inside it too); None: no such box."""
        return None

    def incident(self, ray: Ray, index: int, point: Point, merging: list[SceneObj]) -> Incident | None:
        return None


class SceneError(ValueError):
    """A scene or object this simulator cannot build; the message says what and where."""


def to_point(value: Any, where: str) -> Point:
    if isinstance(value, dict) and "x" in value and "y" in value:
        x, y = value["x"], value["y"]
        if isinstance(x, (int, float)) and isinstance(y, (int, float)) and not isinstance(x, bool):
            return float(x), float(y)
    raise SceneError(f"{where} should be a point {{x, y}} of numbers, not {str(value)[:60]}")
