"""The pack's one writer of the ray-optics format (JSON, version 5), the format ``scene_json`` reads.

:func:`scene_to_dict` writes a scene (ray-optics' keys, and this project's optional keys for exact
ray counts, which ray-optics ignores), one object at a time by the writers below, which the engine
also uses to hand each object to the simulator. :func:`scene_text` is a scene file's text: before
it is handed out it is read back by ``scene_json``, and the objects it gives are compared with the
scene's: kind, name, points and refractive index, so a file that would not reopen with the same
meaning is never written.
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np

from . import editing
from .scene import AngleSource, Detector, Element, Glass, LightSource, Mirror, PointSource, Scene, SingleRay
from .scene_json import DEFAULT_DENSITY, FORMAT_VERSION, scene_from_dict

TOLERANCE = 1e-9


class NotSavable(ValueError):
    """The scene would not read back the same; the message says what differs."""


def scene_text(scene: Scene) -> str:
    """The scene file's text; :class:`NotSavable` when reading it back would change the scene."""
    data = scene_to_dict(scene)
    text = json.dumps(data, indent=2, allow_nan=False) + "\n"
    differences = compare(scene, scene_from_dict(json.loads(text), name=scene.name))
    if differences:
        raise NotSavable("the file would not reopen as the same scene: " + "; ".join(differences[:3]))
    return text


def compare(scene: Scene, reread: Scene) -> list[str]:
    """What differs between two scenes' objects (empty when they are the same)."""
    ours, theirs = editing.objects(scene), editing.objects(reread)
    differences = []
    if [o.kind for o in ours] != [o.kind for o in theirs]:
        kinds = sorted({o.kind for o in ours} - {o.kind for o in theirs}) or ["the order of objects"]
        differences.append(f"not written: {', '.join(kinds)}")
        return differences
    for mine, read in zip(ours, theirs, strict=True):
        a, b = editing.points_of(mine.value), editing.points_of(read.value)
        scale = max(1.0, float(np.abs(a).max(initial=0.0)))
        if a.shape != b.shape or (a.size and np.abs(a - b).max() > TOLERANCE * scale):
            differences.append(f"{mine.name} moves")
        if getattr(mine.value, "ref_index", None) != getattr(read.value, "ref_index", None):
            differences.append(f"{mine.name}'s refractive index changes")
        if mine.name != read.name:
            differences.append(f"{mine.name} is renamed {read.name}")
    return differences


def scene_to_dict(scene: Scene) -> dict[str, Any]:
    """The scene as version 5 JSON data, with this project's keys for exact ray counts."""
    settings = scene_settings(scene)
    density = settings["rayModeDensity"]
    objs = [glass_to_dict(glass) for glass in scene.glasses]
    objs += [source_to_dict(source, density) for source in scene.sources]
    objs += [element_to_dict(element) for element in scene.elements]
    objs += [detector_to_dict(detector) for detector in scene.detectors]
    objs += [other.to_dict() for other in scene.others]
    return {**settings, "objs": objs}


def scene_settings(scene: Scene) -> dict[str, Any]:
    """The scene's JSON but its objects: the file's own settings, with the model's."""
    settings = json.loads(scene.settings)
    return {
        **settings,
        "version": FORMAT_VERSION,
        "name": scene.name,
        "rayModeDensity": settings.get("rayModeDensity", DEFAULT_DENSITY),
        "simulateColors": scene.simulate_colors,
    }


def glass_to_dict(glass: Glass) -> dict[str, Any]:
    labels = glass.labels if isinstance(glass.labels, str) else [list(pair) for pair in glass.labels]
    shape: dict[str, Any]
    if glass.outline is not None and glass.outline.circle is not None:
        centre, rim = glass.outline.circle
        shape = {"type": "CircleGlass", "p1": _xy(centre), "p2": _xy(rim)}
    elif glass.outline is not None:
        shape = {"type": "Glass", "path": [{"x": x, "y": y, "arc": arc} for x, y, arc in glass.outline.path]}
    else:
        path = [{"x": float(x), "y": float(y), "arc": False} for x, y in glass.vertices]
        shape = {"type": "Glass", "path": path}
    return {
        **shape,
        "name": glass.name,
        "refIndex": glass.ref_index,
        "cauchyB": glass.cauchy_b,
        "edgeLabels": labels,
    }


def source_to_dict(source: LightSource, density: float) -> dict[str, Any]:
    """A light source with its exact ray count and per-ray brightness (``numRays``,
    ``rayBrightness``), and the brightness ray-optics would give it at the scene's ``density``."""
    if isinstance(source, SingleRay):
        return {
            "type": "SingleRay",
            "p1": _xy(source.p1),
            "p2": _xy(source.p2),
            "brightness": source.brightness,
            "wavelength": source.wavelength,
        }
    if isinstance(source, AngleSource):
        return {
            "type": "AngleSource",
            "p1": _xy(source.p1),
            "p2": _xy(source.p2),
            "brightness": source.brightness * density,
            "wavelength": source.wavelength,
            "emisAngle": source.emis_angle,
            "symmetric": source.symmetric,
            "numRays": source.n_rays,
            "rayBrightness": source.brightness,
        }
    common = {
        "brightness": source.brightness * density,
        "wavelength": source.wavelength,
        "numRays": source.n_rays,
        "rayBrightness": source.brightness,
    }
    if isinstance(source, PointSource):
        return {"type": "PointSource", "x": source.x, "y": source.y, **common}
    spacing = {} if source.ray_spacing is None else {"raySpacing": source.ray_spacing}
    return {"type": "Beam", "p1": _xy(source.p1), "p2": _xy(source.p2), **common, **spacing}


def element_to_dict(element: Element) -> dict[str, Any]:
    if isinstance(element, Mirror):
        return {"type": "Mirror", "p1": _xy(element.p1), "p2": _xy(element.p2)}
    return {
        "type": "IdealLens",
        "p1": _xy(element.p1),
        "p2": _xy(element.p2),
        "focalLength": element.focal_length,
    }


def detector_to_dict(detector: Detector) -> dict[str, Any]:
    return {
        "type": "Detector",
        "p1": _xy(detector.p1),
        "p2": _xy(detector.p2),
        "irradMap": detector.irrad_map,
        "binSize": detector.bin_size,
        "twoSided": detector.two_sided,
    }


def _xy(point: tuple[float, float]) -> dict[str, float]:
    return {"x": float(point[0]), "y": float(point[1])}
