"""An object of a ray-optics scene kept as the file gives it: blockers, curved mirrors, gratings,
apertures, GRIN glasses, modules and every other kind the scene model has no class of its own for.

The simulator (``rayoptics``) traces it from its JSON; the scene model only needs its points, so
that it can be drawn, moved, turned and removed like any object, and written back with every
other property unchanged. Points are the ``{x, y}`` values of its keys and of its lists
(``path``, a module's ``points``), and its own ``x``, ``y`` (a point source's place).
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from typing import Any

import numpy as np

Point = tuple[float, float]
HERE = "@"
"""The slot of an object's own ``x``, ``y``."""
SOURCES = frozenset({"PointSource", "SingleRay", "AngleSource", "Beam"})
"""Light sources: kept as the file gives them when the scene model does not emit them as
ray-optics does (a spreading or random beam, a colour mode it does not model)."""
DECORATIONS = frozenset({"TextLabel", "Ruler", "Protractor", "Drawing", "LineArrow", "CropBox", "Handle"})
"""Kinds that do not touch light: kept and saved, never traced nor drawn as optics."""


@dataclass(frozen=True)
class FileObject:
    """One ray-optics object as JSON text, its points taken out (``slots`` says where each goes)."""

    type: str
    points: tuple[Point, ...]
    slots: tuple[str, ...]
    data: str
    name: str = ""

    @classmethod
    def of(cls, raw: dict[str, Any]) -> FileObject:
        points: list[Point] = []
        slots: list[str] = []
        if _is_xy(raw):
            points.append((float(raw["x"]), float(raw["y"])))
            slots.append(HERE)
        for key, value in raw.items():
            if _is_xy(value):
                points.append((float(value["x"]), float(value["y"])))
                slots.append(key)
            elif isinstance(value, list):
                for i, item in enumerate(value):
                    if _is_xy(item):
                        points.append((float(item["x"]), float(item["y"])))
                        slots.append(f"{key}.{i}")
        name = raw.get("name")
        return cls(
            str(raw.get("type")),
            tuple(points),
            tuple(slots),
            json.dumps(raw, allow_nan=False),
            name if isinstance(name, str) else "",
        )

    def to_dict(self) -> dict[str, Any]:
        """The object's JSON with its points as they are now."""
        raw = json.loads(self.data)
        for slot, (x, y) in zip(self.slots, self.points, strict=True):
            if slot == HERE:
                raw["x"], raw["y"] = x, y
                continue
            key, _, index = slot.partition(".")
            target = raw[key][int(index)] if index else raw[key]
            target["x"], target["y"] = x, y
        return raw

    @property
    def kind(self) -> str:
        """``ArcMirror`` → "arc mirror"."""
        return re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", self.type).lower()

    @property
    def decoration(self) -> bool:
        return self.type in DECORATIONS

    @property
    def source(self) -> bool:
        return self.type in SOURCES

    def emitting_points(self) -> list[Point]:
        """Where ray-optics draws the light starting: a point source's place, a ray's or an angle
        source's ``p1``, a beam's two ends (the line between them is drawn with the objects)."""
        named = dict(zip(self.slots, self.points, strict=True))
        keys = {"PointSource": (HERE,), "Beam": ("p1", "p2")}.get(self.type, ("p1",))
        return [named[key] for key in keys if key in named]

    def outline(self, steps: int = 64) -> np.ndarray:
        """Where it is drawn, (n, 2): a circle's rim (centre ``p1``, rim point ``p2``), an arc
        from ``p1`` to ``p2`` through ``p3``, a path closed when it is a glass; else its points."""
        points = np.array(self.points, dtype=float).reshape(-1, 2)
        named = dict(zip(self.slots, map(tuple, points), strict=True))
        if self.type.startswith("Circle") and {"p1", "p2"} <= set(named):
            centre, rim = np.array(named["p1"]), np.array(named["p2"])
            turn = np.linspace(0.0, 2 * math.pi, steps + 1)
            return centre + float(np.hypot(*(rim - centre))) * np.stack([np.cos(turn), np.sin(turn)], 1)
        if self.type in ("ArcMirror", "ConcaveDiffractionGrating") and {"p1", "p2", "p3"} <= set(named):
            arc = _arc(np.array(named["p1"]), np.array(named["p2"]), np.array(named["p3"]), steps)
            if arc is not None:
                return arc
        path = points[[i for i, slot in enumerate(self.slots) if slot.startswith("path.")]]
        if len(path) >= 3 and "Glass" in self.type:
            return np.vstack([path, path[:1]])
        return points


def _arc(p1: np.ndarray, p2: np.ndarray, p3: np.ndarray, steps: int) -> np.ndarray | None:
    """Points along the circle through ``p1``, ``p3``, ``p2`` from ``p1`` to ``p2``; None if they
    lie on a line."""
    (ax, ay), (bx, by), (cx, cy) = p1, p2, p3
    d = 2 * (ax * (by - cy) + bx * (cy - ay) + cx * (ay - by))
    if d == 0:
        return None
    ux = (
        (ax * ax + ay * ay) * (by - cy) + (bx * bx + by * by) * (cy - ay) + (cx * cx + cy * cy) * (ay - by)
    ) / d
    uy = (
        (ax * ax + ay * ay) * (cx - bx) + (bx * bx + by * by) * (ax - cx) + (cx * cx + cy * cy) * (bx - ax)
    ) / d
    radius = math.hypot(ax - ux, ay - uy)
    start, end, via = (math.atan2(p[1] - uy, p[0] - ux) for p in (p1, p2, p3))
    sweep = (end - start) % (2 * math.pi)
    if (via - start) % (2 * math.pi) > sweep:  # p3 lies on the other way round
        sweep -= 2 * math.pi
    angles = start + np.linspace(0.0, sweep, steps + 1)
    return np.stack([ux + radius * np.cos(angles), uy + radius * np.sin(angles)], 1)


def _is_xy(value: Any) -> bool:
    return (
        isinstance(value, dict)
        and all(isinstance(value.get(axis), (int, float)) for axis in "xy")
        and not any(isinstance(value.get(axis), bool) for axis in "xy")
    )
