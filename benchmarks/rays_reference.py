"""A plain-Python tracer, one ray and one edge at a time: slow on purpose.

Straight-edged glasses and Fresnel splitting in the most direct form (scalar ``math`` only): the
speed benchmark times it as the per-ray baseline beside the engine.
"""

from __future__ import annotations

import math
from collections import deque
from dataclasses import dataclass

from napari_talk.packs.rays.scene import Element, Mirror, Scene

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


Edge = tuple[tuple[float, float], tuple[float, float], tuple[float, float], int, int, int, bool]


def _edges(scene: Scene) -> list[Edge]:
    """(start, end, outward normal, glass index, previous edge, next edge, convex corner at the
    start) of every edge; edges are numbered across glasses."""
    edges: list[Edge] = []
    for index, glass in enumerate(scene.glasses):
        points = [(float(v[0]), float(v[1])) for v in glass.vertices]
        k, first = len(points), len(edges)
        x, y = zip(*points, strict=True)
        area = sum(x[i] * y[(i + 1) % k] - x[(i + 1) % k] * y[i] for i in range(k))
        for i, a in enumerate(points):
            b, before = points[(i + 1) % k], points[i - 1]
            nx, ny = b[1] - a[1], a[0] - b[0]
            if area < 0:
                nx, ny = -nx, -ny
            norm = math.hypot(nx, ny)
            turn = (a[0] - before[0]) * (b[1] - a[1]) - (a[1] - before[1]) * (b[0] - a[0])
            convex = turn * area >= 0  # turning the way the polygon winds
            edges.append(
                (a, b, (nx / norm, ny / norm), index, first + (i - 1) % k, first + (i + 1) % k, convex)
            )
    return edges


def _meets(edges: list[Edge], k: int, u: float, dx: float, dy: float) -> tuple[int, int, int]:
    """How a ray along (dx, dy) meets edge k's glass at parameter u: (+1 in, -1 out, 0 passing
    by; the edge crossed; the other edge at the vertex, or k)."""
    if u <= 1e-10:
        first, second = edges[k][4], k
    elif u >= 1 - 1e-10:
        first, second = k, edges[k][5]
    else:
        first = second = k
    a = dx * edges[first][2][0] + dy * edges[first][2][1]
    b = dx * edges[second][2][0] + dy * edges[second][2][1]
    if edges[second][6]:
        inside_after, inside_before = max(a, b) < -1e-10, min(a, b) > 1e-10
    else:
        inside_after, inside_before = min(a, b) < -1e-10, max(a, b) > 1e-10
    if inside_after == inside_before:
        return 0, k, first if second == k else second
    if inside_after:
        return 1, (first if a <= b else second), (second if a <= b else first)
    return -1, (first if a >= b else second), (second if a >= b else first)


def _past_element(element: Element, hit: tuple[float, float], d: tuple[float, float]) -> tuple[float, float]:
    """The direction leaving a mirror (d mirrored in its line) or an ideal lens (towards the point
    of the far focal plane where the undeviated ray through the centre crosses it)."""
    (ax, ay), (bx, by) = element.p1, element.p2
    length = math.hypot(bx - ax, by - ay)
    tx, ty = (bx - ax) / length, (by - ay) / length
    nx, ny = -ty, tx
    along = d[0] * nx + d[1] * ny
    if isinstance(element, Mirror):
        return d[0] - 2 * along * nx, d[1] - 2 * along * ny
    if along < 0:
        nx, ny, along = -nx, -ny, -along
    f = element.focal_length
    slope = (d[0] * tx + d[1] * ty) / along
    cx, cy = (ax + bx) / 2, (ay + by) / 2
    fx, fy = cx + f * nx + f * slope * tx, cy + f * ny + f * slope * ty
    ox, oy = math.copysign(1, f) * (fx - hit[0]), math.copysign(1, f) * (fy - hit[1])
    norm = math.hypot(ox, oy)
    return ox / norm, oy / norm


def _normal_at(
    centre: tuple[float, float],
    point: tuple[float, float],
    facet: tuple[float, float],
    d: tuple[float, float],
) -> tuple[float, float]:
    """On an arc facet (``centre`` not NaN) the circle's normal at ``point``, turned outward as the
    facet's; the facet's own if the ray meets the two on different sides."""
    if math.isnan(centre[0]):
        return facet
    rx, ry = point[0] - centre[0], point[1] - centre[1]
    norm = math.hypot(rx, ry)
    if rx * facet[0] + ry * facet[1] < 0:
        norm = -norm
    rx, ry = rx / norm, ry / norm
    if (d[0] * rx + d[1] * ry > 0) != (d[0] * facet[0] + d[1] * facet[1] > 0):
        return facet
    return rx, ry


def trace_reference(scene: Scene, min_brightness: float = 0.01, max_depth: int = 1000) -> list[Segment]:
    """Every segment, breadth first, with the same ray-ending and threshold rules as the tracer
    (and the same rules for rays along an edge or through a vertex)."""
    edges = _edges(scene)
    centres = [tuple(c) for glass in scene.glasses for c in glass.facet_centres.tolist()]
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
        hits = []
        for k, ((ax, ay), (bx, by), *_) in enumerate(edges):
            ex, ey = bx - ax, by - ay
            den = dx * ey - dy * ex
            if abs(den) <= 1e-10 * math.hypot(ex, ey) or k == last:
                continue
            qx, qy = ax - ox, ay - oy
            t = (qx * ey - qy * ex) / den
            u = (qx * dy - qy * dx) / den
            if t > eps and -1e-10 <= u <= 1 + 1e-10:
                hits.append((t, k, u))
        for j, element in enumerate(scene.elements):
            (ax, ay), (bx, by) = element.p1, element.p2
            ex, ey = bx - ax, by - ay
            den = dx * ey - dy * ex
            if abs(den) <= 1e-10 * math.hypot(ex, ey) or len(edges) + j == last:
                continue
            t = ((ax - ox) * ey - (ay - oy) * ex) / den
            u = ((ax - ox) * dy - (ay - oy) * dx) / den
            if t > eps and -1e-10 <= u <= 1 + 1e-10:
                hits.append((t, len(edges) + j, u))
        hits.sort()
        struck: set[int] = set()
        best, best_t, leaving = -1, math.inf, False
        for t, k, u in hits:
            if k >= len(edges):
                best, best_t = k, t
                break
            if k in struck:
                continue
            way, crossed, other = _meets(edges, k, u, dx, dy)
            if way == 0:
                struck |= {k, other}
                continue
            best, best_t, leaving = crossed, t, way < 0
            break
        me = len(segments)
        if best < 0:
            segments.append(
                Segment((ox, oy), (ox + dx * escape, oy + dy * escape), s, p, parent, kind, depth)
            )
            continue
        hx, hy = ox + dx * best_t, oy + dy * best_t
        segments.append(Segment((ox, oy), (hx, hy), s, p, parent, kind, depth))
        if best >= len(edges):
            element = scene.elements[best - len(edges)]
            tx, ty = _past_element(element, (hx, hy), (dx, dy))
            if s + p >= min_brightness:
                kind = "reflect" if isinstance(element, Mirror) else "refract"
                queue.append(((hx, hy), (tx, ty), s, p, me, kind, depth + 1, best))
            continue
        _, _, (nx, ny), glass, *_ = edges[best]
        nx, ny = _normal_at(centres[best], (hx, hy), (nx, ny), (dx, dy))
        along = dx * nx + dy * ny
        beyond = 1.0
        for t, k, u in hits:
            if t <= best_t + eps and k not in struck and edges[k][3] != glass:
                way = _meets(edges, k, u, dx, dy)[0]
                if way != 0 and (way > 0) == leaving:
                    beyond = index_of[edges[k][3]]
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
