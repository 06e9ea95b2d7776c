"""What the atlas pack does with napari: pictures from layers, files from pictures.

Only the viewer's and layers' public attributes are used. Slow work reports its progress through
its job's :class:`~napari_talk.core.basics.jobs.Progress`; the dock shows it, on the GUI thread.
"""

from __future__ import annotations

import io
from typing import TYPE_CHECKING, Any, cast

import numpy as np

from ...core.basics.result import CommandError
from ...core.basics.viewer_protocols import ImageLayer, Layer, Viewer
from .samples import SAMPLE_ROLE

if TYPE_CHECKING:
    from ...core.contract.pack import Context
    from .store import Atlas

Picture = tuple[np.ndarray, dict[str, Any]]
"""Pixels, and how a layer displays them (contrast limits, colormap)."""

THIS = frozenset(
    {"this", "it", "image", "this image", "the image", "current", "current image", "current layer",
     "selected", "selected image", "selected layer", "active", "active layer", "this layer", "layer"}
)  # fmt: skip
"""What "analyze this image" may call the selected image layer."""


def sample_layer_open(ctx: Context[Any]) -> bool:
    layers = getattr(ctx.viewer, "layers", None) or []
    return any(role(layer) == SAMPLE_ROLE for layer in layers)


def role(layer: Layer) -> str | None:
    meta = getattr(layer, "metadata", None) or {}
    talk = meta.get("napari_talk") if isinstance(meta, dict) else None
    return talk.get("role") if isinstance(talk, dict) else None


def layer_pixels(viewer: Viewer | None, layer: Layer) -> tuple[np.ndarray, dict[str, Any]]:
    """The 2-D picture a layer shows now (its current slice), and how it is displayed."""
    if viewer is None:
        raise CommandError("no viewer is attached to this session: there is no layer to read")
    if layer.__class__.__name__ != "Image":
        raise CommandError(f"{layer.name!r} is a {layer.__class__.__name__.lower()} layer, not an image")
    data = layer.data[-1] if getattr(layer, "multiscale", False) else layer.data
    rgb = bool(getattr(layer, "rgb", False))
    leading = data.ndim - (3 if rgb else 2)
    if leading > 0:
        point = np.asarray(layer.world_to_data(viewer.dims.point), float)
        index = tuple(int(np.clip(round(point[axis]), 0, data.shape[axis] - 1)) for axis in range(leading))
        data = data[index]
    pixels = np.asarray(data)
    display: dict[str, Any] = {}
    if not rgb:
        image = cast("ImageLayer", layer)
        display = {"limits": tuple(image.contrast_limits), "colormap": image.colormap.map}
    return pixels, display


def image_layers(viewer: Viewer) -> list[Layer]:
    return [layer for layer in viewer.layers if layer.__class__.__name__ == "Image"]


def selected_image(viewer: Viewer) -> Layer:
    active = viewer.layers.selection.active
    if active is not None and active.__class__.__name__ == "Image":
        return active
    images = image_layers(viewer)
    if len(images) == 1:
        return images[0]
    names = ", ".join(repr(layer.name) for layer in images) or "(none)"
    raise CommandError(f"select an image layer first, or name one: {names}")


def save_pixels(atlas: Atlas, name: str, pixels: np.ndarray) -> str:
    """The layer's picture as a workspace file: PNG for 8-bit colour, TIFF (raw) otherwise."""
    if pixels.dtype == np.uint8 and (pixels.ndim == 2 or pixels.shape[-1] in (3, 4)):
        from PIL import Image

        path = atlas.new_image_path(name, ".png")
        buffer = io.BytesIO()
        Image.fromarray(pixels).save(buffer, format="PNG")
        atlas.workspace.write_bytes(path, buffer.getvalue(), overwrite=False)
        return path
    import tifffile

    path = atlas.new_image_path(name, ".tif")
    buffer = io.BytesIO()
    tifffile.imwrite(buffer, pixels)
    atlas.workspace.write_bytes(path, buffer.getvalue(), overwrite=False)
    return path


def image_layer(ctx: Context[Any], name: str | None) -> Layer:
    viewer = ctx.viewer
    if viewer is None:
        raise CommandError("no viewer is attached to this ctx: there is no image layer to add")
    if name is None:
        return selected_image(viewer)
    from ...core.viewer.access import find_layer

    return find_layer(viewer, name)
