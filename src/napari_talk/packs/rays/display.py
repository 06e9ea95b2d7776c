"""A scene and its rays as napari layer-data tuples, and glasses read back from an edited layer.

Nothing here imports napari: the tuples are ``(data, kwargs, layer_type)`` as sample-data
functions return them. napari orders coordinates (row, col) = (y, x); the scene's ``y`` is the
row, as in the ray-optics app (which draws +y downward too).

Each layer carries ``metadata["napari_talk_rays"] = {"role": ...}`` so the pack finds its layers
whatever they are renamed to; the glasses layer also carries the whole scene (ray-optics JSON),
which is how a scene opened as sample data reaches the chat session.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

import numpy as np

from .edges import get_side_descriptions
from .file_object import FileObject
from .roles import ROLE_KEY
from .scene import AngleSource, Beam, Glass, PointSource, Scene, SingleRay
from .scene_json import scene_from_dict
from .simulation import Segments, SimulationResult
from .writer import scene_to_dict

LAYER_NAMES = {
    "glasses": "rays: glasses",
    "edge labels": "rays: edge labels",
    "rays": "rays: segments",
    "selection": "rays: selection",
    "sources": "rays: light sources",
    "irradiance": "rays: irradiance",
}
LABELS_VARIABLE = "NAPARI_TALK_RAYS_MAX_LABELLED_GLASSES"
LABELLED_GLASSES = 500
"""Up to this many glasses (the setting ``NAPARI_TALK_RAYS_MAX_LABELLED_GLASSES`` raises it) the
glasses' names and edge labels are drawn; above it they are not, and the reply says so. napari
lays out every label, and a Shapes layer's text costs it time growing with the square of the
shapes: 5,000 glasses' names held the viewer for about a minute."""


def labelled_glasses() -> int:
    """How many glasses may have their names and edge labels drawn (the setting, else the default)."""
    raw = os.environ.get(LABELS_VARIABLE, "").replace("_", "").replace(",", "").strip()
    return int(raw) if raw.isdigit() else LABELLED_GLASSES


def labels_shown(scene: Scene) -> bool:
    return len(scene.glasses) <= labelled_glasses()


def labels_note(scene: Scene) -> str:
    """What the reply says when a scene has too many glasses for their labels to be drawn."""
    if labels_shown(scene):
        return ""
    return (
        f"(names and edge labels are not drawn for more than {labelled_glasses():,} glasses; "
        f"`describe_scene` still lists them; to draw them, start napari with {LABELS_VARIABLE}="
        f"{len(scene.glasses)})"
    )


GLASS_COLOR = (0.55, 0.8, 1.0)
MIRROR_COLOR = (0.82, 0.84, 0.88)
"""Silver."""
LENS_COLOR = (0.4, 1.0, 0.6)
BLOCKER_COLOR = (0.35, 0.2, 0.1)
"""Dark brown, as ray-optics draws blockers: dark, yet seen on napari's dark canvas."""
DETECTOR_COLOR = (0.35, 0.55, 1.0)
GRATING_COLOR = (0.85, 0.5, 1.0)
SPLITTER_COLOR = (0.65, 0.75, 0.95)
OTHER_COLOR = (0.9, 0.9, 0.5)
RAY_COLOR = (1.0, 0.85, 0.25)
POLARIZED_COLOR = (0.95, 0.2, 1.0)
SELECTION_COLOR = (0.1, 1.0, 0.9, 0.35)
"""A translucent cyan glow drawn additively over the rays: their brightness and polarization
colour stay visible under a highlight."""
SELECTION_WIDTH = 2.2
MIN_ALPHA = 0.2
GLASS_SHAPES = ("polygon", "rectangle")
"""Shapes of the glasses layer that are glasses (lines, paths and ellipses are not)."""

LayerData = tuple[Any, dict[str, Any], str]


def line_width(scene: Scene) -> float:
    return 0.004 * scene.scale


def _meta(role: str, **extra: Any) -> dict[str, Any]:
    return {ROLE_KEY: {"role": role, **extra}}


def glass_layer(scene: Scene) -> LayerData:
    """The glasses as polygons, then every other object that is not a light source (mirrors,
    lenses, detectors, and whatever kinds the scene holds) as a line or path through its points,
    coloured as ray-optics colours its kind (drawn only: the scene keeps them, and lines read back
    are not glasses). Each carries the name ``describe_scene`` gives it."""
    from .editing import objects, points_of

    polygons = [glass.vertices[:, ::-1].copy() for glass in scene.glasses]
    others = [
        o
        for o in objects(scene)
        if o.group not in ("glasses", "sources") and not _decoration(o.value) and len(points_of(o.value))
    ]
    lines = [_drawn(o.value)[:, ::-1].copy() for o in others]
    kinds = ["line" if len(line) == 2 else "path" for line in lines]
    names = [o.name + _detail(o.value) for o in others]
    kwargs: dict[str, Any] = {
        "name": LAYER_NAMES["glasses"],
        "shape_type": ["polygon"] * len(polygons) + kinds if lines else "polygon",
        "features": {
            # text even when empty: a scene of no glass (one ray, or nothing) gave a float column
            "name": np.array([glass.name for glass in scene.glasses] + names, dtype=object),
            "ref_index": [glass.ref_index for glass in scene.glasses] + [np.nan] * len(lines),
        },
        "feature_defaults": {"name": "", "ref_index": 1.5},
        "face_color": [*GLASS_COLOR, 0.18],
        "edge_color": [*GLASS_COLOR, 1.0],
        "edge_width": line_width(scene),
        "metadata": _meta("glasses", scene=scene_to_dict(scene)),
    }
    if labels_shown(scene):
        kwargs["text"] = {"string": "{name}", "color": "white", "size": 11, "anchor": "center"}
    if lines:
        edge = [[*GLASS_COLOR, 1.0]] * len(polygons) + [[*kind_color(o.kind), 1.0] for o in others]
        widths = [line_width(scene)] * len(polygons) + [
            line_width(scene) * (2.5 if "blocker" in o.kind or "aperture" in o.kind else 1.5) for o in others
        ]
        kwargs["edge_color"] = np.array(edge, dtype=float)
        kwargs["edge_width"] = widths
        kwargs["face_color"] = np.array([[*GLASS_COLOR, 0.18]] * (len(polygons) + len(lines)))
    return polygons + lines, kwargs, "shapes"


KIND_COLORS = (
    ("grating", GRATING_COLOR),
    ("splitter", SPLITTER_COLOR),
    ("beam", RAY_COLOR),
    ("mirror", MIRROR_COLOR),
    ("lens", LENS_COLOR),
    ("detector", DETECTOR_COLOR),
    ("blocker", BLOCKER_COLOR),
    ("aperture", BLOCKER_COLOR),
    ("glass", GLASS_COLOR),
)
"""ray-optics' palette by kind, first match of a word of the kind: mirrors silvered, blockers dark."""


def _decoration(value: Any) -> bool:
    """Not drawn with the objects: decorations, and kept light sources but a beam (ray-optics
    draws a beam as a line; the others as points, in the sources layer)."""
    return isinstance(value, FileObject) and (value.decoration or (value.source and value.type != "Beam"))


def _drawn(value: Any) -> np.ndarray:
    from .editing import points_of

    return value.outline() if isinstance(value, FileObject) else points_of(value)


def kind_color(kind: str) -> tuple[float, float, float]:
    return next((color for word, color in KIND_COLORS if word in kind), OTHER_COLOR)


def _detail(value: Any) -> str:
    focal = getattr(value, "focal_length", None)
    return f" (f = {focal:g})" if isinstance(focal, (int, float)) else ""


def edge_label_layer(scene: Scene) -> LayerData:
    points, labels, glasses = [], [], []
    offset = 0.025 * scene.scale
    for glass in scene.glasses if labels_shown(scene) else ():
        for edge in get_side_descriptions(glass):
            x, y = np.add(edge.midpoint, np.multiply(edge.normal, offset))
            points.append((y, x))
            labels.append(edge.short_label)
            glasses.append(glass.name)
    kwargs = {
        "name": LAYER_NAMES["edge labels"],
        "features": {"label": labels, "glass": glasses},
        "text": {"string": "{label}", "color": "yellow", "size": 10, "anchor": "center"},
        "size": 0.004 * scene.scale,
        "face_color": "transparent",
        "border_width": 0,
        "metadata": _meta("edge labels"),
    }
    return np.array(points, dtype=float).reshape(-1, 2), kwargs, "points"


def ray_colors(
    segments: Segments, color_by: str = "brightness", reference: float | None = None
) -> np.ndarray:
    """RGBA per segment: alpha grows with brightness relative to the brightest source ray (as its
    square root, so a 4 % reflection stays visible); the colour goes from yellow (unpolarized) to
    magenta (fully polarized) when ``color_by`` is polarization."""
    total = segments.total
    if reference is None:
        sources = total[segments.parent < 0]
        reference = float(sources.max()) if len(sources) else float(total.max(initial=1.0))
    alpha = MIN_ALPHA + (1 - MIN_ALPHA) * np.sqrt(np.clip(total / max(reference, 1e-300), 0.0, 1.0))
    colors = np.empty((len(segments), 4))
    if color_by == "polarization":
        mix = segments.degree_of_polarization[:, None]
        colors[:, :3] = (1 - mix) * np.array(RAY_COLOR) + mix * np.array(POLARIZED_COLOR)
    else:
        colors[:, :3] = RAY_COLOR
    colors[:, 3] = alpha
    return colors


def _lines(segments: Segments, colors: np.ndarray, width: float, kwargs: dict[str, Any]) -> LayerData:
    """One Vectors layer for all the segments: napari builds it in milliseconds where a Shapes
    layer of lines takes a second per few thousand, draws it as one mesh, and a new trace updates
    it in place (``layers.IN_PLACE``) instead of adding a layer."""
    p1, p2 = segments.p1[:, ::-1], segments.p2[:, ::-1]
    vectors = np.stack([p1, p2 - p1], axis=1).reshape(-1, 2, 2)
    color: np.ndarray | str = colors if len(colors) else "white"  # napari finds no colour in none
    return vectors, {**kwargs, "edge_color": color, "edge_width": width, "vector_style": "line"}, "vectors"


def ray_layer(scene: Scene, result: SimulationResult, color_by: str = "brightness") -> LayerData:
    segments = result.segments
    meta = _meta("rays", color_by=color_by, segments=len(segments))
    kwargs = {"name": LAYER_NAMES["rays"], "metadata": meta}
    return _lines(segments, ray_colors(segments, color_by), line_width(scene), kwargs)


def selection_layer(scene: Scene, segments: Segments, title: str) -> LayerData:
    """Always a Vectors layer: the next query updates it in place, which napari does in a few
    milliseconds where adding a layer takes it hundreds."""
    p1, p2 = segments.p1[:, ::-1], segments.p2[:, ::-1]
    kwargs = {
        "name": LAYER_NAMES["selection"],
        "metadata": _meta("selection", title=title),
        "blending": "additive",
        "edge_color": np.tile(SELECTION_COLOR, (len(segments), 1)),
        "edge_width": SELECTION_WIDTH * line_width(scene),
        "vector_style": "line",
    }
    return np.stack([p1, p2 - p1], axis=1).reshape(-1, 2, 2), kwargs, "vectors"


def scene_layers(scene: Scene, result: SimulationResult, color_by: str = "brightness") -> list[LayerData]:
    """Rays, glasses, edge labels and light sources, bottom to top: napari frames the first layer
    it is given, and the rays reach from the light sources past every glass."""
    return [
        ray_layer(scene, result, color_by),
        glass_layer(scene),
        edge_label_layer(scene),
        source_layer(scene),
    ]


def source_layer(scene: Scene) -> LayerData:
    """Where the light starts: a star per point source, the start of a single ray or an angle
    source, a beam's ends; for the sources the scene model holds and those kept from the file."""
    points: list[tuple[float, float]] = []
    for source in scene.sources:
        if isinstance(source, PointSource):
            points.append((source.y, source.x))
        elif isinstance(source, (SingleRay, AngleSource)):
            points.append((source.p1[1], source.p1[0]))
        elif isinstance(source, Beam):
            points += [(source.p1[1], source.p1[0]), (source.p2[1], source.p2[0])]
    for kept in scene.others:  # sources the simulator emits from the file as it gives them
        if kept.source:
            points += [(y, x) for x, y in kept.emitting_points()]
    kwargs = {
        "name": LAYER_NAMES["sources"],
        "symbol": "star",
        "size": 0.03 * scene.scale,
        "face_color": [*RAY_COLOR, 1.0],
        "border_color": "white",
        "border_width": 0.1,
        "metadata": _meta("sources"),
    }
    return np.array(points, dtype=float).reshape(-1, 2), kwargs, "points"


def scene_from_glass_layer(
    data: Sequence[np.ndarray],
    shape_types: Sequence[str],
    names: Sequence[Any],
    ref_indices: Sequence[Any],
    metadata: dict[str, Any],
) -> Scene:
    """The scene a glasses layer holds now: its stored scene, with the polygons as edited.

    Shapes are matched to glasses by their ``name`` feature; a shape drawn anew becomes a glass
    of its own (named "Glass k" unless it has a name). Lines and paths are not glasses.
    """
    stored = scene_from_dict(metadata[ROLE_KEY]["scene"])
    known = {glass.name: glass for glass in stored.glasses}
    glasses: list[Glass] = []
    taken: set[str] = set()
    for vertices, kind, name, n in zip(data, shape_types, names, ref_indices, strict=True):
        if kind not in GLASS_SHAPES:
            continue
        xy = np.asarray(vertices, dtype=float)[:, -2:][:, ::-1]
        name = str(name) if isinstance(name, str) and name.strip() else ""
        if not name or name in taken:
            name = _fresh_name(taken | set(known))
        n = float(n) if isinstance(n, (int, float)) and np.isfinite(n) and n > 0 else None
        if name in known:
            glass = known[name].moved_to(xy)
            if n is not None and n != glass.ref_index:
                glass = Glass(glass.name, glass.vertices, n, glass.cauchy_b, glass.labels)
        else:
            glass = Glass(name, xy, n or 1.5, labels="cardinal")
        glasses.append(glass)
        taken.add(name)
    return stored.with_glasses(tuple(glasses))


def _fresh_name(taken: set[str]) -> str:
    number = 1
    while f"Glass {number}" in taken:
        number += 1
    return f"Glass {number}"


IRRADIANCE_COLOR = (1.0, 0.45, 0.2)
PLOT_HEIGHT = 0.15
"""The irradiance plot's tallest bar, as a share of the scene's size."""


def irradiance_layer(scene: Scene, detector: Any, reading: Any) -> LayerData:
    """A detector's reading drawn beside it: a step curve over the detector, its height the
    irradiance (the peak at ``PLOT_HEIGHT`` of the scene), on the detector's left; with the
    detector line as its axis. One Shapes layer: the axis and the curve, as paths."""
    p1, p2 = np.asarray(detector.p1, dtype=float), np.asarray(detector.p2, dtype=float)
    along = (p2 - p1) / np.linalg.norm(p2 - p1)
    normal = np.array([-along[1], along[0]])
    values = np.asarray(reading.irradiance, dtype=float)
    peak = float(np.abs(values).max(initial=0.0)) or 1.0
    height = PLOT_HEIGHT * scene.scale / peak
    edges = np.asarray([*reading.positions, reading.positions[-1] + reading.bin_size], dtype=float)
    edges = np.minimum(edges, float(np.linalg.norm(p2 - p1)))
    xs = np.repeat(edges, 2)[1:-1]
    ys = np.repeat(values, 2) * height
    curve = p1 + xs[:, None] * along + ys[:, None] * normal
    axis = np.array([p1, p2])
    kwargs = {
        "name": LAYER_NAMES["irradiance"],
        "shape_type": ["path", "path"],
        "edge_color": [[0.7, 0.7, 0.7, 1.0], [*IRRADIANCE_COLOR, 1.0]],
        "edge_width": line_width(scene),
        "features": {"name": ["detector axis", f"irradiance (peak {peak:.4g})"]},
        "text": {"string": "{name}", "color": "white", "size": 9, "anchor": "upper_left"},
        "metadata": _meta("irradiance", peak=peak),
    }
    return [axis[:, ::-1].copy(), curve[:, ::-1].copy()], kwargs, "shapes"
