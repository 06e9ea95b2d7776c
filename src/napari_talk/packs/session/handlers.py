"""Handlers of the session pack."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...core.help import render_help
from ...core.pack import Context, Handlers
from ...core.result import Result
from . import commands as cmd

if TYPE_CHECKING:
    from . import SessionControls

HANDLERS = Handlers["SessionControls"]()


@HANDLERS.on(cmd.Help)
def help_(command: cmd.Help, ctx: Context[SessionControls]) -> Result:
    return Result.success(render_help(ctx.state.registry, command.topic, ctx.state.packs_in_play("")))


@HANDLERS.on(cmd.UndoLastAction)
def undo(command: cmd.UndoLastAction, ctx: Context[SessionControls]) -> Result:
    return ctx.state.undo(ctx.consent)


@HANDLERS.on(cmd.RedoLastAction)
def redo(command: cmd.RedoLastAction, ctx: Context[SessionControls]) -> Result:
    return ctx.state.redo(ctx.consent)
