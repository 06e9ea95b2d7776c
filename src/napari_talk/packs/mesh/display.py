"""The model in a napari viewer: Surface layers that mirror the pack's state, picking, framing.

:func:`sync` makes the viewer show exactly what a :class:`ModelState` says (the model layer with
its segment or material colours, the isolated segment, the concept images), so undo only has
to put an old state back and sync again; a sync that fails half-way takes its steps back (through
``history.Changes``). Only the viewer's public API is used.

Coordinates: the pack works in glTF's (x right, y up, z to the viewer); napari's 3-D axes are
(depth, row, column) with rows growing downwards, so a point (x, y, z) is shown at (z, -y, x): a
proper rotation (winding and normals keep their sense) under which napari's default camera looks
at the model's front, head up.
"""

from __future__ import annotations

import contextlib
import io
from typing import TYPE_CHECKING, Any

import numpy as np

from ...core.basics.viewer_protocols import Layer, SurfaceLayer, Viewer
from ...core.viewer.access import camera, camera_state, canvas_size, restore_camera
from ...core.viewer.layers import added, has_layer, remove_layer, same_layer, set_attributes
from .appearance import display_rgba, segment_materials, segment_rgba
from .mesh import TriMesh, crease_groups, split_by_groups
from .state import MeshPackState, ModelState

if TYPE_CHECKING:
    from pathlib import Path

    from ...core.running.history import Changes
    from ...core.safety.workspace import Workspace

MODEL_LAYER = "model"
ROLE = "napari_talk_mesh"
DIMMED = 0.15
FRAME_MARGIN = 0.15
SMOOTHING_ANGLE = 40.0
CONCEPT_WIDTH = 2.0
"""Concept images are shown this many world units wide, in a row above the model."""


def to_napari(points: np.ndarray) -> np.ndarray:
    points = np.asarray(points, dtype=float)
    return np.stack([points[..., 2], -points[..., 1], points[..., 0]], axis=-1)


def from_napari(points: np.ndarray) -> np.ndarray:
    points = np.asarray(points, dtype=float)
    return np.stack([points[..., 2], -points[..., 1], points[..., 0]], axis=-1)


def display_mesh(state: ModelState) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Vertices (napari order) and faces split along segments and creases, and each vertex's
    segment: napari shades smoothly within a piece and colours by vertex."""
    mesh = state.mesh
    assert mesh is not None
    labels = state.face_labels()
    creases = crease_groups(mesh, SMOOTHING_ANGLE)
    groups = labels * (int(creases.max(initial=0)) + 1) + creases
    vertices, faces, _ = split_by_groups(mesh, groups)
    segment_of_vertex = np.zeros(len(vertices), dtype=np.int64)
    segment_of_vertex[faces.reshape(-1)] = np.repeat(labels, 3)
    return to_napari(vertices), faces, segment_of_vertex


def prepare(mesh: TriMesh) -> TriMesh:
    """Compute what showing ``mesh`` needs and keeps (its crease patches: 0.3 s the first time,
    as scipy's graph code loads): call it in a job's work, off the GUI thread, and the mesh it
    hands to ``finish`` carries them."""
    crease_groups(mesh, SMOOTHING_ANGLE)
    return mesh


Prepared = tuple[tuple[int, int], tuple[np.ndarray, np.ndarray, np.ndarray]]
"""What showing a state needs, computed off the GUI thread, keyed by the state's mesh and labels."""


def _key(state: ModelState) -> tuple[int, int]:
    return (id(state.mesh), id(state.labels))


def prepare_state(state: ModelState) -> Prepared:
    """:func:`display_mesh` of ``state`` with the mesh's crease patches: call it in a job's work
    and hand the result to :func:`remember` in its finish, so the GUI thread only makes the layer."""
    built = display_mesh(state)
    for array in built:
        array.setflags(write=False)
    return _key(state), built


def remember(pack: MeshPackState, prepared: Prepared) -> None:
    pack.view["display_mesh"] = prepared


def _display_mesh(pack: MeshPackState, state: ModelState) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`display_mesh`, kept while the model and its segments stay the same."""
    cached = pack.view.get("display_mesh")
    if cached is not None and cached[0] == _key(state):
        return cached[1]
    prepared = prepare_state(state)
    remember(pack, prepared)
    return prepared[1]


def _alive(viewer: Viewer, layer: Layer) -> bool:
    """Whether the layer is still in the viewer (by napari's identity: a plugin's viewer is a proxy
    whose every access makes a new object, so ``is`` is never true through it)."""
    return has_layer(viewer.layers, layer)


def _remove(viewer: Viewer, layer: Layer, changes: Changes | None = None) -> None:
    if _alive(viewer, layer):
        remove_layer(viewer, layer, changes)


def _surface(
    viewer: Viewer,
    pack: MeshPackState,
    key: str,
    name: str,
    data,
    colors: np.ndarray,
    changes: Changes | None,
) -> SurfaceLayer:
    """Add the layer, or update the one shown before (even if the person renamed it)."""
    layer = pack.view.get(key)
    if layer is not None and _alive(viewer, layer):
        if pack.view.get(f"{key} data") is not data:
            # colours of the old length must go before data of a new length (taken back in
            # reverse); vispy redraws once, with the colours (each redraw recomputes the normals)
            with layer.events.set_data.blocker():
                set_attributes(layer, changes, vertex_colors=None, data=data)
        set_attributes(layer, changes, vertex_colors=colors)
        pack.view[f"{key} data"] = data
        return layer
    layer = viewer.add_surface(
        data, vertex_colors=colors, shading="smooth", name=name, metadata={ROLE: key}, blending="translucent"
    )
    pack.view[key] = added(viewer, layer, changes)
    pack.view[f"{key} data"] = data
    return layer


def sync(viewer: Viewer, pack: MeshPackState, changes: Changes | None = None) -> None:
    """Make the viewer's mesh layers show ``pack.model``, adding or removing them as needed;
    ``changes`` gets each step, so a sync that fails half-way can be taken back whole."""
    if viewer is None:
        return
    if changes is not None:
        kept = dict(pack.view)
        shown = dict(pack.view.get("concepts", {}))

        def put_back_view() -> None:
            pack.view.clear()
            pack.view.update(kept)
            if "concepts" in kept:
                kept["concepts"].clear()
                kept["concepts"].update(shown)

        changes.add(put_back_view)
    state = pack.model
    if state.mesh is None:
        for key in ("model", "isolated"):
            _remove(viewer, pack.view.pop(key, None), changes)
    else:
        vertices, faces, segment_of_vertex = built = _display_mesh(pack, state)
        colors = segment_rgba(state).astype(np.float32)[segment_of_vertex]
        data = pack.view.get("display_data")
        if data is None or data[0] is not built:
            pack.view["display_data"] = data = (built, (vertices, faces))
        layer = _surface(viewer, pack, "model", MODEL_LAYER, data[1], colors, changes)
        set_attributes(layer, changes, opacity=DIMMED if state.isolated else 1.0)
        _sync_isolated(viewer, pack, state, changes)
    _sync_concepts(viewer, pack, state, changes)


def isolated_mesh(state: ModelState, segment_id: int) -> TriMesh:
    """The segment alone, moved so its bounding box is centred in the model's."""
    mesh = state.mesh
    assert mesh is not None
    part = mesh.submesh(state.segment_mask(segment_id), name=f"segment {segment_id}")
    return part.transformed(1.0, mesh.center - part.center)


def _sync_isolated(
    viewer: Viewer, pack: MeshPackState, state: ModelState, changes: Changes | None = None
) -> None:
    if not state.isolated:
        _remove(viewer, pack.view.pop("isolated", None), changes)
        return
    part = isolated_mesh(state, state.isolated)
    groups = crease_groups(part, SMOOTHING_ANGLE)
    vertices, faces, _ = split_by_groups(part, groups)
    material = segment_materials(state)[state.isolated - 1]
    colors = np.tile(display_rgba(material), (len(vertices), 1))
    name = f"segment {state.isolated} (isolated)"
    layer = _surface(viewer, pack, "isolated", name, (to_napari(vertices), faces), colors, changes)
    set_attributes(layer, changes, name=name)


def _sync_concepts(
    viewer: Viewer, pack: MeshPackState, state: ModelState, changes: Changes | None = None
) -> None:
    shown: dict[int, tuple[Any, str]] = pack.view.setdefault("concepts", {})
    wanted = {c.option: c for c in state.concepts}
    for option in list(shown):
        layer, path = shown[option]
        if option not in wanted or str(wanted[option].path) != path or not _alive(viewer, layer):
            _remove(viewer, layer, changes)
            del shown[option]
    for option, concept in sorted(wanted.items()):
        if option in shown:
            continue
        image = read_image(pack.file.workspace, concept.path)
        height, width = image.shape[:2]
        scale = CONCEPT_WIDTH / max(width, 1)
        column = (option - 2) * CONCEPT_WIDTH * 1.15 - CONCEPT_WIDTH / 2
        row = -1.3 - height * scale
        layer = viewer.add_image(
            image,
            rgb=True,
            name=f"concept {option}",
            scale=(scale, scale),
            translate=(row, column),
            metadata={ROLE: "concept"},
        )
        shown[option] = (added(viewer, layer, changes), str(concept.path))


def read_image(workspace: Workspace, path: Path) -> np.ndarray:
    """A workspace image, read through the workspace gate (no symlink followed on the way)."""
    from PIL import Image

    from .limits import CONCEPT_MAX_BYTES

    data = workspace.read_bytes(workspace.relative(path), limit=CONCEPT_MAX_BYTES, what="concept images")
    with Image.open(io.BytesIO(data)) as image:
        return np.asarray(image.convert("RGB"))


# -- camera ---------------------------------------------------------------------------------------


def view_state(viewer: Viewer) -> dict[str, Any]:
    return {"ndisplay": viewer.dims.ndisplay, "camera": camera_state(viewer)}


def restore_view(viewer: Viewer, saved: dict[str, Any]) -> None:
    viewer.dims.ndisplay = saved["ndisplay"]
    restore_camera(viewer, saved["camera"])


def look(viewer: Viewer, azimuth: float, elevation: float) -> None:
    """Point the camera at the model from (azimuth, elevation), model's up on top."""
    az, el = np.radians(azimuth), np.radians(elevation)
    towards_camera = np.array([np.sin(az) * np.cos(el), np.sin(el), np.cos(az) * np.cos(el)])
    view_direction = tuple(float(v) for v in to_napari(-towards_camera))
    up = tuple(float(v) for v in to_napari(np.array([0.0, 1.0, 0.0])))
    cam = camera(viewer)
    if hasattr(cam, "set_view_direction"):
        cam.set_view_direction(view_direction, up)


def frame(
    viewer: Viewer,
    target: TriMesh | np.ndarray,
    azimuth: float = 30.0,
    elevation: float = 15.0,
    pixels: float | None = None,
) -> None:
    """3-D view, the camera on a mesh (or a (2, 3) box of model coordinates) from (azimuth,
    elevation), zoomed so it fills the canvas (or a square picture ``pixels`` wide: a screenshot
    of another size keeps the zoom)."""
    viewer.dims.ndisplay = 3
    look(viewer, azimuth, elevation)
    cam = camera(viewer)
    if isinstance(target, TriMesh):
        middle = target.center
        radius = float(np.linalg.norm(target.vertices - middle, axis=1).max())
    else:
        middle = np.asarray(target, float).mean(axis=0)
        radius = float(np.linalg.norm(np.ptp(np.asarray(target, float), axis=0))) / 2
    center = to_napari(middle)
    cam.center = (*tuple(cam.center)[:-3], *center) if len(tuple(cam.center)) > 3 else tuple(center)
    side = pixels if pixels is not None else min(canvas_size(viewer))
    cam.zoom = (1 - FRAME_MARGIN) * side / (2 * (radius or 1.0))


def concept_box(state: ModelState) -> np.ndarray:
    """Model coordinates of a box holding the model and the concept images above it."""
    low, high = state.mesh.bounds if state.mesh is not None else (np.full(3, -1.0), np.full(3, 1.0))
    count = max(len(state.concepts), 1)
    half_row = (count / 2) * CONCEPT_WIDTH * 1.15
    top = 1.3 + CONCEPT_WIDTH * 1.2
    return np.array(
        [[min(low[0], -half_row), low[1], low[2]], [max(high[0], half_row), max(high[1], top), high[2]]]
    )


# -- pictures -------------------------------------------------------------------------------------


def screenshot(viewer: Viewer, size: int | None = None) -> np.ndarray:
    image = viewer.screenshot(canvas_only=True, size=(size, size) if size else None)
    return np.asarray(image)[..., :3].astype(np.uint8)


@contextlib.contextmanager
def only_mesh_layers(viewer: Viewer, pack: MeshPackState):
    """Hide every layer but the model (shown fully) while pictures are taken."""
    model = pack.view.get("model")
    saved = [(layer, layer.visible, layer.opacity) for layer in viewer.layers]
    view = view_state(viewer)
    try:
        for layer in viewer.layers:
            layer.visible = same_layer(layer, model)
        if model is not None:
            model.opacity = 1.0
        viewer.dims.ndisplay = 3
        yield
    finally:
        for layer, visible, opacity in saved:
            layer.visible, layer.opacity = visible, opacity
        restore_view(viewer, view)


def renders(viewer: Viewer, pack: MeshPackState, views: dict[str, tuple[float, float]], size: int = 512):
    """Screenshots of the model alone from each named (azimuth, elevation)."""
    mesh = pack.model.mesh
    assert mesh is not None
    pictures = {}
    with only_mesh_layers(viewer, pack):
        for name, (azimuth, elevation) in views.items():
            frame(viewer, mesh, azimuth, elevation, pixels=size)
            pictures[name] = screenshot(viewer, size)
    return pictures


# -- picking --------------------------------------------------------------------------------------


def picked_point(event: Any) -> tuple[np.ndarray, np.ndarray] | None:
    """The click's ray in model coordinates, from a napari mouse event in a 3-D view."""
    displayed = list(getattr(event, "dims_displayed", ()) or ())
    direction = getattr(event, "view_direction", None)
    if len(displayed) != 3 or direction is None:
        return None
    position = np.asarray(event.position, dtype=float)[displayed]
    direction = np.asarray(direction, dtype=float)[displayed]
    return from_napari(position), from_napari(direction)


def install_picking(viewer: Viewer, pack: MeshPackState, on_pick) -> None:
    """A click (press and release without dragging) on the model calls ``on_pick(ray)``."""
    if pack.view.get("picking") is viewer:
        return

    def on_click(_viewer: Viewer, event: Any):
        ray = picked_point(event)
        dragged = False
        yield
        while event.type == "mouse_move":
            dragged = True
            yield
        if not dragged and ray is not None:
            on_pick(ray)

    viewer.mouse_drag_callbacks.append(on_click)
    pack.view["picking"] = viewer
    pack.view["picking_callback"] = on_click


# -- background work and notices ------------------------------------------------------------------
