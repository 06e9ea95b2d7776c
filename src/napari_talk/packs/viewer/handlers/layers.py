"""Layer-list handlers: show, hide and solo layers; list, select, remove, move and rename them."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ....core.basics.commands import shown_name
from ....core.basics.result import CommandError, Result
from ....core.basics.viewer_protocols import Layer, Viewer
from ....core.contract.pack import Context
from ....core.running.history import Changes
from ....core.viewer.access import find_layer
from ....core.viewer.layers import has_layer, set_attributes
from .. import commands as cmd
from .common import HANDLERS, layer_kind, set_one, viewer_of


def _layer_summary(layer: Layer) -> str:
    return f"{shown_name(layer.name)} ({layer_kind(layer)}, {'visible' if layer.visible else 'hidden'})"


def _set_visible(layers: list[Layer], visible: list[bool]) -> Changes:
    """All or nothing: a layer that refuses puts back those already changed."""
    with Changes() as changes:
        for layer, value in zip(layers, visible, strict=True):
            set_attributes(layer, changes, visible=value)
    return changes


@HANDLERS.on(cmd.LayerVisibility)
def layer_visibility(command: cmd.LayerVisibility, ctx: Context[None]) -> Result:
    layer = find_layer(viewer_of(ctx), command.name)
    visible = {"show": True, "hide": False, "toggle": not layer.visible}[command.op]
    undo = _set_visible([layer], [visible])
    return Result.success(f"{layer.name} {'shown' if visible else 'hidden'}.", undo=undo)


@HANDLERS.on(cmd.SoloLayer)
def solo_layer(command: cmd.SoloLayer, ctx: Context[None]) -> Result:
    viewer = viewer_of(ctx)
    chosen = find_layer(viewer, command.name)
    layers = list(viewer.layers)
    # napari hands a plugin a proxy whose every access makes a new object: compare names (unique)
    undo = _set_visible(layers, [layer.name == chosen.name for layer in layers])
    return Result.success(f"only {chosen.name} is shown.", undo=undo)


@HANDLERS.on(cmd.AllLayersVisibility)
def all_layers_visibility(command: cmd.AllLayersVisibility, ctx: Context[None]) -> Result:
    layers = list(viewer_of(ctx).layers)
    undo = _set_visible(layers, [command.op == "show"] * len(layers))
    word = "shown" if command.op == "show" else "hidden"
    return Result.success(f"all {len(layers)} layers {word}.", undo=undo)


# -- panels --------------------------------------------------------------------------------------


@HANDLERS.on(cmd.ListLayers)
def list_layers(command: cmd.ListLayers, ctx: Context[None]) -> Result:
    layers = list(viewer_of(ctx).layers)[::-1]
    data = [
        {"name": shown_name(layer.name), "type": layer_kind(layer), "visible": bool(layer.visible)}
        for layer in layers
    ]
    if not layers:
        return Result.success("there are no layers.", data)
    listing = "; ".join(_layer_summary(layer) for layer in layers)
    return Result.success(f"{len(layers)} layers, top first: {listing}.", data)


@HANDLERS.on(cmd.SelectLayer)
def select_layer(command: cmd.SelectLayer, ctx: Context[None]) -> Result:
    viewer = viewer_of(ctx)
    layer = find_layer(viewer, command.name)
    selection = viewer.layers.selection
    with Changes() as changes:
        changes.add(_selection_restorer(viewer))
        selection.active = layer
    return Result.success(f"{layer.name} is the active layer.", undo=changes)


def _selection_restorer(viewer: Viewer) -> Callable[[], None]:
    """Puts the layer selection back as it is now (layers gone since are left out)."""
    selection = viewer.layers.selection
    before_selected, before_active = set(selection), selection.active

    def restore() -> None:
        selection.clear()
        selection.update(kept for kept in before_selected if has_layer(viewer.layers, kept))
        if before_active is not None and has_layer(viewer.layers, before_active):
            selection.active = before_active

    return restore


@HANDLERS.on(cmd.RemoveLayer)
def remove_layer(command: cmd.RemoveLayer, ctx: Context[None]) -> Result:
    viewer = viewer_of(ctx)
    layer = find_layer(viewer, command.name)
    index = list(viewer.layers).index(layer)
    with Changes() as changes:
        changes.add(_selection_restorer(viewer))  # napari selects a layer put back: undone last
        viewer.layers.remove(layer)
        # the layer itself is kept, not a copy of its data: its bytes are what the undo holds
        changes.add(
            lambda: viewer.layers.insert(min(index, len(viewer.layers)), layer), size=_data_bytes(layer)
        )
    return Result.success(f"{layer.name} removed (undo brings it back).", undo=changes)


def _data_bytes(layer: Layer) -> int:
    data = getattr(layer, "data", None)
    parts = data if isinstance(data, list | tuple) else [data]
    return sum(int(getattr(part, "nbytes", 0) or 0) for part in parts)


@HANDLERS.on(cmd.MoveLayer)
def move_layer(command: cmd.MoveLayer, ctx: Context[None]) -> Result:
    viewer = viewer_of(ctx)
    layers = viewer.layers
    layer = find_layer(viewer, command.name)
    start, last = list(layers).index(layer), len(layers) - 1
    position = command.position
    if position in ("above", "below"):
        other = find_layer(viewer, str(command.relative_to))
        if other is layer:
            raise CommandError(f"{layer.name} cannot go {position} itself.")
        index = list(layers).index(other)
        # the other layer's index once this one is out of the list, then just above or below it
        index -= index > start
        target = index + 1 if position == "above" else index
    elif isinstance(position, int):
        if position > last:
            raise CommandError(
                f"position {position} is out of range; the layer list has 0–{last} (0 is the bottom)."
            )
        target = position
    else:
        target = {"top": last, "bottom": 0, "up": min(start + 1, last), "down": max(start - 1, 0)}[position]
    where = "the top" if target == last else "the bottom" if target == 0 else f"position {target}"
    if target == start:
        return Result.success(f"{layer.name} is already at {where} of the layer list.")
    with Changes() as changes:
        _move(layers, start, target)
        changes.add(lambda: _move(layers, list(layers).index(layer), start))
    return Result.success(
        f"{layer.name} moved to {where} of the layer list (0–{last}, 0 at the bottom).", undo=changes
    )


def _move(layers: Any, start: int, target: int) -> None:
    """Put the item at ``start`` at index ``target`` (napari's move inserts before a pre-move index)."""
    layers.move(start, target + 1 if target > start else target)


@HANDLERS.on(cmd.RenameLayer)
def rename_layer(command: cmd.RenameLayer, ctx: Context[None]) -> Result:
    layer = find_layer(viewer_of(ctx), command.name)
    old = layer.name
    undo = set_one(layer, "name", command.new_name)
    note = "" if layer.name == command.new_name else f" ({command.new_name!r} was taken)"
    return Result.success(f"{old} renamed to {layer.name}{note}.", undo=undo)


# -- dims ----------------------------------------------------------------------------------------
