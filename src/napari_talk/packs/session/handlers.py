"""Handlers of the session pack."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...core.contract.pack import Context, Handlers
from ...core.contract.result import Result
from ...core.help.topics import render_help
from ...core.recipes.recipe import recipe_path, record
from ...core.running.history import Changes
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


@HANDLERS.on(cmd.SaveRecipe)
def save_recipe(command: cmd.SaveRecipe, ctx: Context[SessionControls]) -> Result:
    session = ctx.state
    kept = session.recipe_log.kept()
    if not kept:
        return Result.error(
            "there is nothing to save yet: no command has run in this session (undone ones don't count)"
        )
    try:
        relative = recipe_path(command.name)
    except ValueError as exc:
        return Result.error(str(exc))
    names = session.known_names()
    recipe = record(command.name, kept, session.recipe_log.inputs, session.registry, session.parser, names)
    workspace = ctx.workspace
    ctx.consent.require(workspace.replacing(relative))
    before = workspace.read_bytes(relative, limit=1 << 20) if workspace.exists(relative) else None
    text = recipe.render()
    workspace.write_text(relative, text)
    ours = workspace.written(relative, text.encode())
    path = workspace.resolve(relative)

    def undo() -> str:
        workspace.take_back(ours, before)
        return f"the earlier {path} is back" if before is not None else f"{path} deleted"

    changes = Changes()
    changes.add(undo, size=len(before or b""))
    needs = recipe.layers_needed
    binds = f"; it works on an input's first {needs} layer(s)" if needs else ""
    return Result.success(
        f"saved {len(recipe.steps)} command(s) as the recipe {recipe.name!r} in {path}{binds}. "
        f"Replay it with: napari-talk run --recipe {recipe.name} --each 'data/*.tif'",
        {"path": str(path), "lines": [step.line for step in recipe.steps]},
        undo=changes,
    )
