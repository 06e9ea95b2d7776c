"""Handlers of the viewer pack: each runs one command on a napari viewer and returns a Result.

Commands speak world ``[x, y]``; napari speaks (row, col) = (y, x). Every handler that changes
the viewer hands back the function that undoes it.
"""

from __future__ import annotations

import difflib
import functools
import time
from collections.abc import Callable
from typing import Any, cast

from ...core.contract.commands import shown_name
from ...core.contract.pack import Context, Handlers
from ...core.contract.result import CommandError, Result
from ...core.grammar.names import describe_miss, resolve_name
from ...core.running.history import Changes
from ...core.running.jobs import Job, Progress
from ...core.viewer.access import (
    camera,
    camera_facts,
    camera_state,
    canvas_size,
    find_layer,
    grid,
    layer_facts,
    restore_camera,
    scale_bar,
    set_center,
)
from ...core.viewer.layers import has_layer, set_attributes
from ...core.viewer.protocols import ImageLayer, Layer, Viewer
from ...core.viewer.window import panels_of
from . import commands as cmd

HANDLERS = Handlers[None]()


FRAME_MARGIN = 0.05
"""The share of the canvas left around framed data, as napari's own fit_to_view leaves."""


def viewer_of(ctx: Context[None]) -> Viewer:
    if ctx.viewer is None:
        raise CommandError("no viewer is attached to this session")
    return ctx.viewer


def _camera_change(viewer: Viewer, change, message: str) -> Result:
    before = camera_state(viewer)
    with Changes() as changes:
        change()
        changes.add(lambda: restore_camera(viewer, before))
    return Result.success(message, _camera_data(viewer), undo=changes)


def _camera_data(viewer: Viewer) -> dict[str, Any]:
    cam = camera(viewer)
    center = tuple(cam.center)
    return {"center_xy": [center[-1], center[-2]], "zoom": cam.zoom}


def _frame(viewer: Viewer, rows: tuple[float, float], cols: tuple[float, float]) -> None:
    """Centre on a world rectangle and zoom so it fills the canvas less the margin."""
    height, width = canvas_size(viewer)
    box_h, box_w = abs(rows[1] - rows[0]), abs(cols[1] - cols[0])
    fits = [size / extent for size, extent in ((height, box_h), (width, box_w)) if extent > 0]
    set_center(viewer, sum(rows) / 2, sum(cols) / 2)
    if fits:
        camera(viewer).zoom = (1 - FRAME_MARGIN) * min(fits)


def _layer_kind(layer: Layer) -> str:
    return layer.__class__.__name__.lower()


def _layer_summary(layer: Layer) -> str:
    return f"{shown_name(layer.name)} ({_layer_kind(layer)}, {'visible' if layer.visible else 'hidden'})"


# -- visibility ----------------------------------------------------------------------------------


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


@HANDLERS.on(cmd.PanelToggle)
def panel_toggle(command: cmd.PanelToggle, ctx: Context[None]) -> Result:
    found = panels_of(ctx.window)
    if not found:
        raise CommandError("this session has no window whose panels it could open or close")
    match = resolve_name(command.name, list(found))
    if match.found is None:
        raise CommandError(describe_miss(match, "panel", list(found)))
    panel = found[match.found]
    was_open, opening = panel.is_open(), command.op == "open"
    panel.set_open(opening)
    if was_open == opening:
        return Result.success(f"the {match.found} panel is already {'open' if opening else 'closed'}.")
    verb = "opened" if opening else "closed"
    changes = Changes()
    changes.add(lambda: panel.set_open(was_open))
    return Result.success(f"{match.found} {verb}.", undo=changes)


# -- camera --------------------------------------------------------------------------------------


@HANDLERS.on(cmd.ZoomBox)
def zoom_box(command: cmd.ZoomBox, ctx: Context[None]) -> Result:
    viewer = viewer_of(ctx)
    x1, y1, x2, y2 = command.box
    return _camera_change(
        viewer,
        lambda: _frame(viewer, (y1, y2), (x1, x2)),
        f"framed x {min(x1, x2):g}–{max(x1, x2):g}, y {min(y1, y2):g}–{max(y1, y2):g}.",
    )


@HANDLERS.on(cmd.CenterOn)
def center_on(command: cmd.CenterOn, ctx: Context[None]) -> Result:
    viewer = viewer_of(ctx)
    x, y = command.point
    return _camera_change(viewer, lambda: set_center(viewer, y, x), f"centred on x={x:g}, y={y:g}.")


@HANDLERS.on(cmd.SetZoom)
def set_zoom(command: cmd.SetZoom, ctx: Context[None]) -> Result:
    viewer = viewer_of(ctx)

    def change() -> None:
        camera(viewer).zoom = command.zoom

    return _camera_change(viewer, change, f"zoom set to {command.zoom:g}.")


@HANDLERS.on(cmd.ZoomBy)
def zoom_by(command: cmd.ZoomBy, ctx: Context[None]) -> Result:
    viewer = viewer_of(ctx)
    cam = camera(viewer)
    target = cam.zoom * command.factor

    def change() -> None:
        cam.zoom = target

    return _camera_change(viewer, change, f"zoomed {'in' if command.factor > 1 else 'out'} to {target:.3g}.")


@HANDLERS.on(cmd.FitToLayer)
def fit_to_layer(command: cmd.FitToLayer, ctx: Context[None]) -> Result:
    viewer = viewer_of(ctx)
    layer = find_layer(viewer, command.name)

    def change() -> None:
        extent = layer.extent
        offset = viewer.dims.ndim - layer.ndim  # napari lines a layer's axes up with the last world axes
        displayed = [axis - offset for axis in viewer.dims.displayed if axis >= offset]
        lows, highs = extent.world[0][displayed], extent.world[1][displayed]
        if hasattr(layer, "contrast_limits") or _layer_kind(layer) == "labels":
            half = extent.step[displayed] / 2  # image extents are pixel centres
            lows, highs = lows - half, highs + half
        if viewer.dims.ndisplay == 3 and hasattr(viewer, "fit_to_view"):
            viewer.fit_to_view(layers=[layer])
            return
        _frame(viewer, (lows[-2], highs[-2]), (lows[-1], highs[-1]))

    return _camera_change(viewer, change, f"framed {layer.name}.")


@HANDLERS.on(cmd.ResetView)
def reset_view(command: cmd.ResetView, ctx: Context[None]) -> Result:
    viewer = viewer_of(ctx)
    return _camera_change(viewer, viewer.reset_view, "view reset to fit all layers.")


# -- layers --------------------------------------------------------------------------------------


@HANDLERS.on(cmd.ListLayers)
def list_layers(command: cmd.ListLayers, ctx: Context[None]) -> Result:
    layers = list(viewer_of(ctx).layers)[::-1]
    data = [
        {"name": shown_name(layer.name), "type": _layer_kind(layer), "visible": bool(layer.visible)}
        for layer in layers
    ]
    if not layers:
        return Result.success("there are no layers.", data)
    listing = "; ".join(_layer_summary(layer) for layer in layers)
    return Result.success(f"{len(layers)} layers, top first: {listing}.", data)


def _setter(layer: Layer, attribute: str, value: Any) -> Changes:
    with Changes() as changes:
        set_attributes(layer, changes, **{attribute: value})
    return changes


def image_layer(viewer: Viewer, name: str, what: str) -> ImageLayer:
    layer = find_layer(viewer, name)
    if not hasattr(layer, "contrast_limits"):
        raise CommandError(f"{layer.name} is a {_layer_kind(layer)} layer; {what} applies to image layers.")
    return cast("ImageLayer", layer)


@HANDLERS.on(cmd.LayerOpacity)
def layer_opacity(command: cmd.LayerOpacity, ctx: Context[None]) -> Result:
    layer = find_layer(viewer_of(ctx), command.name)
    undo = _setter(layer, "opacity", command.opacity)
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
    undo = _setter(layer, "colormap", name)
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
    undo = _setter(layer, "name", command.new_name)
    note = "" if layer.name == command.new_name else f" ({command.new_name!r} was taken)"
    return Result.success(f"{old} renamed to {layer.name}{note}.", undo=undo)


# -- dims ----------------------------------------------------------------------------------------


@HANDLERS.on(cmd.SetNdisplay)
def set_ndisplay(command: cmd.SetNdisplay, ctx: Context[None]) -> Result:
    viewer = viewer_of(ctx)
    camera_before = camera_state(viewer)
    with Changes() as changes:
        changes.add(lambda: restore_camera(viewer, camera_before))
        set_attributes(viewer.dims, changes, ndisplay=command.ndisplay)
    return Result.success(f"showing {command.ndisplay}-D.", undo=changes)


_CONVENTIONAL_AXES = {
    "z": lambda ndim: ndim - 3,
    "depth": lambda ndim: ndim - 3,
    "t": lambda ndim: 0,
    "time": lambda ndim: 0,
}
"""Axes people name by convention when the data's axes carry no such labels: (t,) z, y, x."""


def _slider_axis(viewer: Viewer, axis: int | str | None) -> int:
    dims = viewer.dims
    sliders = list(dims.not_displayed)
    labels = [str(label) for label in dims.axis_labels]
    if axis is None:
        if not sliders:
            raise CommandError("there is no slider: every axis of the data is displayed.")
        return sliders[0]
    if isinstance(axis, int) or str(axis).lstrip("-").isdigit():
        index = int(axis)
        if not -dims.ndim <= index < dims.ndim:
            raise CommandError(f"no axis {index}; the data has {dims.ndim} axes.")
        return index % dims.ndim
    match = resolve_name(str(axis), labels)
    if match.found is not None:
        return labels.index(match.found)
    conventional = _CONVENTIONAL_AXES.get(str(axis).casefold())
    if conventional is not None and dims.ndim >= 3:
        return conventional(dims.ndim)
    raise CommandError(describe_miss(match, "axis", labels))


@HANDLERS.on(cmd.SetSlice)
def set_slice(command: cmd.SetSlice, ctx: Context[None]) -> Result:
    viewer = viewer_of(ctx)
    axis = _slider_axis(viewer, command.axis)
    steps = int(viewer.dims.nsteps[axis])
    index = command.index if command.index is not None else _SLIDER_PLACES[command.position or "first"](steps)
    if index >= steps:
        raise CommandError(f"slice {index} is out of range; axis {axis} has 0–{steps - 1}.")
    before = tuple(viewer.dims.current_step)
    with Changes() as changes:
        viewer.dims.set_current_step(axis, index)
        changes.add(functools.partial(setattr, viewer.dims, "current_step", before))
    label = viewer.dims.axis_labels[axis]
    return Result.success(f"axis {label} at slice {index} (of 0–{steps - 1}).", undo=changes)


_SLIDER_PLACES: dict[str, Callable[[int], int]] = {
    "first": lambda steps: 0,
    "middle": lambda steps: (steps - 1) // 2,
    "last": lambda steps: steps - 1,
}


# -- overlays and output -------------------------------------------------------------------------


def _switch(model: Any, attribute: str, op: str, on_words: tuple[str, str]) -> tuple[bool, Changes]:
    before = bool(getattr(model, attribute))
    after = {"on": True, "show": True, "off": False, "hide": False}.get(op, not before)
    with Changes() as changes:
        set_attributes(model, changes, **{attribute: after})
    return after, changes


@HANDLERS.on(cmd.GridMode)
def grid_mode(command: cmd.GridMode, ctx: Context[None]) -> Result:
    enabled, undo = _switch(grid(viewer_of(ctx)), "enabled", command.op, ("on", "off"))
    return Result.success(f"grid {'on' if enabled else 'off'}.", undo=undo)


@HANDLERS.on(cmd.ScaleBar)
def scale_bar_(command: cmd.ScaleBar, ctx: Context[None]) -> Result:
    visible, undo = _switch(scale_bar(viewer_of(ctx)), "visible", command.op, ("show", "hide"))
    return Result.success(f"scale bar {'shown' if visible else 'hidden'}.", undo=undo)


SCREENSHOT_FORMATS = (".png", ".jpg", ".jpeg", ".tif", ".tiff", ".bmp")
UNDO_KEEP_BYTES = 64 * 1024 * 1024
"""A screenshot over an existing file keeps the old bytes for undo up to this size."""


def screenshot_path(command: cmd.Screenshot) -> str:
    relative = command.path or time.strftime("screenshots/screenshot-%Y%m%d-%H%M%S.png")
    return relative if relative.lower().endswith(SCREENSHOT_FORMATS) else relative + ".png"


@HANDLERS.on(cmd.Screenshot)
def screenshot(command: cmd.Screenshot, ctx: Context[None]) -> Job:
    """The canvas is grabbed on the GUI thread; encoding it (a tenth of a second for a PNG of the
    canvas) runs off it, and the file is written when that is done."""
    viewer = viewer_of(ctx)
    if not hasattr(viewer, "screenshot"):
        raise CommandError("a screenshot needs napari's canvas, and this viewer has no window (no display)")
    relative = screenshot_path(command)
    workspace = ctx.workspace
    before = workspace.read_bytes(relative, limit=UNDO_KEEP_BYTES) if workspace.exists(relative) else None
    image = viewer.screenshot(canvas_only=True)
    height, width = image.shape[:2]

    def encode(_: Progress) -> bytes:
        from imageio.v3 import imwrite

        return imwrite("<bytes>", image, extension="." + relative.rsplit(".", 1)[-1].lower())

    def finish(encoded: bytes) -> Result:
        ctx.consent.require(workspace.replacing(relative))  # the file may have changed while encoding
        workspace.write_bytes(relative, encoded)
        ours = workspace.written(relative, encoded)
        path = str(workspace.resolve(relative))

        def undo() -> str:  # refused when the picture changed since: the person's version is kept
            workspace.take_back(ours, before)
            return f"the earlier {path} is back" if before is not None else f"{path} deleted"

        changes = Changes()
        changes.add(undo, size=len(before or b""))
        replaced = " (the earlier file is kept for undo)" if before is not None else ""
        return Result.success(
            f"screenshot saved to {path} ({width}×{height}){replaced}.",
            {"path": path, "width": int(width), "height": int(height)},
            undo=changes,
        )

    return Job(f"saving {relative}", encode, finish)


def known_names(ctx: Context[None]) -> dict[str, list[str]]:
    viewer = ctx.viewer
    if viewer is None:
        return {}
    names = {"layers": [layer.name for layer in viewer.layers]}
    if ctx.window is not None:  # without a window the grammar's default panel names stay
        names["panels"] = list(panels_of(ctx.window))
    return names


def describe_context(ctx: Context[None]) -> list[str]:
    viewer = ctx.viewer
    if viewer is None:
        return []
    layers = list(viewer.layers)[::-1]
    lines = ["Layers, top first: " + (", ".join(layer_facts(layer) for layer in layers) or "none")]
    active = viewer.layers.selection.active
    if active is not None:
        lines.append(f"Selected layer: {active.name}")
    if ctx.window is not None:
        lines.append("Panels: " + ", ".join(panels_of(ctx.window)))
    dims = viewer.dims
    sliders = [
        f"{dims.axis_labels[axis]} (0-{int(dims.nsteps[axis]) - 1}, at {dims.current_step[axis]})"
        for axis in dims.not_displayed
    ]
    lines.append(f"Display: {dims.ndisplay}-D" + (f"; sliders: {', '.join(sliders)}" if sliders else ""))
    lines.append(camera_facts(viewer))
    return lines
