"""Camera handlers: zoom (to a value, by a factor, to a box), centre on a point, frame a layer,
reset the view. Each puts the camera back whole on undo."""

from __future__ import annotations

from typing import Any

from ....core.basics.result import Result
from ....core.basics.viewer_protocols import Viewer
from ....core.contract.pack import Context
from ....core.running.history import Changes
from ....core.viewer.access import (
    camera,
    camera_state,
    canvas_size,
    find_layer,
    restore_camera,
    set_center,
)
from .. import commands as cmd
from .common import HANDLERS, layer_kind, viewer_of

FRAME_MARGIN = 0.05
"""The share of the canvas left around framed data, as napari's own fit_to_view leaves."""


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
        if hasattr(layer, "contrast_limits") or layer_kind(layer) == "labels":
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
