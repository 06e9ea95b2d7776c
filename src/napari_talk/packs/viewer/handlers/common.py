"""What every viewer handler shares: the pack's handler table, the viewer of a context, and
finding an image layer by name."""

from __future__ import annotations

from typing import Any, cast

from ....core.basics.result import CommandError
from ....core.basics.viewer_protocols import ImageLayer, Layer, Viewer
from ....core.contract.pack import Context, Handlers
from ....core.running.history import Changes
from ....core.viewer.access import find_layer
from ....core.viewer.layers import set_attributes

HANDLERS = Handlers[None]()
"""The viewer pack's handler table; each family's module binds its handlers to it."""


def viewer_of(ctx: Context[None]) -> Viewer:
    if ctx.viewer is None:
        raise CommandError("no viewer is attached to this session")
    return ctx.viewer


def layer_kind(layer: Layer) -> str:
    return layer.__class__.__name__.lower()


def set_one(layer: Layer, attribute: str, value: Any) -> Changes:
    with Changes() as changes:
        set_attributes(layer, changes, **{attribute: value})
    return changes


def image_layer(viewer: Viewer, name: str, what: str) -> ImageLayer:
    layer = find_layer(viewer, name)
    if not hasattr(layer, "contrast_limits"):
        raise CommandError(f"{layer.name} is a {layer_kind(layer)} layer; {what} applies to image layers.")
    return cast("ImageLayer", layer)
