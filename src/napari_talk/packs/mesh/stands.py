"""Feet a body stands on: stub legs found from the plane they rest on.

A leg shorter than it is wide, whose flank runs smoothly into the body's, neither narrows nor
meets the body at a crease, so :mod:`.limbs` and the concave creases miss it. What still marks it
is the plane the body stands on: a facet of the convex hull (the supporting polygons of Fu,
Cohen-Or, Dror and Sheffer, 2008, "Upright orientation of man-made objects") that the surface
touches in three or more separate places. The plane is swept into the body, following how the
sublevel sets of the height above it grow and merge (the Reeb graph of a height function, after
Shinagawa, Kunii and Kergosien, 1991, "Surface coding based on Morse theory"): each contact grows
into a leg until the legs meet under the belly, and the legs are the pieces of the surface nearer
the plane than that level.
"""

from __future__ import annotations

import numpy as np
from scipy.sparse import coo_matrix
from scipy.sparse.csgraph import connected_components

from .limbs import Faces

PLANE_SHARE = 0.005
"""A hull facet is a plane the body might stand on when it holds this share of the hull's area."""
SAME_PLANE = 1.0
"""Hull facets whose normals differ by less than this many degrees are one plane."""
FEET = 3
"""A stand touches its plane in at least this many separate places (a stable base)."""
FOOT_SHARE = 0.01
"""A foot is at least this share of the whole surface (as any part)."""
STEP = 0.05
"""The plane is swept into the body in steps of this share of the body's median shape diameter."""
MIN_LENGTH = 0.3
"""Feet are legs only when they stay apart this far into the body (a share of its median shape
diameter); bumps of one sole meet within a step or two."""


def split_feet(parts: np.ndarray, vertices: np.ndarray, surface: Faces) -> np.ndarray:
    """``parts`` with the legs the largest part stands on given labels of their own (unchanged
    when it stands on no plane in FEET places)."""
    from scipy.spatial import ConvexHull, QhullError

    areas = surface.areas
    total = float(areas.sum())
    body = int(np.argmax(np.bincount(parts, weights=areas)))
    mask = parts == body
    scale = float(np.nanmedian(surface.diameter[mask]))
    if not np.isfinite(scale) or scale <= 0 or len(vertices) < 4:
        return parts
    try:
        hull = ConvexHull(vertices)
    except QhullError:  # flat or degenerate: nothing stands
        return parts
    corners = vertices[hull.simplices]
    facet = np.linalg.norm(np.cross(corners[:, 1] - corners[:, 0], corners[:, 2] - corners[:, 0]), axis=1)
    best: list[np.ndarray] = []
    best_length = 0.0
    done: list[np.ndarray] = []
    for index in np.argsort(-facet):
        if facet[index] < PLANE_SHARE * facet.sum():
            break
        normal = hull.equations[index, :3]
        if any(float(normal @ seen) > np.cos(np.radians(SAME_PLANE)) for seen in done):
            continue  # one plane cut into several facets
        done.append(normal)
        depth = -hull.equations[index, 3] - surface.centers @ normal
        feet, length = _feet(mask, depth, surface, scale, total)
        stands = len(feet) >= FEET and length >= MIN_LENGTH * scale
        if stands and (len(feet), length) > (len(best), best_length):  # most feet, then longest legs
            best, best_length = feet, length
    labels = parts.copy()
    for label, foot in enumerate(best, start=int(parts.max()) + 1):
        labels[foot] = label
    return labels


def _feet(
    mask: np.ndarray, depth: np.ndarray, surface: Faces, scale: float, total: float
) -> tuple[list[np.ndarray], float]:
    """The body's pieces nearer the plane than the deepest level at which FEET of them, each
    touching the plane and at least FOOT_SHARE of the surface, are still apart; and that level."""
    feet: list[np.ndarray] = []
    level = 0.0
    step = STEP * scale
    if np.count_nonzero(mask & (depth < step)) < FEET:
        return feet, level
    for k in range(1, 1000):
        nodes = np.flatnonzero(mask & (depth < k * step))
        local = np.full(len(mask), -1)
        local[nodes] = np.arange(len(nodes))
        a, b = local[surface.f], local[surface.g]
        linked = (a >= 0) & (b >= 0)
        m = len(nodes)
        graph = coo_matrix((np.ones(int(linked.sum())), (a[linked], b[linked])), shape=(m, m))
        _, piece = connected_components(graph, directed=False)
        touching = np.unique(piece[depth[nodes] < step])
        if len(touching) < FEET:  # pieces only ever join as the plane goes deeper
            break
        area = np.bincount(piece, weights=surface.areas[nodes])
        large = touching[area[touching] >= FOOT_SHARE * total]
        if len(large) >= FEET:
            feet = [nodes[piece == p] for p in large]
            level = k * step
    return feet, level
