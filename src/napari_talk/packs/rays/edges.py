"""Edges of a glass: their labels (index or cardinal direction), descriptions and lookup by label.

Cardinal labels follow the seed: the direction of each edge's midpoint seen from the vertex
centroid, with +x east and +y north, on a compass of 4 points for up to 4 edges, 8 up to 8, 12 up
to 12 and 16 beyond. Where two edges would get the same label a finer compass is used, and as a
last resort the index is appended, so labels always name one edge.
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
    offsets = (vertices + ends) / 2 - vertices.mean(axis=0)
    angles = np.mod(np.arctan2(offsets[:, 1], offsets[:, 0]), 2 * np.pi)
    sizes = [size for size in (4, 8, 12, 16) if size >= min(len(vertices), 16)]
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


def edge_labels(glass: Glass) -> list[tuple[str, str]]:
    """(short, long) label of every edge of ``glass``."""
    if glass.labels == "cardinal":
        return cardinal_labels(glass.vertices)
    if glass.labels == "index":
        return [(str(i), str(i)) for i in range(glass.n_edges)]
    return list(glass.labels)


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
    available = [e.short_label for e in edges]
    raise ValueError(f"No edge matching '{edge_label}'. Available labels: {available}")


def edges_table(glass: Glass) -> str:
    """A text table of the edges, as the seed's ``describe_edges`` prints it."""
    edges = get_edge_descriptions(glass)
    rule = "=" * 78
    lines = [
        f"Edge Descriptions for '{glass.name}' (Glass, n={glass.ref_index:g}, {len(edges)} edges)",
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
