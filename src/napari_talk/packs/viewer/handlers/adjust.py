"""Handlers of the relative viewer commands: pan, gamma, brightness, contrast, view side, rotation.

Each changes the viewer through public API and hands back its undo; the camera's state (centre,
zoom, angles, and the number of displayed dimensions) is put back whole.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ....core.basics.result import CommandError, Result
from ....core.basics.viewer_protocols import ImageLayer, Viewer
from ....core.contract.pack import Context
from ....core.running.history import Changes
from ....core.viewer.access import camera, camera_state, canvas_size, restore_camera
from ....core.viewer.layers import set_attributes
from .. import commands as cmd
from .common import HANDLERS, image_layer, viewer_of

SIDES = {
    # side: (view direction, up direction) in napari's (z, y, x) world order; the top view looks
    # down the z axis as the 2-D view does, so "up" in the side views is towards +z
    "top": ((-1.0, 0.0, 0.0), (0.0, -1.0, 0.0)),
    "bottom": ((1.0, 0.0, 0.0), (0.0, -1.0, 0.0)),
    "front": ((0.0, -1.0, 0.0), (1.0, 0.0, 0.0)),
    "back": ((0.0, 1.0, 0.0), (1.0, 0.0, 0.0)),
    "left": ((0.0, 0.0, 1.0), (1.0, 0.0, 0.0)),
    "right": ((0.0, 0.0, -1.0), (1.0, 0.0, 0.0)),
}


def _view_change(viewer: Viewer) -> Changes:
    """The undo of a camera move that may also switch the view to 3-D."""
    before, ndisplay = camera_state(viewer), viewer.dims.ndisplay

    def undo() -> None:
        viewer.dims.ndisplay = ndisplay
        restore_camera(viewer, before)

    changes = Changes()
    changes.add(undo)
    return changes


@HANDLERS.on(cmd.Pan)
def pan(command: cmd.Pan, ctx: Context[None]) -> Result:
    viewer = viewer_of(ctx)
    cam = camera(viewer)
    height, width = canvas_size(viewer)
    field_rows, field_cols = height / cam.zoom, width / cam.zoom
    vertical = next(iter(getattr(cam, "orientation2d", ("down", "right"))))
    rows_grow_up = getattr(vertical, "value", vertical) == "up"
    d_row, d_col = {
        "left": (0.0, -field_cols),
        "right": (0.0, field_cols),
        "up": (field_rows if rows_grow_up else -field_rows, 0.0),
        "down": (-field_rows if rows_grow_up else field_rows, 0.0),
    }[command.direction]
    undo = _view_change(viewer)
    *depth, row, col = tuple(cam.center)
    cam.center = (*depth, row + d_row * command.fraction, col + d_col * command.fraction)
    return Result.success(f"panned {command.direction} by {command.fraction:.0%} of the view.", undo=undo)


@HANDLERS.on(cmd.LayerGamma)
def layer_gamma(command: cmd.LayerGamma, ctx: Context[None]) -> Result:
    layer = image_layer(viewer_of(ctx), command.name, "gamma")
    before = layer.gamma
    with Changes() as changes:
        set_attributes(layer, changes, gamma=command.gamma)
    return Result.success(f"{layer.name} gamma set to {command.gamma:g} (was {before:g}).", undo=changes)


def _limits(layer: ImageLayer, low: float, high: float, what: str) -> tuple[tuple[float, ...], Changes]:
    before = tuple(layer.contrast_limits)
    if not (math.isfinite(low) and math.isfinite(high)) or high <= low:
        raise CommandError(f"{layer.name}: that would leave no contrast window ({what} too far)")
    range_low, range_high = tuple(layer.contrast_limits_range)
    with Changes() as changes:
        if high > range_high or low < range_low:  # let the window go beyond the data's range
            set_attributes(layer, changes, contrast_limits_range=(min(low, range_low), max(high, range_high)))
        set_attributes(layer, changes, contrast_limits=(low, high))
    return before, changes


@HANDLERS.on(cmd.AdjustBrightness)
def adjust_brightness(command: cmd.AdjustBrightness, ctx: Context[None]) -> Result:
    layer = image_layer(viewer_of(ctx), command.name, "brightness")
    low, high = (float(v) for v in layer.contrast_limits)
    before, undo = _limits(layer, low, high / command.factor, "brighter")
    word = "brighter" if command.factor > 1 else "dimmer"
    return Result.success(
        f"{layer.name} {word}: contrast limits {_pair(layer.contrast_limits)} (were {_pair(before)}).",
        undo=undo,
    )


@HANDLERS.on(cmd.AdjustContrast)
def adjust_contrast(command: cmd.AdjustContrast, ctx: Context[None]) -> Result:
    layer = image_layer(viewer_of(ctx), command.name, "contrast")
    low, high = (float(v) for v in layer.contrast_limits)
    centre, half = (low + high) / 2, (high - low) / 2 / command.factor
    before, undo = _limits(layer, centre - half, centre + half, "contrast")
    word = "more" if command.factor > 1 else "less"
    return Result.success(
        f"{layer.name}: {word} contrast, limits {_pair(layer.contrast_limits)} (were {_pair(before)}).",
        undo=undo,
    )


def _pair(limits: Any) -> str:
    low, high = (float(v) for v in limits)
    return f"{low:g}–{high:g}"


@HANDLERS.on(cmd.ViewFrom)
def view_from(command: cmd.ViewFrom, ctx: Context[None]) -> Result:
    viewer = viewer_of(ctx)
    undo = _view_change(viewer)
    viewer.dims.ndisplay = 3
    view, up = SIDES[command.side]
    camera(viewer).set_view_direction(view, up)
    return Result.success(f"viewing from the {command.side} (3-D).", undo=undo)


@HANDLERS.on(cmd.RotateView)
def rotate_view(command: cmd.RotateView, ctx: Context[None]) -> Result:
    """About the screen's vertical axis the eye circles the data; about the horizontal it tilts.
    napari turns only a 3-D view, so a 2-D view becomes 3-D first (and undo puts it back)."""
    viewer = viewer_of(ctx)
    undo = _view_change(viewer)
    switched = viewer.dims.ndisplay != 3
    viewer.dims.ndisplay = 3
    cam = camera(viewer)
    view, up = np.asarray(cam.view_direction, float), np.asarray(cam.up_direction, float)
    right = np.cross(view, up)
    axis = up if command.axis == "vertical" else right
    angle = math.radians(command.degrees)
    view, up = _turned(view, axis, angle), _turned(up, axis, angle)
    cam.set_view_direction(tuple(view), tuple(up))
    note = " (the view is 3-D now)" if switched else ""
    return Result.success(f"view turned {command.degrees:g}° about the {command.axis} axis{note}.", undo=undo)


def _turned(vector: np.ndarray, axis: np.ndarray, angle: float) -> np.ndarray:
    """``vector`` turned by ``angle`` about ``axis`` (Rodrigues' formula)."""
    k = axis / np.linalg.norm(axis)
    return (
        vector * math.cos(angle)
        + np.cross(k, vector) * math.sin(angle)
        + k * (k @ vector) * (1 - math.cos(angle))
    )
