"""Dimensions: 2-D or 3-D display, and which slice a slider shows (by index, place, or an axis
named by its label or by convention)."""

from __future__ import annotations

import functools
from collections.abc import Callable

from ....core.basics.result import CommandError, Result
from ....core.basics.viewer_protocols import Viewer
from ....core.contract.pack import Context
from ....core.rules.names import describe_miss, resolve_name
from ....core.running.history import Changes
from ....core.viewer.access import camera_state, restore_camera
from ....core.viewer.layers import set_attributes
from .. import commands as cmd
from .common import HANDLERS, viewer_of


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
