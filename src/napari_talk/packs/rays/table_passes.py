"""The passes of the segment table the engine builds from a simulation's record: where each
segment ends (which scene object, which edge of a glass), its lineage's energy bookkeeping, and
how it was born.

Plain Python, importing no numba: :mod:`.table_kernel` compiles these very functions (IEEE
arithmetic, no fast-math: every value is the one the same formulas give in numpy; the lengths, by
``np.hypot``, stay with numpy), and a trace made before the kernels are loaded runs them as they
are (a scene of a few hundred segments takes milliseconds, where loading the kernels takes a
second, compiling them ten).
"""

from __future__ import annotations

import math

import numpy as np

from .simulation import REFLECT, REFRACT, SOURCE, TIR


def ends(
    rows: np.ndarray,
    length: np.ndarray,
    owner_id: np.ndarray,
    scale: float,
    p2: np.ndarray,
    unit: np.ndarray,
    end_object: np.ndarray,
    columns: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray],
) -> None:
    """Per recorded row: its direction, far end (a ray that escapes is drawn ``scale`` long), and
    the scene object it ends on, by its id (``owner_id``: for each simulator object, the id of the
    scene object that owns it; -1: the ray escapes); ``columns``: its start, brightness (s, p),
    wavelength, parent and depth, copied out."""
    p1, bs, bp, wl, parent, depth = columns
    for i in range(len(rows)):
        p1[i, 0], p1[i, 1] = rows[i, 0], rows[i, 1]
        bs[i], bp[i], wl[i] = rows[i, 6], rows[i, 7], rows[i, 8]
        depth[i], parent[i] = int(rows[i, 9]), int(rows[i, 11])
        obj = int(rows[i, 10])
        escaped = obj < 0
        end_object[i] = -1 if escaped else owner_id[obj]
        ux = (rows[i, 2] - rows[i, 0]) / length[i]
        uy = (rows[i, 3] - rows[i, 1]) / length[i]
        unit[i, 0], unit[i, 1] = ux, uy
        if escaped:
            p2[i, 0], p2[i, 1] = rows[i, 0] + ux * scale, rows[i, 1] + uy * scale
        else:
            p2[i, 0], p2[i, 1] = rows[i, 4], rows[i, 5]


def _gap(px: float, py: float, sx: float, sy: float, dx: float, dy: float, dd: float) -> float:
    """Squared distance from (px, py) to the segment from (sx, sy) along (dx, dy), dd its squared
    length (at least 1e-300)."""
    qx, qy = px - sx, py - sy
    t = (qx * dx + qy * dy) / dd
    t = 0.0 if t < 0.0 else (1.0 if t > 1.0 else t)
    gx, gy = qx - t * dx, qy - t * dy
    return gx * gx + gy * gy


def nearest_edges(
    points: np.ndarray,
    glass_of: np.ndarray,
    edges: np.ndarray,
    glass_edges: np.ndarray,
    few: int,
    end_edge: np.ndarray,
) -> None:
    """For each point on a glass (``glass_of`` >= 0): the glass's edge nearest to it, the first of
    equals, into ``end_edge``. ``edges``: every glass's edges (start x, y, end x, y) back to back,
    glass g's from ``glass_edges[g, 0]``, ``glass_edges[g, 1]`` of them; a glass of at most
    ``few`` edges tests them all, one of more searches a grid."""
    n_glass = len(glass_edges)
    counts = np.zeros(n_glass + 1, dtype=np.int64)
    for i in range(len(points)):
        if glass_of[i] >= 0:
            counts[glass_of[i] + 1] += 1
    for g in range(n_glass):
        counts[g + 1] += counts[g]
    order = np.empty(counts[n_glass], dtype=np.int64)
    fill = counts[:n_glass].copy()
    for i in range(len(points)):
        g = glass_of[i]
        if g >= 0:
            order[fill[g]] = i
            fill[g] += 1
    for g in range(n_glass):
        here = order[counts[g] : counts[g + 1]]
        if not len(here):
            continue
        first, count = glass_edges[g, 0], glass_edges[g, 1]
        span = edges[first : first + count]
        sx, sy = span[:, 0].copy(), span[:, 1].copy()
        dx, dy = span[:, 2] - sx, span[:, 3] - sy
        dd = np.empty(count)
        for e in range(count):
            dd[e] = max(dx[e] * dx[e] + dy[e] * dy[e], 1e-300)
        if count <= few:
            for i in here:
                best, best_gap = 0, math.inf
                for e in range(count):
                    gap = _gap(points[i, 0], points[i, 1], sx[e], sy[e], dx[e], dy[e], dd[e])
                    if gap < best_gap:
                        best, best_gap = e, gap
                end_edge[i] = best
        else:
            _grid_nearest(points, here, sx, sy, dx, dy, dd, end_edge)


def _grid_nearest(
    points: np.ndarray,
    here: np.ndarray,
    sx: np.ndarray,
    sy: np.ndarray,
    dx: np.ndarray,
    dy: np.ndarray,
    dd: np.ndarray,
    end_edge: np.ndarray,
) -> None:
    """Nearest edges of many edges through a grid of about one cell per edge: rings of cells
    around a point's cell, until the nearest gap found is below what any cell beyond can hold."""
    count = len(sx)
    low_x, low_y = np.empty(count), np.empty(count)
    high_x, high_y = np.empty(count), np.empty(count)
    ox, oy, top_x, top_y = math.inf, math.inf, -math.inf, -math.inf
    for e in range(count):
        ex, ey = sx[e] + dx[e], sy[e] + dy[e]
        low_x[e], high_x[e] = min(sx[e], ex), max(sx[e], ex)
        low_y[e], high_y[e] = min(sy[e], ey), max(sy[e], ey)
        ox, oy = min(ox, low_x[e]), min(oy, low_y[e])
        top_x, top_y = max(top_x, high_x[e]), max(top_y, high_y[e])
    width = max(top_x - ox, 1e-300)
    height = max(top_y - oy, 1e-300)
    extent = max(abs(ox), abs(oy), abs(ox + width), abs(oy + height), 1e-300)
    pad = 1e-9 * extent
    side = math.sqrt(width * height / count) if width * height > 0 else max(width, height) / count
    nx = min(max(1, round(width / side)), 1024)
    ny = min(max(1, round(height / side)), 1024)
    cw, ch = width / nx, height / ny
    first_x = np.empty(count, dtype=np.int64)
    first_y = np.empty(count, dtype=np.int64)
    last_x = np.empty(count, dtype=np.int64)
    last_y = np.empty(count, dtype=np.int64)
    start = np.zeros(nx * ny + 1, dtype=np.int64)
    for e in range(count):
        first_x[e] = _clip((low_x[e] - pad - ox) / cw, nx)
        last_x[e] = _clip((high_x[e] + pad - ox) / cw, nx)
        first_y[e] = _clip((low_y[e] - pad - oy) / ch, ny)
        last_y[e] = _clip((high_y[e] + pad - oy) / ch, ny)
        for cy in range(first_y[e], last_y[e] + 1):
            for cx in range(first_x[e], last_x[e] + 1):
                start[cy * nx + cx + 1] += 1
    for c in range(nx * ny):
        start[c + 1] += start[c]
    items = np.empty(start[nx * ny], dtype=np.int64)
    fill = start[: nx * ny].copy()
    for e in range(count):
        for cy in range(first_y[e], last_y[e] + 1):
            for cx in range(first_x[e], last_x[e] + 1):
                items[fill[cy * nx + cx]] = e
                fill[cy * nx + cx] += 1
    for i in here:
        px, py = points[i, 0], points[i, 1]
        cx0 = _clip((px - ox) / cw, nx)
        cy0 = _clip((py - oy) / ch, ny)
        margin = 1e-9 * max(extent, abs(px), abs(py))
        best, best_gap = count, math.inf
        ring = 0
        while True:
            for cy in range(max(cy0 - ring, 0), min(cy0 + ring, ny - 1) + 1):
                edge_row = cy == cy0 - ring or cy == cy0 + ring
                step = 1 if edge_row else 2 * ring
                cx = cx0 - ring
                while cx <= cx0 + ring:
                    if 0 <= cx < nx:
                        c = cy * nx + cx
                        for j in range(start[c], start[c + 1]):
                            e = items[j]
                            gap = _gap(px, py, sx[e], sy[e], dx[e], dy[e], dd[e])
                            if gap < best_gap or (gap == best_gap and e < best):
                                best, best_gap = e, gap
                    cx += step if step > 0 else 1
            # every edge not listed in the block of rings searched lies beyond one of its sides
            beyond = math.inf
            if cx0 - ring > 0:
                beyond = min(beyond, px - (ox + (cx0 - ring) * cw))
            if cx0 + ring < nx - 1:
                beyond = min(beyond, ox + (cx0 + ring + 1) * cw - px)
            if cy0 - ring > 0:
                beyond = min(beyond, py - (oy + (cy0 - ring) * ch))
            if cy0 + ring < ny - 1:
                beyond = min(beyond, oy + (cy0 + ring + 1) * ch - py)
            if beyond == math.inf or math.sqrt(best_gap) + margin < beyond:
                break
            ring += 1
        end_edge[i] = best


def _clip(f: float, n: int) -> int:
    """The cell of position ``f`` (in cells), clipped to 0..n-1 (NaN: 0)."""
    if f != f or f < 0:
        return 0
    if f >= n:
        return n - 1
    return math.floor(f)


def lineage(
    rows: np.ndarray,
    unit: np.ndarray,
    normals: np.ndarray,
    end_object: np.ndarray,
    owner_id: np.ndarray,
    glass: np.ndarray,
    mirror: np.ndarray,
    lost: np.ndarray,
    weight: np.ndarray,
    interaction: np.ndarray,
    source: np.ndarray,
) -> None:
    """Per row: its weight (1/amp), the brightness its end lost (not passed on to the segments it
    continues in, weighted), how it was born from its parent (reflected, refracted, totally
    reflected; a source's ray), and the id of the scene object that emitted it (``owner_id``: for
    each simulator object, its owner's id; -1: none). ``glass`` and ``mirror`` say, by id, which
    scene objects are the model's glasses and its mirrors (a mirror reflects every ray)."""
    n = len(rows)
    children = np.zeros(n, dtype=np.int64)
    child_sum = np.zeros(n)
    for i in range(n):
        weight[i] = 1.0 / rows[i, 13]
        p = int(rows[i, 11])
        if p >= 0:
            children[p] += 1
            child_sum[p] += (rows[i, 6] + rows[i, 7]) * weight[i]
    for i in range(n):
        total = rows[i, 6] + rows[i, 7]
        lost[i] = 0.0 if rows[i, 10] < 0 else total - child_sum[i]
        s = int(rows[i, 12])
        source[i] = owner_id[s] if 0 <= s < len(owner_id) else -1
        p = int(rows[i, 11])
        if p < 0:
            interaction[i] = SOURCE
            continue
        nx, ny = normals[p, 0], normals[p, 1]
        dn0 = unit[p, 0] * nx + unit[p, 1] * ny
        dn1 = unit[i, 0] * nx + unit[i, 1] * ny
        along = unit[p, 0] * unit[i, 0] + unit[p, 1] * unit[i, 1]
        reflected = along < 0 if dn0 != dn0 else dn0 * dn1 < 0
        ended = end_object[p]
        if ended >= 0 and mirror[ended]:
            interaction[i] = REFLECT
        elif reflected and ended >= 0 and glass[ended] and dn0 > 0 and children[p] == 1:
            interaction[i] = TIR
        else:
            interaction[i] = REFLECT if reflected else REFRACT
