"""Handlers of the viewer pack: each runs one command on a napari viewer and returns a Result.

Commands speak world ``[x, y]``; napari speaks (row, col) = (y, x). Every handler that changes
the viewer hands back the function that undoes it.
"""

from __future__ import annotations

import contextlib
import difflib
import time
from typing import Any

from ...core.commands import shown_name
from ...core.grammar.names import describe_miss, resolve_name
from ...core.history import Changes
from ...core.jobs import Job, Progress
from ...core.layers import has_layer
from ...core.pack import Context, Handlers
from ...core.result import CommandError, Result
from . import commands as cmd
from ...core.viewer import (
    camera,
    camera_state,
    canvas_size,
    find_layer,
    grid,
    restore_camera,
    scale_bar,
    set_center,
)
from .panels import is_open, panels

HANDLERS = Handlers[None]()


FRAME_MARGIN = 0.05
"""The share of the canvas left around framed data, as napari's own fit_to_view leaves."""


def viewer_of(ctx: Context[None]) -> Any:
    if ctx.viewer is None:
        raise CommandError("no viewer is attached to this session")
    return ctx.viewer


def _camera_change(viewer: Any, change, message: str) -> Result:
    before = camera_state(viewer)
    change()
    return Result.success(message, _camera_data(viewer), undo=lambda: restore_camera(viewer, before))


def _camera_data(viewer: Any) -> dict[str, Any]:
    cam = camera(viewer)
    center = tuple(cam.center)
    return {"center_xy": [center[-1], center[-2]], "zoom": cam.zoom}


def _frame(viewer: Any, rows: tuple[float, float], cols: tuple[float, float]) -> None:
    """Centre on a world rectangle and zoom so it fills the canvas less the margin."""
    height, width = canvas_size(viewer)
    box_h, box_w = abs(rows[1] - rows[0]), abs(cols[1] - cols[0])
    fits = [size / extent for size, extent in ((height, box_h), (width, box_w)) if extent > 0]
    set_center(viewer, sum(rows) / 2, sum(cols) / 2)
    if fits:
        camera(viewer).zoom = (1 - FRAME_MARGIN) * min(fits)


def _layer_kind(layer: Any) -> str:
    return layer.__class__.__name__.lower()


def _layer_summary(layer: Any) -> str:
    return f"{shown_name(layer.name)} ({_layer_kind(layer)}, {'visible' if layer.visible else 'hidden'})"


# -- visibility ----------------------------------------------------------------------------------


def _set_visible(layers: list[Any], visible: list[bool]) -> Any:
    """All or nothing: a layer that refuses puts back those already changed."""
    with Changes() as changes:
        for layer, value in zip(layers, visible, strict=True):
            changes.add(_setter(layer, "visible", value))
    return changes.undo


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
    found = panels(viewer_of(ctx), ctx.window)
    match = resolve_name(command.name, found)
    if match.found is None:
        raise CommandError(describe_miss(match, "panel", found))
    dock = found[match.found]
    was_open, opening = is_open(dock), command.op == "open"
    dock.setVisible(opening)
    if was_open == opening:
        return Result.success(f"the {match.found} panel is already {'open' if opening else 'closed'}.")
    verb = "opened" if opening else "closed"
    return Result.success(f"{match.found} {verb}.", undo=lambda: dock.setVisible(was_open))


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


def _setter(layer: Any, attribute: str, value: Any) -> Any:
    before = getattr(layer, attribute)
    setattr(layer, attribute, value)
    return lambda: setattr(layer, attribute, before)


def image_layer(viewer: Any, name: str, what: str) -> Any:
    layer = find_layer(viewer, name)
    if not hasattr(layer, "contrast_limits"):
        raise CommandError(f"{layer.name} is a {_layer_kind(layer)} layer; {what} applies to image layers.")
    return layer


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
    before = tuple(layer.contrast_limits)
    if low < before_range[0] or high > before_range[1]:
        layer.contrast_limits_range = (min(low, before_range[0]), max(high, before_range[1]))
    layer.contrast_limits = (low, high)

    def undo() -> None:
        layer.contrast_limits_range = before_range
        layer.contrast_limits = before

    return Result.success(f"{layer.name} contrast {low:g}–{high:g}.", undo=undo)


@HANDLERS.on(cmd.AutoContrast)
def auto_contrast(command: cmd.AutoContrast, ctx: Context[None]) -> Result:
    layer = image_layer(viewer_of(ctx), command.name, "contrast")
    before = tuple(layer.contrast_limits)
    layer.reset_contrast_limits()
    low, high = layer.contrast_limits
    return Result.success(
        f"{layer.name} contrast set from its data: {low:.4g}–{high:.4g}.",
        {"limits": [float(low), float(high)]},
        undo=lambda: setattr(layer, "contrast_limits", before),
    )


@HANDLERS.on(cmd.SelectLayer)
def select_layer(command: cmd.SelectLayer, ctx: Context[None]) -> Result:
    viewer = viewer_of(ctx)
    layer = find_layer(viewer, command.name)
    selection = viewer.layers.selection
    before_selected, before_active = set(selection), selection.active
    selection.active = layer

    def undo() -> None:
        selection.clear()
        selection.update(layer for layer in before_selected if has_layer(viewer.layers, layer))
        if before_active is not None and has_layer(viewer.layers, before_active):
            selection.active = before_active

    return Result.success(f"{layer.name} is the active layer.", undo=undo)


@HANDLERS.on(cmd.RemoveLayer)
def remove_layer(command: cmd.RemoveLayer, ctx: Context[None]) -> Result:
    viewer = viewer_of(ctx)
    layer = find_layer(viewer, command.name)
    index = list(viewer.layers).index(layer)
    selection = viewer.layers.selection
    before_selected, before_active = set(selection), selection.active
    viewer.layers.remove(layer)

    def undo() -> None:
        viewer.layers.insert(min(index, len(viewer.layers)), layer)
        selection.clear()  # napari selects a layer put back: the selection goes back to before
        selection.update(kept for kept in before_selected if has_layer(viewer.layers, kept))
        if before_active is not None and has_layer(viewer.layers, before_active):
            selection.active = before_active

    return Result.success(f"{layer.name} removed (undo brings it back).", undo=undo)


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
    before, camera_before = viewer.dims.ndisplay, camera_state(viewer)
    viewer.dims.ndisplay = command.ndisplay

    def undo() -> None:
        viewer.dims.ndisplay = before
        restore_camera(viewer, camera_before)

    return Result.success(f"showing {command.ndisplay}-D.", undo=undo)


_CONVENTIONAL_AXES = {
    "z": lambda ndim: ndim - 3,
    "depth": lambda ndim: ndim - 3,
    "t": lambda ndim: 0,
    "time": lambda ndim: 0,
}
"""Axes people name by convention when the data's axes carry no such labels: (t,) z, y, x."""


def _slider_axis(viewer: Any, axis: int | str | None) -> int:
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
    if command.index >= steps:
        raise CommandError(f"slice {command.index} is out of range; axis {axis} has 0–{steps - 1}.")
    before = tuple(viewer.dims.current_step)
    viewer.dims.set_current_step(axis, command.index)
    label = viewer.dims.axis_labels[axis]
    return Result.success(
        f"axis {label} at slice {command.index}.",
        undo=lambda: setattr(viewer.dims, "current_step", before),
    )


# -- overlays and output -------------------------------------------------------------------------


def _switch(model: Any, attribute: str, op: str, on_words: tuple[str, str]) -> tuple[bool, Any]:
    before = bool(getattr(model, attribute))
    after = {"on": True, "show": True, "off": False, "hide": False}.get(op, not before)
    setattr(model, attribute, after)
    return after, lambda: setattr(model, attribute, before)


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
    relative = screenshot_path(command)
    workspace = ctx.workspace
    before = workspace.read_bytes(relative, limit=UNDO_KEEP_BYTES) if workspace.exists(relative) else None
    image = viewer.screenshot(canvas_only=True)
    height, width = image.shape[:2]

    def encode(_: Progress) -> bytes:
        from imageio.v3 import imwrite

        return imwrite("<bytes>", image, extension="." + relative.rsplit(".", 1)[-1].lower())

    def finish(encoded: bytes) -> Result:
        workspace.write_bytes(relative, encoded)
        ours = workspace.written(relative, encoded)

        def undo() -> None:  # refused when the picture changed since: the person's version is kept
            workspace.take_back(ours, before)

        replaced = " (the earlier file is kept for undo)" if before is not None else ""
        return Result.success(
            f"screenshot saved to {relative} ({width}×{height}){replaced}.",
            {"path": str(workspace.resolve(relative)), "width": int(width), "height": int(height)},
            undo=undo,
        )

    return Job(f"saving {relative}", encode, finish)


def known_names(ctx: Context[None]) -> dict[str, list[str]]:
    viewer = ctx.viewer
    if viewer is None:
        return {}
    names = {"layers": [layer.name for layer in viewer.layers]}
    with contextlib.suppress(ImportError):  # without Qt the grammar's default panel names stay
        names["panels"] = list(panels(viewer, ctx.window))
    return names


def describe_context(ctx: Context[None]) -> list[str]:
    viewer = ctx.viewer
    if viewer is None:
        return []
    layers = list(viewer.layers)[::-1]
    listed = [f"{layer.name} ({_layer_kind(layer)}{'' if layer.visible else ', hidden'})" for layer in layers]
    lines = ["Layers, top first: " + (", ".join(listed) or "none")]
    active = viewer.layers.selection.active
    if active is not None:
        lines.append(f"Selected layer: {active.name}")
    with contextlib.suppress(ImportError):
        lines.append("Panels: " + ", ".join(panels(viewer, ctx.window)))
    dims = viewer.dims
    sliders = [
        f"{dims.axis_labels[axis]} (0-{int(dims.nsteps[axis]) - 1}, at {dims.current_step[axis]})"
        for axis in dims.not_displayed
    ]
    lines.append(f"Display: {dims.ndisplay}-D" + (f"; sliders: {', '.join(sliders)}" if sliders else ""))
    return lines
