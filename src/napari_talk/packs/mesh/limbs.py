"""Limbs of a part, found where they narrow: a Reeb graph of geodesic distance from the part's
thickest face, read with the shape diameter.

After the topological segmentations of Hilaga et al. (2001, "Topology matching for fully
automatic similarity estimation of 3D shapes") and Tierny, Vandeborre and Daoudi (2007,
"Topological mesh segmentation using enhanced Reeb graphs"): geodesic distance from a centre
is cut into bands; where a band's faces fall into several connected rings, the surface has
branched, and each branch running out to a tip is a protrusion. A protrusion becomes a part of
its own only when it looks like a limb: long against its own shape diameter (Shapira, Shamir and
Cohen-Or, 2008) and thinner than the body's core, where it joins too (a narrowing). Fingers merge into a
hand when they fail that, and a branch that carries a single limb on is one tube with it. On a
closed surface a clear neck (the minima rule of Hoffman and Richards, 1984: parts meet where the
surface narrows) stands for some of the length: a thumb beside a fist is short but joins through
a neck, and the thick ball of the thumb behind it is not part of it.
Everything is one Dijkstra and one connected-components pass per part, then a loop over rings.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from scipy.sparse import coo_matrix
from scipy.sparse.csgraph import connected_components, dijkstra

BANDS = 40
LIMB_SHARE = 0.012
"""A limb is at least this share of the whole surface."""
MAX_LIMB_SHARE = 0.4
"""A limb is less than this share (more is the body)."""
LIMB_LENGTH = 1.3
"""A limb is at least this many of its own diameters long."""
SHORT_LIMB_LENGTH = 1.0
NECK = 0.4
"""A limb joined through a neck this narrow (a share of the core's thickness) needs only
SHORT_LIMB_LENGTH diameters: a clear narrowing is evidence enough (a thumb beside a fist)."""
NARROWING = 0.75
"""A limb is at most this share of the thickness of the body's core (around its thickest face)."""
BASE_NARROWING = 0.9
"""Where a limb joins, it is at most this share of the core's thickness."""
CORE_BANDS = 3
"""The bands nearest the thickest face are the core."""
PART_SHARE = 0.4
"""Only parts at least this share of the surface are looked into."""
FORK_SHARE = 0.6
"""A part is a fork when its limbs hold at least this share of it."""


class Faces(NamedTuple):
    """What the limb search reads of a surface, per face: its neighbours (face ``f[i]`` borders
    face ``g[i]``), centre, area and shape diameter."""

    f: np.ndarray
    g: np.ndarray
    centers: np.ndarray
    areas: np.ndarray
    diameter: np.ndarray


def split_limbs(parts: np.ndarray, faces: Faces, necks: bool = True) -> np.ndarray:
    """``parts`` with each large part's limbs given labels of their own. ``necks``: whether a
    clear neck may stand for length (the shape diameter is trusted: no ray left through a hole)."""
    total = float(faces.areas.sum())
    labels = parts.copy()
    next_label = int(parts.max()) + 1
    part_area = np.bincount(parts, weights=faces.areas)
    for part in np.flatnonzero(part_area >= PART_SHARE * total):
        found = _limbs_of(parts == part, faces, total, necks)
        for limb in found:
            labels[limb] = next_label
            next_label += 1
    return labels


def split_forks(parts: np.ndarray, faces: Faces) -> np.ndarray:
    """``parts`` with each fork split: a part (not the largest) that is mostly two or more limbs,
    as two legs joined at the hip where both are thinner than the body, gives each limb a label.
    Any other part keeps its bumps (a head's ears, a palm's knuckles)."""
    areas = faces.areas
    total = float(areas.sum())
    labels = parts.copy()
    next_label = int(parts.max()) + 1
    part_area = np.bincount(parts, weights=areas)
    largest = int(np.argmax(part_area))
    for part in np.flatnonzero(part_area >= 2 * LIMB_SHARE * total):
        if part == largest:
            continue
        found = _limbs_of(parts == part, faces, total)
        if len(found) < 2 or sum(float(areas[limb].sum()) for limb in found) < FORK_SHARE * part_area[part]:
            continue
        for limb in found:
            labels[limb] = next_label
            next_label += 1
    return labels


def _limbs_of(mask: np.ndarray, surface: Faces, total: float, necks: bool = False) -> list[np.ndarray]:
    """The limbs of one part. With ``necks``, a clear neck stands for length (see NECK): on a
    whole body, whose core is the trunk; a fork's core is only its own hip."""
    f, g, centers, areas, diameter = surface
    faces = np.flatnonzero(mask)
    if len(faces) < 50:
        return []
    local = np.full(len(mask), -1)
    local[faces] = np.arange(len(faces))
    inside = mask[f] & mask[g]
    a, b = local[f[inside]], local[g[inside]]
    n = len(faces)
    step = np.linalg.norm(centers[faces[a]] - centers[faces[b]], axis=1) + 1e-12
    graph = coo_matrix((np.concatenate([step, step]), (np.concatenate([a, b]), np.concatenate([b, a]))),
                       shape=(n, n)).tocsr()  # fmt: skip
    thick = diameter[faces]
    root = int(np.argmax(thick))
    distance = dijkstra(graph, directed=False, indices=root)
    reached = np.isfinite(distance)
    far = float(distance[reached].max()) if reached.any() else 0.0
    if far <= 0:
        return []
    scaled = np.where(reached, distance / far * BANDS, -1.0)
    band = np.where(reached, np.minimum(scaled.astype(np.int64), BANDS - 1), -1)
    same = band[a] == band[b]
    rings_graph = coo_matrix((np.ones(int(same.sum())), (a[same], b[same])), shape=(n, n))
    _, ring = connected_components(rings_graph, directed=False)
    count = int(ring.max()) + 1
    ring_band = np.full(count, -1)
    ring_band[ring] = band
    step_up = band[b] - band[a]
    lo = np.where(step_up > 0, ring[a], ring[b])[step_up != 0]
    hi = np.where(step_up > 0, ring[b], ring[a])[step_up != 0]
    pairs = np.unique(np.stack([lo, hi], axis=1), axis=0) if len(lo) else np.zeros((0, 2), np.int64)
    ups: list[list[int]] = [[] for _ in range(count)]
    for low, high in pairs:
        ups[int(low)].append(int(high))

    ring_area = np.bincount(ring, weights=areas[faces], minlength=count)
    ring_thick = np.bincount(ring, weights=areas[faces] * thick, minlength=count) / np.maximum(
        ring_area, 1e-300
    )
    ring_far = np.full(count, -np.inf)
    np.maximum.at(ring_far, ring, distance)
    ring_near = np.full(count, np.inf)
    np.minimum.at(ring_near, ring, distance)

    branch_of = np.full(count, -1)
    branches: list[dict] = []
    continued: list[int] = []  # which branch goes on where a branch ran into a junction

    def active(branch: int) -> int:
        while continued[branch] != branch:
            continued[branch] = continued[continued[branch]]
            branch = continued[branch]
        return branch

    for r in sorted(range(count), key=lambda r: -ring_band[r]):
        if ring_band[r] < 0:
            continue
        above = {active(int(branch_of[u])) for u in ups[r] if branch_of[u] >= 0}
        if len(above) == 1:
            branch = above.pop()
        else:
            branch = len(branches)
            branches.append({"rings": [], "children": sorted(above), "area": 0.0, "thick": 0.0,
                             "near": np.inf, "far": -np.inf, "base": 0.0})  # fmt: skip
            continued.append(branch)
            for child in above:
                continued[child] = branch
        branch_of[r] = branch
        info = branches[branch]
        info["rings"].append(r)
        info["area"] += ring_area[r]
        info["thick"] += ring_area[r] * ring_thick[r]
        info["far"] = max(info["far"], ring_far[r])
        if ring_near[r] <= info["near"]:
            info["near"], info["base"] = ring_near[r], ring_thick[r]
    if len(branches) < 2:
        return []

    near_root = ring_band[ring] <= CORE_BANDS
    core = float(np.average(thick[near_root], weights=areas[faces][near_root]))
    owner = list(range(len(branches)))

    def find(x: int) -> int:
        while owner[x] != x:
            owner[x] = owner[owner[x]]
            x = owner[x]
        return x

    def is_limb(info: dict) -> bool:
        mean = info["thick"] / max(info["area"], 1e-300)
        length = SHORT_LIMB_LENGTH if necks and info["base"] <= NECK * core else LIMB_LENGTH
        return bool(
            LIMB_SHARE * total <= info["area"] <= MAX_LIMB_SHARE * total
            and info["far"] - info["near"] >= length * mean
            and mean <= NARROWING * core
            and info["base"] <= BASE_NARROWING * core
        )

    limb = [False] * len(branches)
    root_branch = int(branch_of[ring[root]])
    for index, info in enumerate(branches):  # children are made before their parents
        kept = [c for c in info["children"] if limb[c]]
        rest = sum(branches[c]["area"] for c in info["children"] if not limb[c])
        for child in info["children"]:
            if not limb[child]:
                _absorb(branches, owner, index, find(child))
        if index == root_branch:
            continue
        if len(kept) == 1 and rest < LIMB_SHARE * total:
            # a branch carrying a single limb on is one tube with it, unless the limb ends at a
            # clear neck and the tube is no limb (a thumb, whose root is as thick as the palm)
            child = branches[kept[0]]
            tube = {**info, "area": info["area"] + child["area"], "thick": info["thick"] + child["thick"],
                    "far": max(info["far"], child["far"])}  # fmt: skip
            if is_limb(tube) or not necks or child["base"] > NECK * core:
                _absorb(branches, owner, index, kept[0])
                limb[kept[0]] = False
            else:
                continue
        limb[index] = is_limb(info)
    found = []
    for index in range(len(branches)):
        if limb[index] and find(index) == index:
            members = [r for r, b in enumerate(branch_of) if b >= 0 and find(int(b)) == index]
            found.append(faces[np.isin(ring, members)])
    return found


def _absorb(branches: list[dict], owner: list[int], into: int, child: int) -> None:
    if child == into:
        return
    owner[child] = into
    target, source = branches[into], branches[child]
    target["area"] += source["area"]
    target["thick"] += source["thick"]
    target["far"] = max(target["far"], source["far"])
