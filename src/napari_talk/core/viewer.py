"""What packs may ask of a napari viewer, reached through public API across the versions supported (≥ 0.6).

napari 0.9 moved the camera under ``viewer.scene`` and the overlays under ``viewer.canvas``;
every handler goes through these helpers so that feature detection lives in one place.
"""

from __future__ import annotations

from typing import Any

from .commands import shown_name
from .grammar.names import describe_miss, resolve_name
from .result import CommandError


def camera(viewer: Any) -> Any:
    scene = getattr(viewer, "scene", None)
    return scene.camera if scene is not None and hasattr(scene, "camera") else viewer.camera


def canvas_size(viewer: Any) -> tuple[float, float]:
    """(height, width) of the canvas in screen pixels."""
    canvas = getattr(viewer, "canvas", None)
    size = getattr(canvas, "size", None) or getattr(viewer, "_canvas_size", None) or (600, 800)
    return float(size[0]), float(size[1])


def grid(viewer: Any) -> Any:
    canvas = getattr(viewer, "canvas", None)
    return canvas.grid if canvas is not None and hasattr(canvas, "grid") else viewer.grid


def scale_bar(viewer: Any) -> Any:
    overlays = getattr(getattr(viewer, "canvas", None), "overlays", None)
    if overlays is not None and "scale_bar" in overlays:
        return overlays["scale_bar"]
    return viewer.scale_bar


def find_layer(viewer: Any, name: str) -> Any:
    names = [layer.name for layer in viewer.layers]
    match = resolve_name(name, names)
    if match.found is None:
        raise CommandError(describe_miss(match, "layer", [shown_name(n) for n in names]))
    return viewer.layers[match.found]


def camera_state(viewer: Any) -> dict[str, Any]:
    cam = camera(viewer)
    return {"center": tuple(cam.center), "zoom": cam.zoom, "angles": tuple(cam.angles)}


def restore_camera(viewer: Any, state: dict[str, Any]) -> None:
    cam = camera(viewer)
    cam.center, cam.zoom, cam.angles = state["center"], state["zoom"], state["angles"]


def set_center(viewer: Any, row: float, col: float) -> None:
    """Centre on (row, col), keeping the depth of a 3-D view."""
    cam = camera(viewer)
    cam.center = (*tuple(cam.center)[:-2], row, col)
