"""Names for parts where the shape says what they are: a figure's head, neck, torso, arms and legs.

Only geometry is used, never where the mesh came from: the largest part is a trunk when four other
parts come in two mirrored pairs beside it (by the left–right plane through the trunk's centre);
the lower pair is the legs (below the trunk's centre), the other the arms, well above the legs; a
part on that plane above the trunk is the head, and one between head and trunk the neck. Up is +y
and the figure faces +z (glTF's convention, which the pack's models follow), so the figure's left
is +x. A top on four legs (a table, a stool) is named too: "top", "front left leg", ...
(front +z, left -x, as one facing it). Any other shape keeps numbers only.
"""

from __future__ import annotations

import numpy as np

from .mesh import TriMesh

PAIR_AREA_RATIO = 1.35
"""The two parts of a pair differ in area by less than this factor."""
MIRROR_TOLERANCE = 0.12
"""Mirrored centres may miss each other by this share of the model's height."""


def part_names(mesh: TriMesh, labels: np.ndarray) -> tuple[str, ...]:
    """Per part (index = label): its name, or "" where the shape does not say."""
    count = int(labels.max()) + 1 if len(labels) else 0
    names = [""] * count
    if count < 5:
        return tuple(names)
    areas = mesh.face_areas
    area = np.bincount(labels, weights=areas, minlength=count)
    weighted = [
        np.bincount(labels, weights=areas * mesh.face_centers[:, k], minlength=count) for k in range(3)
    ]
    centre = np.stack(weighted, axis=1) / np.maximum(area, 1e-300)[:, None]
    height = float(np.ptp(mesh.vertices[:, 1])) or 1.0
    trunk = int(np.argmax(area))
    side = centre[:, 0] - centre[trunk, 0]
    pairs = _mirrored_pairs(centre, area, side, trunk, height)
    if len(pairs) < 2:
        return _table_names(names, centre, area, trunk)
    pairs = sorted(pairs, key=lambda pair: centre[list(pair), 1].mean())[:2]  # the two lowest pairs
    legs, arms = pairs
    legs_y, arms_y = centre[list(legs), 1].mean(), centre[list(arms), 1].mean()
    middle = [
        p
        for p in range(count)
        if p != trunk
        and all(p not in pair for pair in pairs)
        and abs(side[p]) < MIRROR_TOLERANCE * height
        and centre[p, 1] > centre[trunk, 1]
    ]
    middle.sort(key=lambda p: -centre[p, 1])
    figure = legs_y < centre[trunk, 1] < arms_y + 0.25 * height and arms_y - legs_y > 0.25 * height
    if not middle or not figure:
        return _table_names(names, centre, area, trunk)
    names[trunk] = "torso"
    for pair, kind in ((legs, "leg"), (arms, "arm")):
        for part in pair:
            names[part] = f"{'left' if side[part] > 0 else 'right'} {kind}"
    names[middle[0]] = "head"
    if len(middle) > 1:
        names[middle[1]] = "neck"
    return tuple(names)


def _table_names(names: list[str], centre, area, trunk: int) -> tuple[str, ...]:
    """A top on four legs: the largest part, and four parts of like area all below it, one in
    each quarter around it. Front is +z, left is -x (as one facing the table from the front)."""
    others = [p for p in range(len(area)) if p != trunk]
    if len(others) != 4 or max(area[others]) > PAIR_AREA_RATIO * min(area[others]):
        return tuple(names)
    offset = centre[others] - centre[trunk]
    if np.any(offset[:, 1] >= 0):
        return tuple(names)
    quarters = {(bool(dx > 0), bool(dz > 0)) for dx, _, dz in offset}
    if len(quarters) != 4:
        return tuple(names)
    names[trunk] = "top"
    for part, (dx, _, dz) in zip(others, offset, strict=True):
        names[part] = f"{'front' if dz > 0 else 'back'} {'right' if dx > 0 else 'left'} leg"
    return tuple(names)


def _mirrored_pairs(centre, area, side, trunk, height) -> list[tuple[int, int]]:
    """Parts that mirror each other across the trunk's left–right plane, each used once."""
    count = len(area)
    used: set[int] = {trunk}
    pairs = []
    for a in np.argsort(-area):
        a = int(a)
        if a in used:
            continue
        best, error = None, MIRROR_TOLERANCE * height
        for b in range(count):
            if b in used or b == a or max(area[a], area[b]) > PAIR_AREA_RATIO * min(area[a], area[b]):
                continue
            mirrored = np.array([-side[b], centre[b, 1] - centre[a, 1], centre[b, 2] - centre[a, 2]])
            miss = float(np.linalg.norm(mirrored - np.array([side[a], 0.0, 0.0])))
            if side[a] * side[b] < 0 and miss < error:
                best, error = b, miss
        if best is not None:
            pairs.append((a, best))
            used |= {a, best}
    return pairs
