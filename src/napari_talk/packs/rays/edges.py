"""Edges of a glass: their labels (index or cardinal direction), descriptions and lookup by label.

Cardinal labels follow the seed: the direction of each edge's midpoint seen from the vertex
centroid, with +x east and +y north, on a compass of 4 points for up to 4 edges, 8 up to 8, 12 up
to 12 and 16 beyond. Where two edges would get the same label a finer compass is used, and as a
last resort the index is appended, so labels always name one edge.

A curved glass is labelled by its sides (a straight side or a whole arc), the cardinal direction
taken from the side's midpoint (halfway along an arc) seen from the mean of the path points. The
facets an arc is drawn with are its side's label, a dot and the facet's number from the arc's
start: edge ``2.0`` … ``2.63`` of an arc labelled ``2``, ``N.31`` of an arc labelled ``N``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .scene import Glass

_NAMES = {"N": "North", "E": "East", "S": "South", "W": "West"}
_COMPASS_16 = (
    "E", "ENE", "NE", "NNE", "N", "NNW", "NW", "WNW", "W", "WSW", "SW", "SSW", "S", "SSE", "SE", "ESE",
)  # fmt: skip
_COMPASSES = {
    4: ("E", "N", "W", "S"),
    8: ("E", "NE", "N", "NW", "W", "SW", "S", "SE"),
    12: ("E", "ENE", "NNE", "N", "NNW", "WNW", "W", "WSW", "SSW", "S", "SSE", "ESE"),
    16: _COMPASS_16,
}


def _long_name(short: str) -> str:
    return " ".join(_NAMES[letter] for letter in short) + " Edge"


def cardinal_labels(vertices: np.ndarray) -> list[tuple[str, str]]:
    """(short, long) cardinal labels of each edge, e.g. ("NE", "North East Edge")."""
    ends = np.roll(vertices, -1, axis=0)
    return _cardinal((vertices + ends) / 2, vertices.mean(axis=0))


def _cardinal(midpoints: np.ndarray, centre: np.ndarray) -> list[tuple[str, str]]:
    offsets = midpoints - centre
    angles = np.mod(np.arctan2(offsets[:, 1], offsets[:, 0]), 2 * np.pi)
    sizes = [size for size in (4, 8, 12, 16) if size >= min(len(midpoints), 16)]
    for size in sizes:
        compass = _COMPASSES[size]
        step = 2 * np.pi / size
        shorts = [compass[int((a + step / 2) // step) % size] for a in angles]
        if len(set(shorts)) == len(shorts) or size == 16:
            break
    repeated = {s for s in shorts if shorts.count(s) > 1}
    return [
        (f"{s}{i}", f"{_long_name(s)} {i}") if s in repeated else (s, _long_name(s))
        for i, s in enumerate(shorts)
    ]


def side_labels(glass: Glass) -> list[tuple[str, str]]:
    """(short, long) label of every side of ``glass``: its edges, or a curved glass's sides."""
    if glass.labels == "cardinal":
        if glass.outline is None:
            return cardinal_labels(glass.vertices)
        midpoints = np.array([side.midpoint() for side in glass.outline.sides])
        return _cardinal(midpoints, glass.outline.centre)
    if glass.labels == "index":
        return [(str(i), str(i)) for i in range(glass.n_sides)]
    return list(glass.labels)


def edge_labels(glass: Glass) -> list[tuple[str, str]]:
    """(short, long) label of every edge of ``glass`` (an arc's facets as ``side.facet``)."""
    sides = side_labels(glass)
    if glass.outline is None:
        return sides
    _, side_of, facet_of = glass.outline.tessellation
    curved = [side.curved for side in glass.outline.sides]
    return [
        (f"{sides[s][0]}.{f}", f"{sides[s][1]} facet {f}") if curved[s] else sides[s]
        for s, f in zip(side_of.tolist(), facet_of.tolist(), strict=True)
    ]


@dataclass(frozen=True)
class EdgeDescription:
    index: int
    short_label: str
    long_label: str
    p1: tuple[float, float]
    p2: tuple[float, float]
    midpoint: tuple[float, float]
    length: float
    normal: tuple[float, float]
    """The outward unit normal."""

    def to_dict(self) -> dict:
        return {
            "index": self.index,
            "short_label": self.short_label,
            "long_label": self.long_label,
            "p1": list(self.p1),
            "p2": list(self.p2),
            "midpoint": list(self.midpoint),
            "length": self.length,
            "normal": list(self.normal),
        }


def get_edge_descriptions(glass: Glass) -> list[EdgeDescription]:
    labels = edge_labels(glass)
    a, b, normals = glass.starts, glass.ends, glass.outward_normals
    return [
        EdgeDescription(
            index=i,
            short_label=labels[i][0],
            long_label=labels[i][1],
            p1=(float(a[i, 0]), float(a[i, 1])),
            p2=(float(b[i, 0]), float(b[i, 1])),
            midpoint=(float(a[i, 0] + b[i, 0]) / 2, float(a[i, 1] + b[i, 1]) / 2),
            length=float(math.hypot(*(b[i] - a[i]))),
            normal=(float(normals[i, 0]), float(normals[i, 1])),
        )
        for i in range(glass.n_edges)
    ]


def get_side_descriptions(glass: Glass) -> list[EdgeDescription]:
    """One description per side: a polygon's edges; a curved glass's straight sides and whole arcs
    (an arc's label given as its facets' range, e.g. "2.0…2.63"; its normal at its midpoint)."""
    edges = get_edge_descriptions(glass)
    if glass.outline is None:
        return edges
    side_of = glass.outline.tessellation[1]
    sides: list[EdgeDescription] = []
    for index, ((short, long), side) in enumerate(zip(side_labels(glass), glass.outline.sides, strict=True)):
        facets = [edges[i] for i in np.flatnonzero(side_of == index)]
        if not side.curved:
            sides.append(EdgeDescription(index, short, long, *_parts(facets[0])))
            continue
        centre, radius, _, sweep = side.circle
        middle = side.midpoint()
        normal = (middle - centre) / radius
        if np.dot(normal, facets[len(facets) // 2].normal) < 0:
            normal = -normal
        n = side.n_facets
        sides.append(
            EdgeDescription(
                index=index,
                short_label=f"{short}.0…{short}.{n - 1}",
                long_label=f"{long} (arc, facets {short}.0 to {short}.{n - 1})",
                p1=facets[0].p1,
                p2=facets[-1].p2,
                midpoint=(float(middle[0]), float(middle[1])),
                length=float(radius * abs(sweep)),
                normal=(float(normal[0]), float(normal[1])),
            )
        )
    return sides


def _parts(edge: EdgeDescription) -> tuple:
    return edge.p1, edge.p2, edge.midpoint, edge.length, edge.normal


def resolve_edge(glass: Glass, edge_label: str) -> EdgeDescription:
    """The edge a label names: its short label, long label or index, then the same ignoring case
    (and "north" for "North Edge"). A ValueError lists the labels there are."""
    edges = get_edge_descriptions(glass)
    label = str(edge_label).strip()
    exact = (
        [e for e in edges if e.short_label == label]
        or [e for e in edges if e.long_label == label]
        or [e for e in edges if str(e.index) == label]
    )
    if not exact:
        folded = " ".join(label.replace("-", " ").split()).casefold()
        exact = [
            e
            for e in edges
            if folded
            in {
                e.short_label.casefold(),
                e.long_label.casefold(),
                e.long_label.casefold().removesuffix(" edge"),
            }
        ]
    if len(exact) == 1 or (exact and len({e.index for e in exact}) == 1):
        return exact[0]
    if glass.outline is not None:
        arc = _arc_named(glass, label)
        if arc is not None:
            short, n = arc
            raise ValueError(
                f"Edge '{edge_label}' of '{glass.name}' is an arc drawn as {n} straight facets; name one: "
                f"{short}.0 to {short}.{n - 1} ({short}.{n // 2} at its middle)"
            )
    raise ValueError(f"No edge matching '{edge_label}'. Available labels: {available_labels(glass)}")


def available_labels(glass: Glass) -> list[str]:
    """The labels to offer: every edge's, an arc's facets as one "first…last" entry."""
    if glass.outline is None:
        return [short for short, _ in edge_labels(glass)]
    return [
        f"{short}.0…{short}.{side.n_facets - 1}" if side.curved else short
        for (short, _), side in zip(side_labels(glass), glass.outline.sides, strict=True)
    ]


def _arc_named(glass: Glass, label: str) -> tuple[str, int] | None:
    """(short label, facet count) of the arc that ``label`` names as a whole side, if any."""
    assert glass.outline is not None
    folded = " ".join(label.replace("-", " ").split()).casefold()
    for (short, long), side in zip(side_labels(glass), glass.outline.sides, strict=True):
        names = {short, long, short.casefold(), long.casefold(), long.casefold().removesuffix(" edge")}
        if side.curved and (label in names or folded in names):
            return short, side.n_facets
    return None


def edges_table(glass: Glass) -> str:
    """A text table of the edges, as the seed's ``describe_edges`` prints it (an arc on one row,
    labelled with its facets' range, its length measured along the arc)."""
    edges = get_side_descriptions(glass)
    rule = "=" * 78
    lines = [
        f"Edge Descriptions for '{glass.name}' (Glass, n={glass.ref_index:g}, {len(edges)} "
        f"{'edges' if glass.outline is None else 'sides'})",
        rule,
        "Index | Label | Length  | P1                 | P2                 | Midpoint",
        "------+-------+---------+--------------------+--------------------+-------------------",
    ]
    for e in edges:
        p1, p2, mid = (f"({x:.1f}, {y:.1f})" for x, y in (e.p1, e.p2, e.midpoint))
        lines.append(f"{e.index:5d} | {e.short_label:<5s} | {e.length:7.2f} | {p1:<18s} | {p2:<18s} | {mid}")
    lines.append(rule)
    shortest = min(edges, key=lambda e: e.length)
    longest = max(edges, key=lambda e: e.length)
    lines += [
        f"Total perimeter: {sum(e.length for e in edges):.2f} units",
        f"Shortest edge: {shortest.short_label} (index {shortest.index}) at {shortest.length:.2f} units",
        f"Longest edge: {longest.short_label} (index {longest.index}) at {longest.length:.2f} units",
    ]
    return "\n".join(lines)
