"""Handlers of the session pack."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...core.contract.pack import Context, Handlers
from ...core.contract.result import Result
from ...core.help.topics import render_help
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
