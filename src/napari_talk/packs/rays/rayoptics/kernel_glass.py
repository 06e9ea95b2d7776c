# SPDX-License-Identifier: Apache-2.0 AND MIT
# SPDX-FileCopyrightText: 2024 The Ray Optics Simulation authors and contributors
# SPDX-FileCopyrightText: 2019 David Bau
# SPDX-FileCopyrightText: 2026 napari-talk contributors
#
# Translated from ray-optics (https://github.com/ricktu288/ray-optics, by Yi-Ting Tu and contributors):
# src/core/sceneObjs/BaseGlass.js, src/core/sceneObjs/glass/Glass.js,
# src/core/sceneObjs/glass/CircleGlass.js.
# Licensed under the Apache License, Version 2.0 (see LICENSES/Apache-2.0.txt); modified: translated to
# Python and changed for napari-talk (2026).
# Its seeded draws translate seedrandom (https://github.com/davidbau/seedrandom): seedrandom.js, its ARC4
# generator. Licensed under the MIT License (see LICENSES/MIT-seedrandom.txt); modified: translated to
# Python and changed for napari-talk (2026).
"""Compiled (numba) glass physics of the vector stage: a run of a chunk's rays meets the glasses
they hit, in slot order, by the arithmetic of the objects' own methods (``classify`` with its two
seeded draws per ray at an outline glass, ``CircleGlass`` sides, ``BaseGlass.refract``: Fresnel
partial reflection, total reflection, faint reflections kept one in ``amp``).

IEEE semantics throughout (no fast-math). The squares of the Fresnel coefficients are ``pow``
of the C library, as Python's ``x ** 2`` computes them (it can differ from ``x * x`` in the last
bit); the exponent is passed in at run time so the compiler cannot turn the call into a product.
The cosine of a negative index's ray and the draws' arithmetic are the C library's and Python's
float operations too.

A run stops and hands back to the caller at a ray the caller must do itself: one that meets a
glass by the objects' methods (it may draw random numbers: order matters), one whose
classification is not clear (the caller classifies it by ``classify_with`` and resumes), or when
the random stream's buffer runs short.
"""

from __future__ import annotations

import math

import numpy as np

from .compiled import inlined, kernel
from .kernel_hits import arc_exists, circle_points, segment_hit
from .layout import AMP, BP, BS, DEPTH, GAP, NEW, PARENT, SOURCE, WL, X1, X2, Y1, Y2

DONE, SINGLE, CLASSIFY, BYTES = 0, 1, 2, 3
"""Why a run stopped: finished, a ray for the objects' methods, a ray to classify, more bytes."""
TRUNCATION, UNDEFINED, FIRST_UNDEFINED, CHILDREN, AT, TEST_X, TEST_Y = range(7)
"""Slots of a run's state: brightness truncated and undefined, the first undefined object (-1),
children written, the random stream's position, the test ray's end of a ray to classify."""

_SIGNIFICANCE = 2.0**52
_OVERFLOW = 2.0**53


@inlined
def draw(buffer: np.ndarray, at: int) -> tuple[float, int]:
    """``SeededRandom()``: the next double of the key stream from byte ``at``, and where the next
    draw starts; (NaN, ``at``) if the buffer ends first."""
    end = len(buffer)
    if at + 6 > end:
        return math.nan, at
    whole = 0
    for k in range(6):
        whole = whole * 256 + int(buffer[at + k])
    pos = at + 6
    n = float(whole)
    d = 256.0**6
    x = 0
    while n < _SIGNIFICANCE:
        n = (n + x) * 256
        d *= 256
        if pos >= end:
            return math.nan, at
        x = int(buffer[pos])
        pos += 1
    while n >= _OVERFLOW:
        n /= 2
        d /= 2
        x >>= 1
    return (n + x) / d, pos


@kernel
def draws(buffer: np.ndarray, at: int, out: np.ndarray) -> tuple[int, int]:
    """Fill ``out`` with draws from byte ``at``: how many were drawn (fewer if the buffer ends),
    and where the next starts."""
    for k in range(len(out)):
        value, nxt = draw(buffer, at)
        if nxt == at:
            return k, at
        out[k], at = value, nxt
    return len(out), at


@inlined
def classify(
    x1: float,
    y1: float,
    x2: float,
    y2: float,
    tx2: float,
    ty2: float,
    edges: np.ndarray,
    arc: np.ndarray,
    min_sq: float,
    clear: float,
) -> tuple[bool, float, float, float]:
    """``classify_with`` for a ray meeting an outline glass of ``edges`` when its nearest side is
    clear of the others (the first value: otherwise the caller classifies it): kind, normal."""
    best, best_len, second = -1, math.inf, math.inf
    best_nx, best_ny, best_x, best_y = 0.0, 0.0, math.nan, math.nan
    crossings = 0
    for k in range(len(edges)):
        e = edges[k]
        found, px, py, plen, enx, eny = False, math.nan, math.nan, math.inf, 0.0, 0.0
        if not arc[k]:
            ax, ay, bx, by = e[0], e[1], e[2], e[3]
            crossed, qx, qy = segment_hit(x1, y1, x2, y2, ax, ay, bx, by)
            ql = (x1 - qx) * (x1 - qx) + (y1 - qy) * (y1 - qy)
            found, px, py, plen = crossed and ql > min_sq, qx, qy, ql
            rdx, rdy = x2 - x1, y2 - y1
            ex, ey = bx - ax, by - ay
            rdots = rdx * ex + rdy * ey
            ssq = ex * ex + ey * ey
            enx = rdots * ex - ssq * rdx
            eny = rdots * ey - ssq * rdy
            tc, tqx, tqy = segment_hit(x1, y1, tx2, ty2, ax, ay, bx, by)
            tl = (x1 - tqx) * (x1 - tqx) + (y1 - tqy) * (y1 - tqy)
            if tc and tl > min_sq:
                crossings += 1
        else:
            q0x, q0y, q1x, q1y = circle_points(x1, y1, x2, y2, e[6], e[7], e[8])
            arc_k = (e[0], e[1], e[2], e[3], e[4], e[5])
            on0, e0, l0 = arc_exists(x1, y1, x2, y2, q0x, q0y, arc_k, min_sq)
            on1, e1, l1 = arc_exists(x1, y1, x2, y2, q1x, q1y, arc_k, min_sq)
            first = e0 and (not e1 or l0 < l1) and l0 > min_sq
            second_pt = not first and e1 and (not e0 or l1 < l0) and l1 > min_sq
            outward = (on1 and l0 < l1) if first else (on0 and l1 < l0)
            found = first or second_pt
            px, py, plen = (q0x, q0y, l0) if first else (q1x, q1y, l1)
            cx, cy = e[6], e[7]
            enx = px - cx if outward else cx - px
            eny = py - cy if outward else cy - py
            t0x, t0y, t1x, t1y = circle_points(x1, y1, tx2, ty2, e[6], e[7], e[8])
            _, te0, tl0 = arc_exists(x1, y1, tx2, ty2, t0x, t0y, arc_k, min_sq)
            _, te1, tl1 = arc_exists(x1, y1, tx2, ty2, t1x, t1y, arc_k, min_sq)
            crossings += (1 if te0 and tl0 > min_sq else 0) + (1 if te1 and tl1 > min_sq else 0)
        if not found:
            plen = math.inf
        # the nearest side (the first among equals) and the next distance of any other side
        if plen < best_len or best < 0:
            second = best_len if best >= 0 else second
            best, best_len, best_nx, best_ny, best_x, best_y = k, plen, enx, eny, px, py
        elif plen < second:
            second = plen
    if best < 0:
        return False, math.nan, 0.0, 0.0
    near = best_len
    if not (near < math.inf and math.sqrt(second) > math.sqrt(near) + clear):
        return False, math.nan, 0.0, 0.0
    e = edges[best]
    corner = (best_x - e[0]) * (best_x - e[0]) + (best_y - e[1]) * (best_y - e[1]) < min_sq or (
        best_x - e[2]
    ) * (best_x - e[2]) + (best_y - e[3]) * (best_y - e[3]) < min_sq
    kind = math.nan if corner else (1.0 if crossings % 2 == 1 else -1.0)
    return True, kind, best_nx, best_ny


@kernel
def refract_run(
    k: int,
    rows: np.ndarray,
    slots: np.ndarray,
    obj: np.ndarray,
    hx: np.ndarray,
    hy: np.ndarray,
    vector: np.ndarray,
    alive: np.ndarray,
    single: np.ndarray,
    glass: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray],
    edges: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray],
    given: np.ndarray,
    buffer: np.ndarray,
    limits: np.ndarray,
    children: np.ndarray,
    child_of: np.ndarray,
    state: np.ndarray,
) -> tuple[int, int]:
    """Rays ``k`` on of the chunk meet their glasses in order; returns why the run stopped and
    at which ray. ``rows`` are moved on in place and ``alive`` cleared for rays that end; a
    reflected ray is written to ``children`` (its ray's position in ``child_of``).

    ``vector``: rays done here; ``single``: objects whose rays the caller does (a ray of
    neither is left for later). ``glass``: per object: outline (1.0) or circle, index, Cauchy B,
    partial reflection (1.0), and centre and r² of a circle; ``edges``: per object the first edge
    and edge count, the edges' table and which are arcs. ``given``: ray, kind, normal of a ray
    classified by the caller (ray -1: none). ``limits``: min_sq, clear distance, brightness
    floor, threshold, whether colours are simulated, the exponent 2.0."""
    kind_of, index, cauchy, partial, centre = glass
    edge_start, edge_count, edge_table, edge_arc = edges
    min_sq, clear = limits[0], limits[1]
    at = int(state[AT])
    m = len(rows)
    while k < m:
        if not vector[k]:
            if alive[k] and single[obj[k]]:
                state[AT] = at
                return SINGLE, k
            k += 1
            continue
        o = obj[k]
        row = rows[k]
        x1, y1, x2, y2 = row[X1], row[Y1], row[X2], row[Y2]
        px, py = hx[k], hy[k]
        if kind_of[o] == 1.0:
            if given[0] == k:
                kind, nx, ny = given[1], given[2], given[3]
                given[0] = -1.0
            else:
                u, nxt = draw(buffer, at)
                v, last = draw(buffer, nxt)
                if nxt == at or last == nxt:
                    state[AT] = at
                    return BYTES, k
                at = last
                tx2 = x2 + u * 1e-5
                ty2 = y2 + v * 1e-5
                first = edge_start[o]
                span = edge_table[first : first + edge_count[o]]
                clean, kind, nx, ny = classify(
                    x1, y1, x2, y2, tx2, ty2, span, edge_arc[first : first + edge_count[o]], min_sq, clear
                )
                if not clean:
                    state[AT], state[TEST_X], state[TEST_Y] = at, tx2, ty2
                    return CLASSIFY, k
        else:
            cx, cy, r_sq = centre[o, 0], centre[o, 1], centre[o, 2]
            midx, midy = (x1 + px) * 0.5, (y1 + py) * 0.5
            side = r_sq - ((cx - midx) * (cx - midx) + (cy - midy) * (cy - midy))
            kind = 1.0 if side > 0 else (-1.0 if side < 0 else math.nan)
            nx = cx - px if kind == 1 else px - cx
            ny = cy - py if kind == 1 else py - cy
        physics = (index, cauchy, partial, limits)
        _refract(k, rows, slots[k], (px, py, kind, nx, ny), o, physics, alive, children, child_of, state)
        k += 1
    state[AT] = at
    return DONE, m


@inlined
def _refract(
    k: int,
    rows: np.ndarray,
    slot: int,
    hit: tuple[float, float, float, float, float],
    o: int,
    physics: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray],
    alive: np.ndarray,
    children: np.ndarray,
    child_of: np.ndarray,
    state: np.ndarray,
) -> None:
    """``BaseGlass.refract`` of ray ``k`` at ``hit`` (x, y, kind, normal's x and y)."""
    px, py, kind, nx, ny = hit
    index, cauchy, partial, limits = physics
    floor, threshold, colors, two = limits[2], limits[3], limits[4] != 0, limits[5]
    row = rows[k]
    n = index[o]
    if colors:
        wl = row[WL]
        n = n + cauchy[o] / (wl * wl * 0.000001)
    if kind != kind:
        state[UNDEFINED] += row[BS] + row[BP]
        if state[FIRST_UNDEFINED] < 0:
            state[FIRST_UNDEFINED] = o
        alive[k] = False
        return
    n1 = n if kind == 1 else (1 / n if kind == -1 else 1.0)
    negative = n1 < 0
    if negative:
        n1 = -n1
    nl = math.sqrt(nx * nx + ny * ny)
    nx, ny = nx / nl, ny / nl
    x1, y1 = row[X1], row[Y1]
    dx, dy = row[X2] - x1, row[Y2] - y1
    rl = math.sqrt(dx * dx + dy * dy)
    rx, ry = dx / rl, dy / rl
    cos1 = -nx * rx - ny * ry
    sq1 = 1 - n1 * n1 * (1 - cos1 * cos1)
    rdx = px + rx + 2 * cos1 * nx
    rdy = py + ry + 2 * cos1 * ny
    if sq1 < 0:
        row[X1], row[Y1], row[X2], row[Y2] = px, py, rdx, rdy
        return
    cos2 = math.sqrt(sq1)
    r_s, r_p = 0.0, 0.0
    if partial[o] != 0:
        r_s = math.pow((n1 * cos1 - cos2) / (n1 * cos1 + cos2), two)
        r_p = math.pow((n1 * cos2 - cos1) / (n1 * cos2 + cos1), two)
    bs, bp = row[BS], row[BP]
    rbs, rbp = bs * r_s, bp * r_p
    bright = rbs + rbp
    scale = 0.0
    if bright > floor:
        scale = 1.0
    else:
        state[TRUNCATION] += bright
        if row[GAP] == 0 and bright > 0:
            amp = np.floor(0.01 / bright) + 1
            if amp < math.inf and np.fmod(float(slot), amp) == 0:
                scale = amp
    if scale != 0:
        c = int(state[CHILDREN])
        child = children[c]
        child[X1], child[Y1], child[X2], child[Y2] = px, py, rdx, rdy
        child[BS], child[BP] = rbs * scale, rbp * scale
        child[WL], child[DEPTH], child[GAP] = row[WL], row[DEPTH], row[GAP]
        child[AMP], child[PARENT], child[SOURCE], child[NEW] = scale, row[PARENT], row[SOURCE], 1.0
        child_of[c] = k
        state[CHILDREN] = c + 1
    if negative:
        n1 = -n1
        cos2 = math.cos(2 * math.pi - math.acos(cos2))
    row[X1], row[Y1] = px, py
    row[X2] = px + n1 * rx + (n1 * cos1 - cos2) * nx
    row[Y2] = py + n1 * ry + (n1 * cos1 - cos2) * ny
    row[BS] = bs * (1 - r_s)
    row[BP] = bp * (1 - r_p)
    left = row[BS] + row[BP]
    if not left > threshold:
        state[TRUNCATION] += left
        alive[k] = False
