"""Names for parts where the shape says what they are: a figure's head, neck, torso, arms and legs.

Only geometry is used, never where the mesh came from: the largest part is a trunk when four other
parts come in two mirrored pairs beside it (by the left–right plane through the trunk's centre);
the lower pair is the legs (below the trunk's centre), the other the arms, well above the legs; a
part on that plane above the trunk is the head, and one between head and trunk the neck. Up is +y
and the figure faces +z (glTF's convention, which the pack's models follow), so the figure's left
is +x. A top on four legs (a table, a stool) is named too: "top", "front left leg", ...
(front +z, left -x, as one facing it). A name needs its evidence: limbs and legs are long
(``LIMB_ELONGATION``), a head is a real share of the surface; any other shape keeps numbers only
("part 3"). Only the largest parts are looked at, so naming stays linear in the faces.
"""

from __future__ import annotations

import numpy as np

from .mesh import TriMesh

PAIR_AREA_RATIO = 1.35
"""The two parts of a pair differ in area by less than this factor."""
MIRROR_TOLERANCE = 0.12
"""Mirrored centres may miss each other by this share of the model's height."""
CANDIDATES = 12
"""Only the largest parts can be a trunk, limbs, a head or legs."""
MIN_SHARE = 0.01
"""A part under this share of the surface is never named."""
LIMB_ELONGATION = 1.8
"""An arm, a leg or a table leg is at least this much longer than it is wide."""
HEAD_SHARE = 0.02
"""A head is at least this share of the surface (a beak or a peg is less)."""


def part_names(mesh: TriMesh, labels: np.ndarray) -> tuple[str, ...]:
    """Per part (index = label): its name, or "" where the shape does not say.

    Linear in the faces; only the ``CANDIDATES`` largest parts are paired (a model split into
    thousands of pieces costs no more to name than one in seven)."""
    count = int(labels.max()) + 1 if len(labels) else 0
    names = [""] * count
    if count < 5:
        return tuple(names)
    stats = _PartStats.of(mesh, labels, count)
    area, centre = stats.area, stats.centre
    height = float(np.ptp(mesh.vertices[:, 1])) or 1.0
    trunk = int(np.argmax(area))
    side = centre[:, 0] - centre[trunk, 0]
    candidates = [int(p) for p in np.argsort(-area)[:CANDIDATES] if area[p] >= MIN_SHARE * area.sum()]
    pairs = _mirrored_pairs(centre, area, side, trunk, height, candidates)
    if len(pairs) < 2:
        return _table_names(names, stats, trunk, candidates)
    pairs = sorted(pairs, key=lambda pair: centre[list(pair), 1].mean())[:2]  # the two lowest pairs
    legs, arms = pairs
    legs_y, arms_y = centre[list(legs), 1].mean(), centre[list(arms), 1].mean()
    middle = [
        p
        for p in candidates
        if p != trunk
        and all(p not in pair for pair in pairs)
        and abs(side[p]) < MIRROR_TOLERANCE * height
        and centre[p, 1] > centre[trunk, 1]
    ]
    middle.sort(key=lambda p: -centre[p, 1])
    figure = legs_y < centre[trunk, 1] < arms_y + 0.25 * height and arms_y - legs_y > 0.25 * height
    limbs = [*legs, *arms]
    evidence = (
        figure
        and bool(middle)
        and all(stats.elongation[p] >= LIMB_ELONGATION for p in limbs)
        and area[middle[0]] >= HEAD_SHARE * area.sum()
        and area[middle[0]] >= 0.25 * min(area[p] for p in limbs)
    )
    if not evidence:
        return _table_names(names, stats, trunk, candidates)
    names[trunk] = "torso"
    for pair, kind in ((legs, "leg"), (arms, "arm")):
        for part in pair:
            names[part] = f"{'left' if side[part] > 0 else 'right'} {kind}"
    names[middle[0]] = "head"
    if len(middle) > 1:
        names[middle[1]] = "neck"
    return tuple(names)


class _PartStats:
    """Per part: area, area-weighted centre, and elongation (longest over middle principal axis)."""

    def __init__(self, area: np.ndarray, centre: np.ndarray, elongation: np.ndarray) -> None:
        self.area, self.centre, self.elongation = area, centre, elongation

    @classmethod
    def of(cls, mesh: TriMesh, labels: np.ndarray, count: int) -> _PartStats:
        areas = mesh.face_areas
        points = mesh.face_centers
        area = np.bincount(labels, weights=areas, minlength=count)
        weight = np.maximum(area, 1e-300)
        centre = (
            np.stack(
                [np.bincount(labels, weights=areas * points[:, k], minlength=count) for k in range(3)], axis=1
            )
            / weight[:, None]
        )
        second = np.empty((count, 3, 3))
        for i in range(3):
            for j in range(i, 3):
                moment = np.bincount(labels, weights=areas * points[:, i] * points[:, j], minlength=count)
                second[:, i, j] = second[:, j, i] = moment / weight - centre[:, i] * centre[:, j]
        spread = np.clip(np.linalg.eigvalsh(second), 0.0, None)  # ascending
        elongation = np.sqrt(spread[:, 2] / np.maximum(spread[:, 1], 1e-300))
        return cls(area, centre, elongation)


def _table_names(names: list[str], stats: _PartStats, trunk: int, candidates: list[int]) -> tuple[str, ...]:
    """A top on four legs: the largest part, and four long parts of like area all below it, one
    in each quarter around it, and nothing else of size. Front is +z, left is -x (as one facing
    the table from the front)."""
    area, centre = stats.area, stats.centre
    others = [p for p in candidates if p != trunk]
    if len(others) != 4 or max(area[others]) > PAIR_AREA_RATIO * min(area[others]):
        return tuple(names)
    if any(stats.elongation[p] < LIMB_ELONGATION for p in others):
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


def _mirrored_pairs(centre, area, side, trunk, height, candidates: list[int]) -> list[tuple[int, int]]:
    """Candidate parts that mirror each other across the trunk's left–right plane, each used once."""
    used: set[int] = {trunk}
    pairs = []
    for a in candidates:
        if a in used:
            continue
        best, error = None, MIRROR_TOLERANCE * height
        for b in candidates:
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
