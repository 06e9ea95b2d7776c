"""Where a picture to analyse comes from: an image layer (read now, on the GUI thread), a workspace
file or a URL (read later, off it)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from ...core.basics.result import CommandError
from ...core.rules.names import resolve_name
from . import fetch, layers

if TYPE_CHECKING:
    from ...core.contract.pack import Context
    from ...core.safety.net import NetPolicy
    from ...core.safety.workspace import Workspace
    from .store import Atlas

IMAGE_MAX_BYTES = 200 * 1024 * 1024


def picture_source(ctx: Context[Atlas], target: str) -> tuple[Callable[[], layers.Picture], str]:
    """How to get the picture ``target`` names (run it off the GUI thread), and a label for it.

    A layer's pixels are taken now, on the GUI thread; a URL or a file is read when called.
    """
    text = target.strip()
    if fetch.is_url(text):
        net = ctx.net
        return lambda: (fetched(text, net), {}), text
    viewer = ctx.viewer
    if viewer is not None:  # a layer named exactly so comes before a file of that name
        exact = next((lyr.name for lyr in viewer.layers if lyr.name.casefold() == text.casefold()), None)
        if exact is not None:
            return _taken(layers.layer_pixels(viewer, viewer.layers[exact])), f"layer {exact}"
    looks_like_a_path = "/" in text or "\\" in text or Path(text).suffix
    if looks_like_a_path and ctx.workspace.exists(text):
        workspace = ctx.workspace
        return lambda: (read_image(workspace, text), {}), text
    if viewer is not None:
        if text.casefold() in layers.THIS:
            layer = layers.selected_image(viewer)
            return _taken(layers.layer_pixels(viewer, layer)), f"layer {layer.name}"
        names = [layer.name for layer in layers.image_layers(viewer)]
        match = resolve_name(text, names)
        if match.found is not None:
            return _taken(layers.layer_pixels(viewer, viewer.layers[match.found])), f"layer {match.found}"
        listed = ", ".join(repr(n) for n in names) or "(none)"
        raise CommandError(f"no image layer, workspace file or URL {text!r}; image layers: {listed}")
    raise CommandError(f"no workspace file or URL {text!r} (and no viewer for layers)")


def _taken(picture: layers.Picture) -> Callable[[], layers.Picture]:
    return lambda: picture


def fetched(url: str, net: NetPolicy) -> np.ndarray:
    try:
        return fetch.decode(fetch.download(url, net).data, url, shrink_to=fetch.ANALYSIS_PIXELS)
    except fetch.ImageError as exc:
        raise CommandError(str(exc)) from None


def read_image(
    workspace: Workspace, relative: str, shrink_to: int | None = fetch.ANALYSIS_PIXELS
) -> np.ndarray:
    data = workspace.read_bytes(relative, limit=IMAGE_MAX_BYTES, what="images")
    try:
        return fetch.decode(data, relative, shrink_to=shrink_to)
    except fetch.ImageError as exc:
        raise CommandError(str(exc)) from None
