"""A plain-Python tracer, one ray and one edge at a time: slow on purpose.

It follows the same physics as :mod:`.tracer` in the most direct form, written independently of
it (scalar ``math`` only). Tests check the vectorized tracer against it segment by segment; the
benchmark times it as the per-ray baseline.
"""

from __future__ import annotations

import math
from collections import deque
from dataclasses import dataclass

from .scene import Scene

KINDS = ("source", "reflect", "refract", "tir")


@dataclass
class Segment:
    p1: tuple[float, float]
    p2: tuple[float, float]
    s: float
    p: float
    parent: int
    kind: str
    depth: int


def _edges(scene: Scene) -> list[tuple[tuple[float, float], tuple[float, float], tuple[float, float], int]]:
    """(start, end, outward normal, glass index) of every edge."""
    edges = []
    for index, glass in enumerate(scene.glasses):
        points = [(float(v[0]), float(v[1])) for v in glass.vertices]
        x, y = zip(*points, strict=True)
        area = sum(x[i] * y[(i + 1) % len(x)] - x[(i + 1) % len(x)] * y[i] for i in range(len(x)))
        for i, a in enumerate(points):
            b = points[(i + 1) % len(points)]
            nx, ny = b[1] - a[1], a[0] - b[0]
            if area < 0:
                nx, ny = -nx, -ny
            norm = math.hypot(nx, ny)
            edges.append((a, b, (nx / norm, ny / norm), index))
    return edges


def trace_reference(scene: Scene, min_brightness: float = 0.01, max_depth: int = 1000) -> list[Segment]:
    """Every segment, breadth first, with the same ray-ending and threshold rules as the tracer."""
    edges = _edges(scene)
    index_of = [glass.ref_index for glass in scene.glasses]
    escape = scene.scale
    eps = 1e-9 * escape
    queue: deque = deque()
    for source in scene.sources:
        origins, directions, brightness = source.emit()
        for (ox, oy), (dx, dy), b in zip(
            origins.tolist(), directions.tolist(), brightness.tolist(), strict=True
        ):
            queue.append(((ox, oy), (dx, dy), b / 2, b / 2, -1, "source", 0, -1))
    segments: list[Segment] = []
    while queue:
        (ox, oy), (dx, dy), s, p, parent, kind, depth, last = queue.popleft()
        if depth >= max_depth:
            continue
        best, best_t = -1, math.inf
        hits = []
        for k, ((ax, ay), (bx, by), _, _) in enumerate(edges):
            ex, ey = bx - ax, by - ay
            den = dx * ey - dy * ex
            if den == 0 or k == last:
                continue
            qx, qy = ax - ox, ay - oy
            t = (qx * ey - qy * ex) / den
            u = (qx * dy - qy * dx) / den
            if t > eps and -1e-12 <= u <= 1 + 1e-12:
                hits.append((t, k))
                if t < best_t:
                    best, best_t = k, t
        me = len(segments)
        if best < 0:
            segments.append(
                Segment((ox, oy), (ox + dx * escape, oy + dy * escape), s, p, parent, kind, depth)
            )
            continue
        hx, hy = ox + dx * best_t, oy + dy * best_t
        segments.append(Segment((ox, oy), (hx, hy), s, p, parent, kind, depth))
        _, _, (nx, ny), glass = edges[best]
        along = dx * nx + dy * ny
        leaving = along > 0
        beyond = 1.0
        for t, k in hits:
            other = edges[k]
            if t <= best_t + eps and other[3] != glass:
                if (dx * other[2][0] + dy * other[2][1] > 0) != leaving:
                    beyond = index_of[other[3]]
                break
        n1, n2 = (index_of[glass], beyond) if leaving else (beyond, index_of[glass])
        if leaving:
            nx, ny = -nx, -ny
        cos_i = abs(along)
        rx, ry = dx + 2 * cos_i * nx, dy + 2 * cos_i * ny
        sin_t2 = (n1 / n2) ** 2 * (1 - cos_i * cos_i)
        if sin_t2 > 1:
            if s + p >= min_brightness:
                queue.append(((hx, hy), (rx, ry), s, p, me, "tir", depth + 1, best))
            continue
        cos_t = math.sqrt(1 - sin_t2)
        r_s = ((n1 * cos_i - n2 * cos_t) / (n1 * cos_i + n2 * cos_t)) ** 2
        r_p = ((n2 * cos_i - n1 * cos_t) / (n2 * cos_i + n1 * cos_t)) ** 2
        eta = n1 / n2
        tx, ty = eta * dx + (eta * cos_i - cos_t) * nx, eta * dy + (eta * cos_i - cos_t) * ny
        norm = math.hypot(tx, ty)
        if s * r_s + p * r_p >= min_brightness:
            queue.append(((hx, hy), (rx, ry), s * r_s, p * r_p, me, "reflect", depth + 1, best))
        if s * (1 - r_s) + p * (1 - r_p) >= min_brightness:
            queue.append(
                (
                    (hx, hy),
                    (tx / norm, ty / norm),
                    s * (1 - r_s),
                    p * (1 - r_p),
                    me,
                    "refract",
                    depth + 1,
                    best,
                )
            )
    return segments
