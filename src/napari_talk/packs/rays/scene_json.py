"""Reading scenes in the ray-optics JSON format, version 5 (phydemo.app/ray-optics): the pack's one
reader, for every door (the dock, MCP, batch, ``napari-talk rays``); ``writer`` writes the format.

Understood objects: ``Glass`` (``path`` of ``{x, y, arc}``, straight sides and circular arcs,
``refIndex``, ``cauchyB``), ``CircleGlass`` (centre ``p1``, rim point ``p2``), ``SphericalLens``
saved with its ``path`` (read as the ``Glass`` it is, and written back as one), ``SingleRay``,
``PointSource``, ``Beam``, ``Mirror`` (flat, ``p1``, ``p2``) and ``IdealLens`` (``p1``, ``p2``,
``focalLength``, default 100), ``Detector``. Arcs are traced as ray-optics traces them (see
``engine``) and written back as the arcs and circles they were read as. Every other object
(blockers, curved mirrors, gratings, GRIN glass, modules, glasses with holes or overlapping
another, spread beams) is kept as a :class:`FileObject`, traced by the simulator and written back
unchanged; a kind the simulator does not know is kept and named in the trace's warnings.

Ray counts and brightness follow ray-optics' default colour mode: a point source emits
``int(500 × density)`` rays (at least 1) of ``min(brightness / density, 1)``; a beam emits a ray at
every half-integer ``i <= n`` of spacings, ``n = length × density / lengthScale`` (so
``floor(n + 1/2)`` rays, 0 for a beam shorter than half a spacing), each of
``min(brightness × lengthScale / density, 1)``. The density is ``rayModeDensity`` (default 0.1),
or ``imageModeDensity`` (default 1) in the "images" and "observer" modes.

This project adds optional keys, ignored by ray-optics: ``name`` (scene and glass), ``edgeLabels``
("index", "cardinal" or ``[[short, long], ...]``), and ``numRays`` / ``rayBrightness`` on sources
for an exact ray count and per-ray brightness (with ``raySpacing`` on beams laid out as ray-optics
lays them out).
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import numpy as np

from .file_object import DECORATIONS, FileObject
from .limits import MAX_EDGE_PAIRS, MAX_EMITTED_RAYS, MAX_FILE_BYTES, MAX_NESTING
from .outline import Outline
from .polygons import boxes_meeting, interiors_meet
from .rayoptics.base import SceneError
from .rayoptics.loader import check_document, coerce_numbers, read_settings
from .rayoptics.registry import TYPES as TRACED_TYPES
from .scene import (
    GREEN_NM,
    AngleSource,
    Beam,
    Detector,
    Element,
    Glass,
    IdealLens,
    LightSource,
    Mirror,
    PointSource,
    Scene,
    SingleRay,
)

FORMAT_VERSION = 5
DEFAULT_DENSITY = 0.1
"""ray-optics' default ``rayModeDensity``."""
SOURCE_TYPES = ("SingleRay", "PointSource", "Beam", "AngleSource")
GLASS_TYPES = ("Glass", "CircleGlass", "SphericalLens")
MAX_SOURCE_RAYS = MAX_EMITTED_RAYS
"""The most rays a scene's sources may declare (``numRays``, or a ray density), checked before any
ray is made; ``scene_from_dict(..., max_rays=...)`` raises it."""


class SceneFormatError(ValueError):
    """The file is not a scene this loader can read; the message says why."""


def load_scene(path: str | Path) -> Scene:
    """Read a scene JSON file; the scene is named after the file unless it names itself. A file
    that cannot be read, or is larger than scenes are read up to, is a SceneFormatError."""
    path = Path(path)
    try:
        size = path.stat().st_size
        if size > MAX_FILE_BYTES:
            limit = MAX_FILE_BYTES // 10**6
            raise SceneFormatError(f"{path.name} is {size / 1e6:.1f} MB; scenes are read up to {limit} MB")
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        why = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc
        raise SceneFormatError(f"cannot read {path.name}: {why}") from None
    return scene_from_text(text, path.name)


def scene_from_text(text: str, filename: str) -> Scene:
    """A scene from the text of its JSON file (named after the file unless it names itself)."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise SceneFormatError(f"{filename} is not valid JSON (line {exc.lineno}: {exc.msg})") from None
    except RecursionError:
        too_deep = f"{filename} nests deeper than {MAX_NESTING} levels, too deep to be a scene"
        raise SceneFormatError(too_deep) from None
    return scene_from_dict(data, name=filename.rsplit(".", 1)[0])


def scene_from_dict(data: Any, *, name: str | None = None, max_rays: int = MAX_SOURCE_RAYS) -> Scene:
    if not isinstance(data, dict) or not isinstance(data.get("objs"), list):
        raise SceneFormatError("a ray-optics scene is a JSON object with an 'objs' list")
    try:
        check_document(data, name or "the scene")  # the limits of every door, before reading
    except SceneError as exc:
        raise SceneFormatError(str(exc)) from None
    data = coerce_numbers(data)  # ray-optics reads numbers written as strings ("refIndex": "1.5")
    version = data.get("version")
    warnings: list[str] = []
    if isinstance(version, (int, float)) and not isinstance(version, bool) and version > FORMAT_VERSION:
        raise SceneFormatError(
            f"scene format version {version} is newer than {FORMAT_VERSION}, the version read here"
        )
    if not isinstance(version, (int, float)) or isinstance(version, bool) or version < FORMAT_VERSION:
        raise SceneFormatError(
            f"scene format version {version} is not supported; open it in the ray-optics app and save it "
            f"again to get version {FORMAT_VERSION}"
        )
    try:  # the scene-wide settings, checked as the simulator reads them
        simulated = read_settings(data, name or "the scene").settings
    except SceneError as exc:
        raise SceneFormatError(str(exc)) from None
    density, length_scale = simulated.ray_density, simulated.length_scale
    glasses: list[Glass] = []
    sources: list[LightSource] = []
    elements: list[Element] = []
    detectors: list[Detector] = []
    others: list[FileObject] = []
    glass_data: list[dict] = []
    taken: set[str] = set()
    declared = 0
    exact_sources = data.get("colorMode", "default") == "default" and data.get("mode", "rays") != "observer"
    for position, raw in enumerate(data["objs"]):
        if not isinstance(raw, dict):
            raise SceneFormatError(f"objs[{position}] is not an object")
        obj = raw
        kind = obj.get("type")
        try:
            if kind in GLASS_TYPES and (kind != "SphericalLens" or obj.get("path")) and _plain(obj):
                try:
                    glass = _glass(obj, len(glasses) + 1, taken)
                except ValueError as exc:  # holes, a path crossing itself: read by the simulator
                    if "3 distinct" in str(exc):
                        raise
                    others.append(FileObject.of(obj))
                    continue
                glasses.append(glass)
                glass_data.append(obj)
                taken.add(glass.name)
            elif kind in SOURCE_TYPES and exact_sources and not _spread_beam(obj):
                sources.append(_source(kind, obj, density, length_scale, warnings))
                declared += getattr(sources[-1], "n_rays", 1)
                if declared > max_rays:
                    raise SceneFormatError(
                        f"the light sources declare {declared:,} rays, more than the limit of {max_rays:,}; "
                        "lower the ray density (rayModeDensity) or numRays, or raise the limit (max_rays)"
                    )
            elif kind == "Mirror" and not obj.get("filter"):
                elements.append(Mirror(_point(obj["p1"]), _point(obj["p2"])))
            elif kind == "Detector":
                size = _number(obj.get("binSize", 1.0), "binSize")
                two_sided = obj.get("twoSided", True) is not False
                irrad_map = obj.get("irradMap", False) is True
                detectors.append(Detector(_point(obj["p1"]), _point(obj["p2"]), size, two_sided, irrad_map))
            elif kind == "IdealLens":
                focal = _number(obj.get("focalLength", 100.0), "focalLength")
                elements.append(IdealLens(_point(obj["p1"]), _point(obj["p2"]), focal))
            else:
                others.append(FileObject.of(obj))
                if kind not in TRACED_TYPES and kind not in DECORATIONS and kind != "ModuleObj":
                    warnings.append(f"{kind}: not traced (an object type the simulator does not know); kept")
        except (KeyError, TypeError, ValueError) as exc:
            detail = f"missing {exc}" if isinstance(exc, KeyError) else str(exc)
            raise SceneFormatError(f"objs[{position}] ({kind}): {detail}") from None
    settings = {key: value for key, value in data.items() if key not in ("objs", "version", "name")}
    merged = _overlapping(glasses, warnings)
    if merged:  # ray-optics merges overlapping glasses; the model keeps glasses apart, the simulator merges
        others = [FileObject.of(glass_data[i]) for i in merged] + others
        glasses = [glass for i, glass in enumerate(glasses) if i not in merged]
    return Scene(
        glasses=tuple(glasses),
        sources=tuple(sources),
        name=str(data.get("name") or name or "scene"),
        simulate_colors=bool(data.get("simulateColors", False)),
        warnings=tuple(warnings),
        elements=tuple(elements),
        detectors=tuple(detectors),
        others=tuple(others),
        settings=json.dumps(settings, allow_nan=False),
    )


def _overlapping(glasses: list[Glass], warnings: list[str]) -> set[int]:
    """The glasses that overlap another. Testing two glasses costs their edges' product: past
    :data:`MAX_EDGE_PAIRS` in all, glasses whose boxes meet are taken as overlapping untested
    (the simulator merges them as ray-optics does, so they are traced the same)."""
    found: set[int] = set()
    pairs_left = MAX_EDGE_PAIRS
    for i, j in boxes_meeting([glass.vertices for glass in glasses]):
        pairs = len(glasses[i].vertices) * len(glasses[j].vertices)
        if pairs > pairs_left:
            warnings.append(
                f"{glasses[i].name} and {glasses[j].name} were not tested for overlap (more than "
                f"{MAX_EDGE_PAIRS:,} edge pairs to test): traced as ray-optics merges glasses"
            )
            found |= {i, j}
            continue
        pairs_left -= pairs
        if interiors_meet(glasses[i].vertices, glasses[j].vertices):
            found |= {i, j}
    return found


def _plain(obj: dict) -> bool:
    """A glass the scene model holds whole (it has no partial-reflection switch)."""
    return obj.get("partialReflect", True) is not False


def _spread_beam(obj: dict) -> bool:
    """A beam the scene model does not emit as ray-optics does (kept for the simulator)."""
    return obj.get("type") == "Beam" and bool(obj.get("emisAngle") or obj.get("lambert") or obj.get("random"))


def _glass(obj: dict, number: int, taken: set[str]) -> Glass:
    base = name = str(obj.get("name") or f"Glass {number}")
    copy = 2
    while name in taken:
        name, copy = f"{base} ({copy})", copy + 1
    labels = obj.get("edgeLabels", "index")
    if isinstance(labels, list):
        labels = tuple((str(s), str(long)) for s, long in labels)
    ref_index = _number(obj.get("refIndex", 1.5), "refIndex")
    cauchy_b = _number(obj.get("cauchyB", 0.004), "cauchyB")
    if obj["type"] == "CircleGlass":
        outline = Outline(circle=(_point(obj["p1"]), _point(obj["p2"])))
        return Glass.from_outline(name, outline, ref_index, cauchy_b, labels)
    path = obj["path"]
    if not isinstance(path, list) or not all(isinstance(p, dict) for p in path):
        raise ValueError("path must be a list of {x, y, arc} points")
    if any(p.get("arc") for p in path):
        points = tuple((_number(p["x"], "x"), _number(p["y"], "y"), bool(p.get("arc"))) for p in path)
        return Glass.from_outline(name, Outline(path=points), ref_index, cauchy_b, labels)
    return Glass(
        name=name,
        vertices=np.array([(_number(p["x"], "x"), _number(p["y"], "y")) for p in path], float),
        ref_index=ref_index,
        cauchy_b=cauchy_b,
        labels=labels,
    )


def _source(kind: str, obj: dict, density: float, length_scale: float, warnings: list[str]) -> LightSource:
    wavelength = _number(obj.get("wavelength", GREEN_NM), "wavelength")
    if kind == "SingleRay":
        brightness = _number(obj.get("brightness", 1.0), "brightness")
        return SingleRay(_point(obj["p1"]), _point(obj["p2"]), brightness, wavelength)
    brightness = _number(obj.get("brightness", 0.5), "brightness")
    if kind == "AngleSource":
        per_ray = obj.get("rayBrightness", min(brightness / density, 1.0))
        emis = _number(obj.get("emisAngle", 36.001), "emisAngle")
        symmetric = obj.get("symmetric", True) is not False
        turn = int(_number(obj["numRays"], "numRays")) if obj.get("numRays") else max(1, int(density * 500))
        return AngleSource(
            _point(obj["p1"]),
            _point(obj["p2"]),
            emis,
            symmetric,
            turn,
            _number(per_ray, "rayBrightness"),
            wavelength,
        )
    if kind == "PointSource":
        per_ray = obj.get("rayBrightness", min(brightness / density, 1.0))
        n_rays = obj.get("numRays") or max(1, int(density * 500))  # below 1 ray-optics still emits one
        x, y = _number(obj["x"], "x"), _number(obj["y"], "y")
        return PointSource(x, y, int(n_rays), _number(per_ray, "rayBrightness"), wavelength)
    p1, p2 = _point(obj["p1"]), _point(obj["p2"])
    if obj.get("emisAngle", 0) or obj.get("lambert") or obj.get("random"):
        warnings.append(
            "a beam's divergence, Lambert weighting and randomness are not modelled: rays are parallel"
        )
    per_ray = _number(
        obj.get("rayBrightness", min(brightness * length_scale / density, 1.0)), "rayBrightness"
    )
    if obj.get("numRays") is not None:
        spacing = obj.get("raySpacing")
        spacing = None if spacing is None else _number(spacing, "raySpacing")
        return Beam(p1, p2, int(_number(obj["numRays"], "numRays")), per_ray, wavelength, spacing)
    dx, dy = p2[0] - p1[0], p2[1] - p1[1]
    n = math.sqrt(dx * dx + dy * dy) * density / length_scale
    n_rays = math.floor(n - 0.5) + 1 if n >= 0.5 else 0  # a ray at each i = 0.5, 1.5, ... <= n
    if n_rays == 0:
        warnings.append(
            f"a beam from {p1} to {p2} is shorter than half its ray spacing ({length_scale / density:g}) "
            "and emits no rays, as in ray-optics"
        )
    return Beam(p1, p2, n_rays, per_ray, wavelength, length_scale / density)


def _number(value: Any, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError(f"{what} must be a number, not {value!r}")
    return float(value)


def _point(value: Any) -> tuple[float, float]:
    return (_number(value["x"], "x"), _number(value["y"], "y"))
