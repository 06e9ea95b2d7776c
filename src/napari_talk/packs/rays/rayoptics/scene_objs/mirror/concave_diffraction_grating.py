# SPDX-License-Identifier: Apache-2.0
# SPDX-FileCopyrightText: 2024-2025 The Ray Optics Simulation authors and contributors
# SPDX-FileCopyrightText: 2026 napari-talk contributors
#
# Translated from ray-optics (https://github.com/ricktu288/ray-optics, by Yi-Ting Tu and contributors):
# src/core/sceneObjs/BaseFilter.js, src/core/sceneObjs/blocker/Blocker.js,
# src/core/sceneObjs/blocker/CircleBlocker.js, src/core/sceneObjs/blocker/Aperture.js,
# src/core/sceneObjs/blocker/DiffractionGrating.js, src/core/sceneObjs/mirror/Mirror.js,
# src/core/sceneObjs/mirror/BeamSplitter.js, src/core/sceneObjs/mirror/IdealMirror.js,
# src/core/sceneObjs/mirror/ArcMirror.js, src/core/sceneObjs/mirror/ConcaveDiffractionGrating.js,
# src/core/sceneObjs/glass/IdealLens.js, src/core/sceneObjs/other/Detector.js.
# Licensed under the Apache License, Version 2.0 (see LICENSES/Apache-2.0.txt); modified: translated to
# Python and changed for napari-talk (2026).
"""Thin objects: blockers, flat and ideal mirrors, beam splitters, the ideal lens and the detector."""

from __future__ import annotations

import math

from .base import (
    GREEN_WAVELENGTH,
    Incident,
    Point,
    Ray,
    SceneObj,
    Shape,
    circle_hit,
    dist_sq,
    lines_intersection,
    reflect_about_line,
    segment_hit,
)
from .glasses import Edge, edge_shape

FILTER_DEFAULTS = {"filter": False, "invert": False, "wavelength": GREEN_WAVELENGTH, "bandwidth": 10.0}


class Filtered(SceneObj):
    """An object that, with colours simulated and its filter on, acts only on some wavelengths."""

    def passes_filter(self, ray: Ray) -> bool:
        enabled = self.settings.simulate_colors and self.filter and self.wavelength
        if not enabled:
            return True
        if ray.wl is None:
            return bool(self.invert)
        matches = abs(self.wavelength - ray.wl) <= self.bandwidth
        return matches != bool(self.invert)


class Blocker(Filtered):
    type = "Blocker"
    defaults = {"p1": None, "p2": None, **FILTER_DEFAULTS}
    merges_with_glass = True

    def intersect(self, ray: Ray) -> Point | None:
        return segment_hit(ray, self.p1, self.p2) if self.passes_filter(ray) else None

    def hit_shape(self) -> Shape:
        return [(self.p1, self.p2)], []

    def incident(self, ray: Ray, index: int, point: Point, merging: list[SceneObj]) -> Incident:
        return Incident(absorbed=True)


class CircleBlocker(Blocker):
    type = "CircleBlocker"

    def intersect(self, ray: Ray) -> Point | None:
        if not self.passes_filter(ray):
            return None
        return circle_hit(ray, self.p1, dist_sq(self.p1, self.p2), self.settings.min_len_sq)

    def hit_shape(self) -> Shape:
        return [], [(self.p1, dist_sq(self.p1, self.p2))]


class Mirror(Filtered):
    type = "Mirror"
    defaults = {"p1": None, "p2": None, **FILTER_DEFAULTS}
    merges_with_glass = True

    def intersect(self, ray: Ray) -> Point | None:
        return segment_hit(ray, self.p1, self.p2) if self.passes_filter(ray) else None

    def hit_shape(self) -> Shape:
        return [(self.p1, self.p2)], []

    def incident(self, ray: Ray, index: int, point: Point, merging: list[SceneObj]) -> None:
        reflect_about_line(ray, point, self.p1, self.p2)


class BeamSplitter(Filtered):
    type = "BeamSplitter"
    defaults = {"p1": None, "p2": None, "transRatio": 0.5, **FILTER_DEFAULTS}

    def intersect(self, ray: Ray) -> Point | None:
        return segment_hit(ray, self.p1, self.p2) if self.passes_filter(ray) else None

    def hit_shape(self) -> Shape:
        return [(self.p1, self.p2)], []

    def incident(self, ray: Ray, index: int, point: Point, merging: list[SceneObj]) -> Incident:
        rx = ray.p1[0] - point[0]
        ry = ray.p1[1] - point[1]
        reflect_about_line(ray, point, self.p1, self.p2)
        t = self.transRatio
        through = Ray(point, (point[0] - rx, point[1] - ry), t * ray.bs, t * ray.bp, ray.wl)
        ray.bs *= 1 - t
        ray.bp *= 1 - t
        floor = self.settings.brightness_floor
        if through.brightness > floor:
            return Incident(new_rays=[through])
        if ray.brightness > floor:
            return Incident(truncation=through.brightness)
        return Incident(absorbed=True, truncation=ray.brightness + through.brightness)


def _ideal_direction(obj: SceneObj, ray: Ray, point: Point) -> Point:
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
        ray.p2 = _ideal_direction(self, ray, point)
        ray.p1 = point


class IdealMirror(Filtered):
    type = "IdealMirror"
    defaults = {"p1": None, "p2": None, "focalLength": 100.0, **FILTER_DEFAULTS}
    merges_with_glass = True

    def intersect(self, ray: Ray) -> Point | None:
        return segment_hit(ray, self.p1, self.p2) if self.passes_filter(ray) else None

    def hit_shape(self) -> Shape:
        return [(self.p1, self.p2)], []

    def incident(self, ray: Ray, index: int, point: Point, merging: list[SceneObj]) -> None:
        far = _ideal_direction(self, ray, point)
        ray.p2 = far
        ray.p1 = (2 * point[0] - far[0], 2 * point[1] - far[1])
        reflect_about_line(ray, point, self.p1, self.p2)


class Detector(SceneObj):
    """Measures power, force and (with ``irradMap``) irradiance in bins of ``binSize`` along itself."""

    type = "Detector"
    defaults = {"p1": None, "p2": None, "twoSided": True, "irradMap": False, "binSize": 1.0}

    def setup(self) -> None:
        self.power = self.normal = self.shear = 0.0
        self.bins: list[float] | None = None

    @property
    def bin_count(self) -> int:
        length = math.sqrt(dist_sq(self.p1, self.p2))
        return math.ceil(length / self.binSize)

    def start(self) -> None:
        self.power = self.normal = self.shear = 0.0
        self.bins = [0.0] * self.bin_count if self.irradMap else None
        return None

    def _cross(self, ray: Ray) -> float:
        (ax, ay), (bx, by) = self.p1, self.p2
        return (ray.p2[0] - ray.p1[0]) * (by - ay) - (ray.p2[1] - ray.p1[1]) * (bx - ax)

    def intersect(self, ray: Ray) -> Point | None:
        if not self.twoSided and not self._cross(ray) > 0:
            return None
        return segment_hit(ray, self.p1, self.p2)

    def hit_shape(self) -> Shape:
        return [(self.p1, self.p2)], []

    def incident(self, ray: Ray, index: int, point: Point, merging: list[SceneObj]) -> None:
        (ax, ay), (bx, by) = self.p1, self.p2
        rx, ry = ray.p2[0] - ray.p1[0], ray.p2[1] - ray.p1[1]
        cross = rx * (by - ay) - ry * (bx - ax)
        ray_len = math.sqrt(rx * rx + ry * ry)
        det_len = math.sqrt((bx - ax) ** 2 + (by - ay) ** 2)
        sint = cross / ray_len / det_len
        cost = (rx * (bx - ax) + ry * (by - ay)) / ray_len / det_len
        ray.p2 = (point[0] + rx, point[1] + ry)
        ray.p1 = point
        sign = (cross > 0) - (cross < 0)
        b = ray.bs + ray.bp
        self.power += sign * b
        self.normal += sign * sint * b
        self.shear -= sign * cost * b
        if self.bins is not None:
            index_ = math.floor(math.sqrt(dist_sq(point, self.p1)) / self.binSize)
            if 0 <= index_ < len(self.bins):
                self.bins[index_] += sign * b

    def csv(self) -> str:
        """The irradiance map as ray-optics exports it: ``Position,Irradiance`` per bin."""
        rows = ["Position,Irradiance"]
        for i, value in enumerate(self.bins or []):
            rows.append(f"{_js_number(i * self.binSize)},{_js_number(value / self.binSize)}")
        return "\n".join(rows)


def _js_number(value: float) -> str:
    if value == int(value) and abs(value) < 1e21:
        return str(int(value))
    return repr(value)


class Aperture(Blocker):
    """Two blocking segments ``p1``–``p3`` and ``p2``–``p4``; light passes between ``p3`` and ``p4``."""

    type = "Aperture"
    defaults = {"p1": None, "p2": None, "p3": None, "p4": None, **FILTER_DEFAULTS}
    point_keys = ("p1", "p2", "p3", "p4")

    def intersect(self, ray: Ray) -> Point | None:
        if not self.passes_filter(ray):
            return None
        return segment_hit(ray, self.p1, self.p3) or segment_hit(ray, self.p2, self.p4)

    def hit_shape(self) -> Shape:
        return [(self.p1, self.p3), (self.p2, self.p4)], []


class DiffractionGrating(SceneObj):
    """A transmission grating of ``lineDensity`` lines per mm: every allowed order leaves, with a
    single-slit envelope of ``slitRatio`` or the ``brightnesses`` given per order (0, -1, 1, -2, ...)."""

    type = "DiffractionGrating"
    defaults = {
        "p1": None,
        "p2": None,
        "lineDensity": 1000.0,
        "customBrightness": False,
        "brightnesses": [1, 0.5, 0.5],
        "slitRatio": 0.5,
        "mirrored": False,
    }

    def intersect(self, ray: Ray) -> Point | None:
        return segment_hit(ray, self.p1, self.p2)

    def hit_shape(self) -> Shape:
        return [(self.p1, self.p2)], []

    def incident(self, ray: Ray, index: int, point: Point, merging: list[SceneObj]) -> Incident:
        new_rays, truncation = diffract(self, ray, point, self.mirrored)
        return Incident(absorbed=True, new_rays=new_rays, truncation=truncation)


def diffract(obj: SceneObj, ray: Ray, point: Point, mirrored: bool) -> tuple[list[Ray], float]:
    """The diffracted orders of a grating ``obj`` (its ``p1``–``p2`` the local grating line)."""
    rx = ray.p1[0] - point[0]
    ry = ray.p1[1] - point[1]
    mx = obj.p2[0] - obj.p1[0]
    my = obj.p2[1] - obj.p1[1]
    wavelength = (ray.wl or GREEN_WAVELENGTH) * 1e-6
    interval = 1 / obj.lineDensity
    slit = interval * obj.slitRatio
    left = obj.p1 if rx * my - ry * mx > 0 else obj.p2
    mirror = -1 if mirrored else 1
    theta_left = math.pi - math.atan2(left[1] - point[1], left[0] - point[0])
    theta_i = math.pi - math.atan2(ry, rx)
    incidence = math.pi / 2 - (
        theta_left + 2 * math.pi - theta_i if theta_left < theta_i else theta_left - theta_i
    )
    m_min = -math.floor(interval / wavelength * (1 - math.sin(incidence)))
    m_max = -math.ceil(interval / wavelength * (-1 - math.sin(incidence)))
    floor = obj.settings.brightness_floor
    new_rays: list[Ray] = []
    truncation = 0.0
    lx, ly = left[0] - point[0], left[1] - point[1]
    brightnesses = obj.brightnesses if isinstance(obj.brightnesses, list) else []
    for m in range(int(m_min), int(m_max) + 1):
        s = math.sin(incidence) - m * wavelength / interval
        angle = math.asin(s) if -1 <= s <= 1 else math.nan
        rot_c = math.cos(mirror * (-math.pi / 2 - angle))
        rot_s = math.sin(mirror * (-math.pi / 2 - angle))
        if obj.customBrightness:
            k = -2 * m if m <= 0 else 2 * m - 1
            value = brightnesses[k] if 0 <= k < len(brightnesses) else 0
            intensity = float(value) if isinstance(value, (int, float)) and value == value else 0.0
        else:
            phase = 2 * math.pi * slit / wavelength * (math.sin(incidence) - math.sin(angle))
            sinc = 1 if phase == 0 else math.sin(phase / 2) / (phase / 2)
            intensity = slit * slit / (interval * interval) * sinc**2
        if intensity == 0:
            continue
        out = Ray(
            point,
            (point[0] + lx * rot_c - ly * rot_s, point[1] + lx * rot_s + ly * rot_c),
            ray.bs * intensity,
            ray.bp * intensity,
            ray.wl,
            gap=True,
        )
        if out.brightness > floor:
            new_rays.append(out)
        else:
            truncation += out.brightness
    return new_rays, truncation


class ArcMirror(Filtered):
    """A circular mirror from ``p1`` to ``p2`` through ``p3`` (a straight mirror when collinear)."""

    type = "ArcMirror"
    defaults = {"p1": None, "p2": None, "p3": None, **FILTER_DEFAULTS}
    point_keys = ("p1", "p2", "p3")
    merges_with_glass = True

    def setup(self) -> None:
        self.edge = Edge(self.p1, self.p2, self.p3)

    def intersect(self, ray: Ray) -> Point | None:
        if not self.passes_filter(ray):
            return None
        edge = self.edge
        if edge.center is None:
            return segment_hit(ray, self.p1, self.p2)
        found = edge.nearest_on_arc(ray, self.settings.min_len_sq)
        return found[0] if found is not None else None

    def hit_shape(self) -> Shape:
        return edge_shape([self.edge])

    def incident(self, ray: Ray, index: int, point: Point, merging: list[SceneObj]) -> None:
        center = self.edge.center
        if center is None:
            reflect_about_line(ray, point, self.p1, self.p2)
            return
        rx = ray.p1[0] - point[0]
        ry = ray.p1[1] - point[1]
        cx = center[0] - point[0]
        cy = center[1] - point[1]
        c_sq = cx * cx + cy * cy
        r_dot_c = rx * cx + ry * cy
        ray.p1 = point
        ray.p2 = (point[0] - c_sq * rx + 2 * r_dot_c * cx, point[1] - c_sq * ry + 2 * r_dot_c * cy)


class ConcaveDiffractionGrating(SceneObj):
    """A reflection grating on the arc ``p1``–``p2`` through ``p3`` (flat when collinear)."""

    type = "ConcaveDiffractionGrating"
    defaults = {
        "p1": None,
        "p2": None,
        "p3": None,
        "lineDensity": 1000.0,
        "customBrightness": False,
        "brightnesses": [1, 0.5, 0.5],
        "slitRatio": 0.5,
    }
    point_keys = ("p1", "p2", "p3")

    def setup(self) -> None:
        self.edge = Edge(self.p1, self.p2, self.p3)

    def intersect(self, ray: Ray) -> Point | None:
        edge = self.edge
        if edge.center is None:
            return segment_hit(ray, self.p1, self.p2)
        found = edge.nearest_on_arc(ray, self.settings.min_len_sq)
        return found[0] if found is not None else None

    def hit_shape(self) -> Shape:
        return edge_shape([self.edge])

    def incident(self, ray: Ray, index: int, point: Point, merging: list[SceneObj]) -> Incident:
        rx = ray.p1[0] - point[0]
        ry = ray.p1[1] - point[1]
        c = self.edge.center
        wavelength = (ray.wl or GREEN_WAVELENGTH) * 1e-6
        interval = 1 / self.lineDensity
        slit = interval * self.slitRatio
        ray_angle = math.atan2(ry, rx)
        if c is not None:
            normal_angle = math.atan2(point[1] - c[1], point[0] - c[0])
            dot = rx * (point[0] - c[0]) + ry * (point[1] - c[1])
        else:
            dx, dy = self.p2[0] - self.p1[0], self.p2[1] - self.p1[1]
            dot = rx * dx + ry * dy
            normal_angle = math.atan2(-dx, dy)
        if dot < 0:
            normal_angle += math.pi
        incidence = ray_angle - normal_angle
        m_min = math.ceil((math.sin(incidence) - 1) * interval / wavelength)
        m_max = math.floor((math.sin(incidence) + 1) * interval / wavelength)
        brightnesses = self.brightnesses if isinstance(self.brightnesses, list) else []
        floor = self.settings.brightness_floor
        new_rays: list[Ray] = []
        truncation = 0.0
        for m in range(m_min, m_max + 1):
            argument = m * wavelength / interval - math.sin(incidence)
            if argument < -1 or argument > 1:
                continue
            angle = math.asin(argument)
            rot = normal_angle + angle
            if self.customBrightness:
                k = -2 * m if m <= 0 else 2 * m - 1
                value = brightnesses[k] if 0 <= k < len(brightnesses) else 0
                intensity = float(value) if isinstance(value, (int, float)) and value == value else 0.0
            else:
                s = math.sin(incidence) - m * wavelength / interval
                diffracted = math.asin(s) if -1 <= s <= 1 else math.nan
                phase = 2 * math.pi * slit / wavelength * (math.sin(incidence) - math.sin(diffracted))
                sinc = 1 if phase == 0 else math.sin(phase / 2) / (phase / 2)
                intensity = slit * slit / (interval * interval) * sinc**2
            if intensity == 0:
                continue
            out = Ray(
                point,
                (point[0] + math.cos(rot), point[1] + math.sin(rot)),
                ray.bs * intensity,
                ray.bp * intensity,
                ray.wl,
                gap=True,
            )
            if out.brightness > floor:
                new_rays.append(out)
            else:
                truncation += out.brightness
        return Incident(absorbed=True, new_rays=new_rays, truncation=truncation)
