"""Changing a scene by name: every object listed, moved, turned, re-indexed, removed, or added.

Edits work on the :class:`Scene` model generically: an object is any dataclass held in one of the
scene's tuples of objects (glasses, light sources, elements, and whatever kinds the model gains),
and moving or turning one maps each of its points (``(x, y)`` pairs, ``x``/``y`` fields, vertex
arrays, outlines) through the same affine map. Everything returns a new scene; nothing here knows
napari. Coordinates are the scene's, y up; angles are counter-clockwise from +x.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable
from dataclasses import dataclass, fields, is_dataclass, replace
from typing import Any

import numpy as np

from .file_object import FileObject
from .outline import Outline
from .scene import AngleSource, Beam, Detector, Glass, IdealLens, Mirror, PointSource, Scene, SingleRay

AIMED = (SingleRay, AngleSource)
"""Sources placed at ``p1`` and aimed at ``p2``: ``p1`` is where they are."""
Mapping = Callable[[np.ndarray], np.ndarray]
"""Points (n, 2) to points (n, 2)."""

DEFAULT_DENSITY = 0.1
"""ray-optics' default ray density: a point source of brightness b emits 500 × density rays of
min(b / density, 1) each; a beam one ray every 1 / density units of its width."""
DEFAULT_BRIGHTNESS = {"beam": 0.5, "point": 0.5, "single_ray": 1.0, "angle": 0.5}
"""ray-optics' default ``brightness`` of each kind of light source."""


@dataclass(frozen=True)
class SceneObject:
    """One object of a scene, named as ``describe_scene`` lists it."""

    name: str
    kind: str
    group: str
    """The scene's field that holds it."""
    index: int
    value: Any


def kind_of(value: Any) -> str:
    """An object's kind in words: ``PointSource`` → "point source"."""
    if isinstance(value, FileObject):
        return value.kind
    if isinstance(value, Glass):
        return "circle glass" if value.outline is not None and value.outline.circle is not None else "glass"
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", type(value).__name__).lower()


def objects(scene: Scene) -> list[SceneObject]:
    """Every object, in the scene's order. Named glasses keep their names; the others are their
    kind and a number ("Point source 1", "Mirror 2")."""
    found: list[SceneObject] = []
    counts: dict[str, int] = {}
    taken = {glass.name for glass in scene.glasses}
    for group in _groups(scene):
        for index, value in enumerate(getattr(scene, group)):
            kind = kind_of(value)
            name = getattr(value, "name", None)
            if not (isinstance(name, str) and name.strip()):
                counts[kind] = counts.get(kind, 0) + 1
                name = f"{kind.capitalize()} {counts[kind]}"
                while name in taken:
                    name += "'"
            taken.add(name)
            found.append(SceneObject(name, kind, group, index, value))
    return found


def _groups(scene: Scene) -> list[str]:
    """The scene's fields that hold objects: tuples of dataclasses (not the warnings)."""
    groups = []
    for spec in fields(scene):
        value = getattr(scene, spec.name)
        held = isinstance(value, tuple) and spec.name != "warnings"
        if held and all(is_dataclass(item) and not isinstance(item, type) for item in value):
            groups.append(spec.name)
    return groups


def names(scene: Scene) -> list[str]:
    return [found.name for found in objects(scene)]


def name_words(listed: list[SceneObject]) -> list[str]:
    """Shorter ways to name one object: a word of its name, its name without the number, or its
    kind, each only where it names that object alone ("prism" for "Main Prism", "mirror" when
    there is one). A handler resolves them as it resolves any part of a name."""
    real = {found.name.casefold() for found in listed}
    said: dict[str, set[str]] = {}
    for found in listed:
        words = {w for w in re.findall(r"[^\W\d_][\w'-]*", found.name.casefold()) if len(w) > 2}
        words |= {re.sub(r"\s*\d+'*$", "", found.name.casefold()), found.kind}
        for word in words - {""}:
            said.setdefault(word, set()).add(found.name)
    return sorted(word for word, owners in said.items() if len(owners) == 1 and word not in real)


def find(scene: Scene, name: str) -> SceneObject:
    """The object ``name`` means, resolved as layer names are; a ValueError lists the names."""
    from ...core.rules.names import describe_miss, resolve_name

    listed = objects(scene)
    match = resolve_name(name, [found.name for found in listed])
    if match.found is None and name.casefold() in name_words(listed):
        owner = next(o for o in listed if name.casefold() in (o.kind, *o.name.casefold().split()))
        return owner
    if match.found is None:
        raise ValueError(describe_miss(match, "scene object", [found.name for found in listed]))
    return next(found for found in listed if found.name == match.found)


# -- points of an object ----------------------------------------------------------------------------


def _is_point(value: Any) -> bool:
    return (
        isinstance(value, tuple)
        and len(value) == 2
        and all(isinstance(v, (int, float, np.floating)) and not isinstance(v, bool) for v in value)
    )


def _map_outline(outline: Outline, mapping: Mapping) -> Outline:
    if outline.circle is not None:
        (cx, cy), (rx, ry) = mapping(np.array(outline.circle, dtype=float))
        return Outline(circle=((float(cx), float(cy)), (float(rx), float(ry))))
    xy = mapping(np.array([(x, y) for x, y, _ in outline.path], dtype=float))
    return Outline(
        path=tuple((float(x), float(y), arc) for (x, y), (_, _, arc) in zip(xy, outline.path, strict=True))
    )


def map_points(value: Any, mapping: Mapping) -> Any:
    """The object with every point it holds mapped (a new object; others are returned as given)."""
    if isinstance(value, Glass):
        if value.outline is not None:
            outline = _map_outline(value.outline, mapping)
            return Glass.from_outline(value.name, outline, value.ref_index, value.cauchy_b, value.labels)
        return replace(value, vertices=mapping(np.asarray(value.vertices, dtype=float)))
    if not is_dataclass(value) or isinstance(value, type):
        return value
    changed: dict[str, Any] = {}
    specs = [spec for spec in fields(value) if spec.init]
    names_ = {spec.name for spec in specs}
    if {"x", "y"} <= names_ and all(_is_number(getattr(value, axis)) for axis in "xy"):
        x, y = mapping(np.array([[getattr(value, "x"), getattr(value, "y")]], dtype=float))[0]  # noqa: B009
        changed.update(x=float(x), y=float(y))
    for spec in specs:
        if spec.name in changed:
            continue
        item = getattr(value, spec.name)
        if isinstance(item, Outline):
            changed[spec.name] = _map_outline(item, mapping)
        elif _is_point(item):
            changed[spec.name] = tuple(map(float, mapping(np.array([item], dtype=float))[0]))
        elif isinstance(item, np.ndarray) and item.ndim == 2 and item.shape[1] == 2:
            changed[spec.name] = mapping(item.astype(float))
        elif isinstance(item, tuple) and item and all(_is_point(p) for p in item):
            changed[spec.name] = tuple(tuple(map(float, p)) for p in mapping(np.array(item, dtype=float)))
        elif is_dataclass(item) and not isinstance(item, type):
            changed[spec.name] = map_points(item, mapping)
    return replace(value, **changed) if changed else value


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float, np.floating)) and not isinstance(value, bool)


def points_of(value: Any) -> np.ndarray:
    """Every point an object holds, (n, 2)."""
    if isinstance(value, Glass):
        return np.asarray(value.vertices, dtype=float)
    seen: list[np.ndarray] = []

    def keep(points: np.ndarray) -> np.ndarray:
        seen.append(np.asarray(points, dtype=float))
        return points

    map_points(value, keep)
    return np.concatenate(seen) if seen else np.zeros((0, 2))


def centre_of(value: Any) -> np.ndarray:
    """Where an object is: a glass's centre as ray-optics has it (a circle's centre, the mean of
    a path's points), else the mean of its points."""
    if isinstance(value, Glass):
        if value.outline is not None:
            return value.outline.centre
        return np.asarray(value.vertices, dtype=float).mean(axis=0)
    if isinstance(value, AIMED):
        return np.asarray(value.p1, dtype=float)
    points = points_of(value)
    if not len(points):
        raise ValueError(f"a {kind_of(value)} has no position")
    return points.mean(axis=0)


def size_of(value: Any) -> tuple[float, float]:
    if isinstance(value, AIMED):
        return (0.0, 0.0)
    points = points_of(value)
    if len(points) < 2:
        return (0.0, 0.0)
    width, height = np.ptp(points, axis=0)
    return float(width), float(height)


# -- edits ------------------------------------------------------------------------------------------


def _put(scene: Scene, found: SceneObject, value: Any | None) -> Scene:
    """The scene with ``found`` replaced by ``value`` (removed when None); the model's own checks
    (overlapping glasses, unique names) hold the result."""
    items = list(getattr(scene, found.group))
    if value is None:
        del items[found.index]
    else:
        items[found.index] = value
    changed: dict[str, Any] = {found.group: tuple(items)}
    return replace(scene, **changed)


def move(
    scene: Scene, name: str, *, to: tuple[float, float] | None = None, by: tuple[float, float] | None = None
) -> tuple[Scene, SceneObject, np.ndarray]:
    """The scene with one object's centre moved ``to`` a point or ``by`` an offset; the object and
    the offset it moved by."""
    found = find(scene, name)
    if (to is None) == (by is None):
        raise ValueError("say where to: a position (to) or an offset (by), not both")
    if by is not None:
        shift = np.asarray(by, dtype=float)
    else:
        shift = np.asarray(to, dtype=float) - centre_of(found.value)
    moved = map_points(found.value, lambda points: points + shift)
    return _put(scene, found, moved), found, shift


def rotate(scene: Scene, name: str, degrees: float) -> tuple[Scene, SceneObject]:
    """The scene with one object turned counter-clockwise about its centre."""
    found = find(scene, name)
    centre = centre_of(found.value)
    angle = math.radians(degrees)
    turn = np.array([[math.cos(angle), -math.sin(angle)], [math.sin(angle), math.cos(angle)]])
    turned = map_points(found.value, lambda points: (points - centre) @ turn.T + centre)
    return _put(scene, found, turned), found


def index_of(value: Any) -> float | None:
    """An object's refractive index: a glass's, or one a kept file object gives; else None."""
    if isinstance(value, FileObject):
        raw = value.to_dict().get("refIndex")
        return float(raw) if isinstance(raw, (int, float)) and not isinstance(raw, bool) else None
    index = getattr(value, "ref_index", None)
    return float(index) if isinstance(index, (int, float)) else None


def set_index(scene: Scene, name: str, index: float) -> tuple[Scene, SceneObject, float]:
    """The scene with a glass's refractive index changed; the glass and its index before."""
    found = find(scene, name)
    if isinstance(found.value, FileObject) and "refIndex" in found.value.to_dict():
        data = found.value.to_dict()
        before = float(data["refIndex"])
        data["refIndex"] = float(index)
        return _put(scene, found, replace(found.value, data=json.dumps(data))), found, before
    if not any(spec.name == "ref_index" for spec in fields(found.value)):
        raise ValueError(f"{found.name} is a {found.kind}: it has no refractive index")
    before = float(found.value.ref_index)
    return _put(scene, found, replace(found.value, ref_index=float(index))), found, before


def remove(scene: Scene, name: str) -> tuple[Scene, SceneObject]:
    found = find(scene, name)
    return _put(scene, found, None), found


def light_source(
    kind: str,
    at: tuple[float, float],
    direction_deg: float = 0.0,
    width: float | None = None,
    brightness: float | None = None,
) -> Any:
    """A light source as ray-optics makes one at that place with its default density: its
    ``brightness`` is ray-optics' (a point source's or a beam's is shared among its rays)."""
    x, y = map(float, at)
    amount = DEFAULT_BRIGHTNESS[kind] if brightness is None else float(brightness)
    per_ray = min(amount / DEFAULT_DENSITY, 1.0)
    u = np.array([math.cos(math.radians(direction_deg)), math.sin(math.radians(direction_deg))])
    if kind == "point":
        return PointSource(x, y, n_rays=max(1, int(500 * DEFAULT_DENSITY)), brightness=per_ray)
    if kind == "single_ray":
        return SingleRay((x, y), (x + float(u[0]), y + float(u[1])), brightness=amount)
    if kind == "beam":
        span = 20.0 if width is None else float(width)
        along = np.array(
            [-u[1], u[0]]
        )  # a beam shines to the right of p1 → p2 (y down), so along is u turned
        p1, p2 = np.array([x, y]) - along * span / 2, np.array([x, y]) + along * span / 2
        spacing = 1 / DEFAULT_DENSITY
        n = span / spacing
        n_rays = math.floor(n - 0.5) + 1 if n >= 0.5 else 0
        if n_rays == 0:
            raise ValueError(
                f"a beam {span:g} wide is narrower than half its ray spacing ({spacing:g}): it emits no rays"
            )
        ends = (float(p1[0]), float(p1[1])), (float(p2[0]), float(p2[1]))
        return Beam(*ends, n_rays, per_ray, ray_spacing=spacing)
    if kind == "angle":
        ahead = (x + float(u[0]), y + float(u[1]))
        return AngleSource((x, y), ahead, n_rays=max(1, int(500 * DEFAULT_DENSITY)), brightness=per_ray)
    raise ValueError(f"unknown kind of light source: {kind}")


def add_source(scene: Scene, source: Any) -> tuple[Scene, SceneObject]:
    """The scene with one more light source; the source as ``objects`` names it."""
    grown = replace(scene, sources=(*scene.sources, source))
    added = next(
        found for found in objects(grown) if found.group == "sources" and found.index == len(scene.sources)
    )
    return grown, added


ELEMENT_GROUPS = {Mirror: "elements", IdealLens: "elements", Detector: "detectors"}
"""The scene's field each kind of line-like object goes in."""


def line_element(
    kind: str,
    start: tuple[float, float],
    end: tuple[float, float] | None = None,
    *,
    length: float = 100.0,
    angle_deg: float = 90.0,
    focal_length: float | None = None,
) -> Mirror | Detector | IdealLens:
    """A mirror, detector or ideal lens from ``start`` to ``end``, or centred on ``start`` with
    ``length`` and a tilt of ``angle_deg``; a ValueError says why one cannot be."""
    ends = np.array([start, start if end is None else end], dtype=float)
    if end is None:
        half = 0.5 * length * np.array([math.cos(math.radians(angle_deg)), math.sin(math.radians(angle_deg))])
        ends += [-half, half]
    p1, p2 = (float(ends[0, 0]), float(ends[0, 1])), (float(ends[1, 0]), float(ends[1, 1]))
    if kind == "mirror":
        return Mirror(p1, p2)
    if kind == "detector":
        return Detector(p1, p2)
    if kind == "lens":
        return IdealLens(p1, p2, 100.0 if focal_length is None else float(focal_length))
    raise ValueError(f"unknown kind of element: {kind}")


def add_element(scene: Scene, element: Mirror | Detector | IdealLens) -> tuple[Scene, SceneObject]:
    """The scene with one more mirror, detector or lens; the element as ``objects`` names it."""
    group = ELEMENT_GROUPS[type(element)]
    held = getattr(scene, group)
    changed: dict[str, Any] = {group: (*held, element)}
    grown = replace(scene, **changed)
    added = next(found for found in objects(grown) if found.group == group and found.index == len(held))
    return grown, added
