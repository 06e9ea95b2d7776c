"""The window around the canvas and what is drawn over it: panels opened and closed, the grid
and the scale bar switched."""

from __future__ import annotations

from typing import Any

from ....core.basics.result import CommandError, Result
from ....core.basics.window import panels_of
from ....core.contract.pack import Context
from ....core.rules.names import describe_miss, resolve_name
from ....core.running.history import Changes
from ....core.viewer.access import grid, scale_bar
from ....core.viewer.layers import set_attributes
from .. import commands as cmd
from .common import HANDLERS, viewer_of


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
