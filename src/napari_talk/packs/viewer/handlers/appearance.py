"""How an image layer looks: opacity, colormap, contrast limits (set, or taken from its data)."""

from __future__ import annotations

import difflib
import functools

from ....core.basics.result import CommandError, Result
from ....core.contract.pack import Context
from ....core.rules.names import resolve_name
from ....core.running.history import Changes
from ....core.viewer.access import find_layer
from ....core.viewer.layers import set_attributes
from .. import commands as cmd
from .common import HANDLERS, image_layer, set_one, viewer_of


@HANDLERS.on(cmd.LayerOpacity)
def layer_opacity(command: cmd.LayerOpacity, ctx: Context[None]) -> Result:
    layer = find_layer(viewer_of(ctx), command.name)
    undo = set_one(layer, "opacity", command.opacity)
    return Result.success(f"{layer.name} opacity {command.opacity:.0%}.", undo=undo)


@HANDLERS.on(cmd.LayerColormap)
def layer_colormap(command: cmd.LayerColormap, ctx: Context[None]) -> Result:
    from napari.utils.colormaps import AVAILABLE_COLORMAPS, ensure_colormap

    layer = image_layer(viewer_of(ctx), command.name, "a colormap")
    match = resolve_name(command.colormap, list(AVAILABLE_COLORMAPS))
    name = match.found if match.found and match.found.casefold() == command.colormap.casefold() else None
    if name is None:
        try:
            name = ensure_colormap(command.colormap).name
        except (KeyError, ValueError):
            close = difflib.get_close_matches(command.colormap, list(AVAILABLE_COLORMAPS), n=4)
            hint = ", ".join(close or list(AVAILABLE_COLORMAPS)[:12])
            raise CommandError(f"no colormap {command.colormap!r}; try: {hint}") from None
    undo = set_one(layer, "colormap", name)
    return Result.success(f"{layer.name} colormap {name}.", undo=undo)


@HANDLERS.on(cmd.LayerContrast)
def layer_contrast(command: cmd.LayerContrast, ctx: Context[None]) -> Result:
    layer = image_layer(viewer_of(ctx), command.name, "contrast")
    low, high = command.limits
    before_range = tuple(layer.contrast_limits_range)
    with Changes() as changes:
        if low < before_range[0] or high > before_range[1]:
            widened = (min(low, before_range[0]), max(high, before_range[1]))
            set_attributes(layer, changes, contrast_limits_range=widened)
        set_attributes(layer, changes, contrast_limits=(low, high))
    return Result.success(f"{layer.name} contrast {low:g}–{high:g}.", undo=changes)


@HANDLERS.on(cmd.AutoContrast)
def auto_contrast(command: cmd.AutoContrast, ctx: Context[None]) -> Result:
    layer = image_layer(viewer_of(ctx), command.name, "contrast")
    before = tuple(layer.contrast_limits)
    with Changes() as changes:
        layer.reset_contrast_limits()
        changes.add(functools.partial(setattr, layer, "contrast_limits", before))
    low, high = layer.contrast_limits
    return Result.success(
        f"{layer.name} contrast set from its data: {low:.4g}–{high:.4g}.",
        {"limits": [float(low), float(high)]},
        undo=changes,
    )
