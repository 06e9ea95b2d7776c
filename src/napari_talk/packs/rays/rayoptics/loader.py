"""Building the simulator's objects from ray-optics JSON objects (format version 5), with every
problem named: the scene's settings (:func:`read_settings`), then its objects, each built for the
object of the scene that owns it (:func:`add_objects`). The scene file itself is read once, by
the pack's reader (``scene_json``); the checks of a document every reader makes are here.

Scene files are untrusted: sizes and counts are checked before anything is built, formulas go
through :mod:`.formula`, numbers written as strings (``"refIndex": "1.5"``) are read as numbers, and
an object type this simulator does not trace is reported by name rather than dropped in silence.
Decorations that do not touch light (rulers, labels, drawings, crop boxes, handles) are skipped.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Any

from ..limits import (
    MAX_EMITTED_RAYS,
    MAX_MODULE_NESTING,
    MAX_NESTING,
    MAX_OBJECTS,
    MAX_PATH_POINTS,
    MAX_SCENE_POINTS,
)
from . import registry
from .base import SceneError, SceneObj, Settings
from .formula import FormulaError
from .rng import SeededRandom
from .scene_objs.special.module_obj import ExpansionBudget, ExpansionTooLarge, ModuleError, expand_module

DECORATIONS = {"TextLabel", "Ruler", "Protractor", "Drawing", "LineArrow", "CropBox", "Handle"}
SCENE_KEYS = {
    "version",
    "name",
    "modules",
    "objs",
    "backgroundImage",
    "importedFromBeta",
    "mode",
    "rayModeDensity",
    "imageModeDensity",
    "showGrid",
    "snapToGrid",
    "lockObjs",
    "gridSize",
    "observer",
    "lengthScale",
    "origin",
    "scale",
    "width",
    "height",
    "simulateColors",
    "redWavelength",
    "violetWavelength",
    "colorMode",
    "showRayArrows",
    "symbolicBodyMerging",
    "maxRayDepth",
    "randomSeed",
    "theme",
}
PROJECT_KEYS = {"edgeLabels", "numRays", "rayBrightness", "raySpacing"}
"""Keys this project writes (ray-optics ignores them): read without a warning."""
COLOR_MODES = {"default", "linear", "linearRGB", "reinhard", "colorizedIntensity"}
_NUMBER = re.compile(r"^\s*[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s*$")
_TEXT_KEYS = {"type", "name", "module", "randomSeed", "colorMode", "mode"}
POINT_LISTS = {"path", "points", "controlPoints"}
"""Keys whose lists are an object's points (a glass's path, a curve's control points)."""


@dataclass
class LoadedScene:
    """The optical objects of a scene (modules expanded), its settings and what went wrong."""

    name: str
    settings: Settings
    objs: list[SceneObj]
    max_depth: float = math.inf
    warnings: list[str] = field(default_factory=list)
    ray_limit: float = math.inf
    """Rays processed before ray-optics stops: set by the scene's crop boxes (the export regions
    whose images the gallery shows), unbounded without one as in its interactive simulator."""
    kinds: dict[str, int] = field(default_factory=dict)
    skipped: dict[str, int] = field(default_factory=dict)
    owners: list[object] = field(default_factory=list)
    """For each of ``objs``: the object of the scene it was built for (a module's, for the objects
    a module expands to)."""
    modules: dict[str, Any] = field(default_factory=dict)
    """The scene's module definitions, by name."""
    budget: ExpansionBudget = field(default_factory=ExpansionBudget)
    """What the scene's modules may still expand to."""
    read: int = 0
    """Objects read so far, decorations and modules included (what :data:`MAX_OBJECTS` bounds)."""
    points: int = 0
    """Points of the paths read so far."""

    def detectors(self) -> list[Any]:
        return [o for o in self.objs if o.type == "Detector"]


def check_nesting(data: Any, name: str) -> None:
    """Refuse JSON nested deeper than :data:`MAX_NESTING` before anything walks it recursively."""
    stack: list[tuple[Any, int]] = [(data, 1)]
    while stack:
        value, depth = stack.pop()
        if depth > MAX_NESTING:
            raise SceneError(f"{name} nests deeper than {MAX_NESTING} levels, too deep to be a scene")
        if isinstance(value, dict):
            stack.extend((v, depth + 1) for v in value.values())
        elif isinstance(value, list):
            stack.extend((v, depth + 1) for v in value)


def check_document(data: Any, name: str) -> None:
    """What every reader checks of a scene's JSON before reading it: its nesting, its number of
    objects and the points of their paths (one by one, and together)."""
    check_nesting(data, name)
    objs = data.get("objs") if isinstance(data, dict) else None
    if not isinstance(objs, list):
        return
    if len(objs) > MAX_OBJECTS:
        raise SceneError(f"{name} has {len(objs):,} objects; scenes are read up to {MAX_OBJECTS:,}")
    total = 0
    for i, raw in enumerate(objs):
        if isinstance(raw, dict):
            total = check_points(raw, f"{name}: object {i + 1} ({str(raw.get('type'))[:40]})", total)


def check_points(raw: dict[str, Any], label: str, total: int) -> int:
    """The points read so far, ``raw``'s added; refuses a path of more points than one object,
    or all objects together, may have."""
    points = sum(len(v) for k, v in raw.items() if isinstance(v, list) and k in POINT_LISTS)
    if points > MAX_PATH_POINTS:
        raise SceneError(f"{label} has {points:,} points; a path is read up to {MAX_PATH_POINTS:,}")
    if total + points > MAX_SCENE_POINTS:
        raise SceneError(f"the scene's paths have more than {MAX_SCENE_POINTS:,} points together")
    return total + points


def _number(value: Any, where: str, default: float) -> float:
    if value is None:
        return default
    if isinstance(value, bool):
        raise SceneError(f"{where} should be a number, not {value!r}")
    if isinstance(value, (int, float)):
        return float(value)
    if isinstance(value, str) and _NUMBER.match(value):
        return float(value)
    raise SceneError(f"{where} should be a number, not {str(value)[:40]!r}")


def coerce_numbers(value: Any, key: str = "") -> Any:
    """Numbers written as strings become numbers (except in text-valued keys)."""
    if isinstance(value, str):
        if key not in _TEXT_KEYS and _NUMBER.match(value) and not _is_formula_key(key):
            return float(value)
        return value
    if isinstance(value, list):
        return [coerce_numbers(v, key) for v in value]
    if isinstance(value, dict):
        return {k: coerce_numbers(v, k) for k, v in value.items()}
    return value


def _is_formula_key(key: str) -> bool:
    return key.startswith("eqn") or key.endswith("Fn")


def read_settings(data: dict[str, Any], name: str = "scene") -> LoadedScene:
    """The scene-wide settings of a version 5 document (its keys other than ``objs``), checked,
    as a scene with no objects yet: :func:`add_objects` builds them."""
    warnings: list[str] = []
    version = data.get("version")
    if not isinstance(version, (int, float)) or isinstance(version, bool) or version != 5:
        raise SceneError(f"scene format version {version!r} is not supported (version 5 is)")
    unknown = sorted(set(data) - SCENE_KEYS)
    if unknown:
        warnings.append(f"unknown scene settings ignored: {', '.join(unknown[:8])}")
    mode = data.get("mode", "rays")
    if mode not in ("rays", "extended", "images", "observer"):
        raise SceneError(f"mode {mode!r} is not one of rays, extended, images, observer")
    density_key = "rayModeDensity" if mode in ("rays", "extended") else "imageModeDensity"
    density = _number(data.get(density_key), density_key, 0.1 if density_key == "rayModeDensity" else 1.0)
    if not density > 0 or not math.isfinite(density):
        raise SceneError(f"{density_key} must be a positive number, not {density}")
    length_scale = _number(data.get("lengthScale"), "lengthScale", 1.0)
    if not length_scale > 0 or not math.isfinite(length_scale):
        raise SceneError(f"lengthScale must be a positive number, not {length_scale}")
    color_mode = data.get("colorMode", "default")
    if color_mode not in COLOR_MODES:
        warnings.append(f"colorMode {color_mode!r} is not known; traced as 'default'")
        color_mode = "default"
    seed = data.get("randomSeed")
    seed_text = str(seed) if seed not in (None, "") else "0"
    settings = Settings(
        length_scale=length_scale,
        ray_density=density,
        mode=mode,
        simulate_colors=bool(data.get("simulateColors", False)),
        color_mode=color_mode,
        rng=SeededRandom(seed_text),
    )
    max_depth_raw = data.get("maxRayDepth")
    max_depth = math.inf if max_depth_raw is None else _number(max_depth_raw, "maxRayDepth", math.inf)
    modules = data.get("modules")
    scene = LoadedScene(str(data.get("name") or name), settings, [], max_depth, warnings)
    scene.modules = modules if isinstance(modules, dict) else {}
    return scene


def add_objects(scene: LoadedScene, items: list[Any], owner: object) -> None:
    """Build the simulator objects of ``items`` (ray-optics JSON objects, modules expanded by the
    scene's ``modules``) into ``scene``, each owned by ``owner``; what cannot be built is named in
    the scene's warnings and left out."""
    try:
        _build(items, scene, depth=0, owner=owner)
    except ExpansionTooLarge as exc:
        raise SceneError(str(exc)) from None


def add_built(scene: LoadedScene, obj: SceneObj, owner: object, kind: str | None = None) -> None:
    """Add an object built for ``owner`` to ``scene``, counted as ``kind`` (default: its type)."""
    kind = kind or obj.type
    scene.objs.append(obj)
    scene.owners.append(owner)
    scene.kinds[kind] = scene.kinds.get(kind, 0) + 1


def _build(items: list[Any], scene: LoadedScene, depth: int, owner: object) -> None:
    for i, raw in enumerate(items):
        scene.read += 1
        if scene.read > MAX_OBJECTS:
            raise SceneError(f"the scene expands past {MAX_OBJECTS:,} objects (modules and labels included)")
        if not isinstance(raw, dict):
            scene.warnings.append(f"object {i + 1} is not a JSON object; skipped")
            continue
        kind = raw.get("type")
        if kind == "ModuleObj":
            scene.kinds[kind] = scene.kinds.get(kind, 0) + 1
            if depth > MAX_MODULE_NESTING:
                scene.warnings.append(
                    f"modules nest deeper than {MAX_MODULE_NESTING}; the inner ones are skipped"
                )
                continue
            try:
                expanded = expand_module(raw, scene.modules, scene.settings.rng, scene.budget)
            except ExpansionTooLarge:
                raise
            except (ModuleError, FormulaError) as exc:
                scene.warnings.append(f"ModuleObj skipped: {exc}")
                continue
            if scene.read + len(expanded) > MAX_OBJECTS:
                raise SceneError(f"modules expand past {MAX_OBJECTS:,} objects")
            _build(expanded, scene, depth + 1, owner)
            continue
        if kind in DECORATIONS:
            scene.skipped[kind] = scene.skipped.get(kind, 0) + 1
            if kind == "CropBox":
                scene.ray_limit = _crop_limit(raw, scene.ray_limit)
            continue
        cls = registry.TYPES.get(kind) if isinstance(kind, str) else None
        label = f"{kind}" + (f" {raw.get('name')!r}" if raw.get("name") else "")
        if cls is None:
            known = (
                "an unknown object type"
                if kind not in registry.UNSUPPORTED
                else "not traced by this simulator"
            )
            scene.warnings.append(f"{label}: {known}; left out")
            scene.skipped[str(kind)] = scene.skipped.get(str(kind), 0) + 1
            continue
        scene.points = check_points(raw, label, scene.points)
        unknown_keys = sorted(set(raw) - set(cls.defaults) - {"type", "name", "locked"} - PROJECT_KEYS)
        if unknown_keys:
            scene.warnings.append(f"{label}: unknown properties ignored: {', '.join(unknown_keys[:6])}")
        try:
            obj = cls(scene.settings, coerce_numbers(raw))
        except (SceneError, FormulaError, TypeError, ValueError, KeyError, ArithmeticError) as exc:
            scene.warnings.append(f"{label} left out: {exc}")
            continue
        add_built(scene, obj, owner)


def _crop_limit(raw: dict[str, Any], limit: float) -> float:
    """ray-optics exports a crop box's image by tracing until more than its ``rayCountLimit`` rays
    are processed (unset or 0: 10,000 for SVG, 10,000,000 otherwise); of several, the largest."""
    own = raw.get("rayCountLimit")
    if isinstance(own, bool) or not isinstance(own, (int, float)) or not own:
        own = 1e4 if raw.get("format") == "svg" else 1e7
    own = float(own)
    return own if math.isinf(limit) else max(limit, own)


def check_emission(scene: LoadedScene) -> None:
    """Refuse a scene whose sources would emit more rays than the limit, before emitting any."""
    total = 0.0
    s = scene.settings
    for obj in scene.objs:
        estimate = getattr(obj, "ray_estimate", None)
        if estimate is not None:
            total += estimate()
    if total > MAX_EMITTED_RAYS:
        raise SceneError(
            f"the sources would emit about {total:,.0f} rays, more than the limit of "
            f"{MAX_EMITTED_RAYS:,} (density {s.ray_density:g}); lower rayModeDensity"
        )
