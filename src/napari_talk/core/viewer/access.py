"""What packs may ask of a napari viewer, reached through public API across the versions supported (≥ 0.6).

napari 0.9 moved the camera under ``viewer.scene`` and the overlays under ``viewer.canvas``;
every handler goes through these helpers so that feature detection lives in one place.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from ..basics.commands import shown_name
from ..basics.result import CommandError
from ..rules.names import describe_miss, resolve_name

if TYPE_CHECKING:
    from ..basics.viewer_protocols import Camera, Grid, Layer, Overlay, TextOverlay, Viewer


def camera(viewer: Viewer) -> Camera:
    scene = getattr(viewer, "scene", None)
    holder: Any = scene if scene is not None and hasattr(scene, "camera") else viewer  # napari < 0.9
    return cast("Camera", holder.camera)


def canvas_size(viewer: Viewer) -> tuple[float, float]:
    """(height, width) of the canvas in screen pixels."""
    canvas = getattr(viewer, "canvas", None)
    size = getattr(canvas, "size", None) or getattr(viewer, "_canvas_size", None) or (600, 800)
    return float(size[0]), float(size[1])


def grid(viewer: Viewer) -> Grid:
    canvas = getattr(viewer, "canvas", None)
    holder: Any = canvas if canvas is not None and hasattr(canvas, "grid") else viewer  # napari < 0.9
    return cast("Grid", holder.grid)


def _overlay(viewer: Viewer, key: str, legacy: str) -> Any:
    overlays = getattr(getattr(viewer, "canvas", None), "overlays", None)
    if overlays is not None and key in overlays:
        return overlays[key]
    return getattr(viewer, legacy)


def scale_bar(viewer: Viewer) -> Overlay:
    return cast("Overlay", _overlay(viewer, "scale_bar", "scale_bar"))


def text_overlay(viewer: Viewer) -> TextOverlay:
    return cast("TextOverlay", _overlay(viewer, "text", "text_overlay"))


def find_layer(viewer: Viewer, name: str) -> Layer:
    names = [layer.name for layer in viewer.layers]
    match = resolve_name(name, names)
    if match.found is None:
        raise CommandError(describe_miss(match, "layer", [shown_name(n) for n in names]))
    return viewer.layers[match.found]


def camera_state(viewer: Viewer) -> dict[str, Any]:
    cam = camera(viewer)
    return {"center": tuple(cam.center), "zoom": cam.zoom, "angles": tuple(cam.angles)}


def restore_camera(viewer: Viewer, state: dict[str, Any]) -> None:
    cam = camera(viewer)
    cam.center, cam.zoom, cam.angles = state["center"], state["zoom"], state["angles"]


def set_center(viewer: Viewer, row: float, col: float) -> None:
    """Centre on (row, col), keeping the depth of a 3-D view."""
    cam = camera(viewer)
    cam.center = (*tuple(cam.center)[:-2], row, col)


def _short(value: float) -> str:
    return f"{value:.3g}" if abs(value) < 100 else f"{value:.0f}"


def layer_facts(layer: Layer) -> str:
    """What a person sees of ``layer``, compactly: its kind, colormap or colour, opacity (when not
    full), contrast limits, data shape, and whether it is hidden. Read by duck typing, so any
    napari version (and no napari at all, for a stand-in) will do."""
    kind = layer.__class__.__name__.lower()
    facts = [kind]
    colormap = getattr(getattr(layer, "colormap", None), "name", None)
    if isinstance(colormap, str) and kind in ("image", "surface"):
        facts.append(colormap)
    limits = getattr(layer, "contrast_limits", None)
    if limits is not None and kind == "image":
        facts.append(f"contrast {_short(float(limits[0]))}-{_short(float(limits[1]))}")
    data = getattr(layer, "data", None)
    shape = getattr(data, "shape", None)
    if kind in ("points", "vectors", "shapes") and data is not None:
        facts[0] = f"{len(data)} {kind}"
    elif isinstance(shape, tuple) and shape:
        facts.append("x".join(str(n) for n in shape))
    opacity = float(getattr(layer, "opacity", 1.0))
    if opacity < 0.995:
        facts.append(f"opacity {opacity:.2g}")
    if not getattr(layer, "visible", True):
        facts.append("hidden")
    return f"{shown_name(layer.name)} ({', '.join(facts)})"


def camera_facts(viewer: Viewer) -> str:
    """Where the camera looks: zoom, centre and (in 3-D) angles."""
    cam = camera(viewer)
    center = ", ".join(_short(float(c)) for c in tuple(cam.center)[-2:])
    line = f"Camera: zoom {_short(float(cam.zoom))}, centre (row, col) ({center})"
    if getattr(getattr(viewer, "dims", None), "ndisplay", 2) == 3:
        line += ", angles (" + ", ".join(_short(float(a)) for a in cam.angles) + ")"
    return line
