"""Handlers of the session pack."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ...core.basics.jobs import Job, Progress
from ...core.basics.result import Result
from ...core.contract.pack import Context, Handlers
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


@HANDLERS.on(cmd.RunRecipe)
def run_recipe(command: cmd.RunRecipe, ctx: Context[SessionControls]) -> Job | Result:
    """The batch runs off the GUI thread; its progress is the job's, and Stop ends it after the rows
    under way. Lines that remove or replace data run only once the person agreed, in the workspace."""
    import os

    from ...core.recipes.batch import LOCAL, BatchRefused, check_risks, inputs_matching
    from ...core.recipes.item import Item, Options
    from ...core.recipes.recipe import check_name, parse_recipe
    from ...core.safety.risk import Effect

    workspace = ctx.workspace
    try:
        relative = recipe_path(command.name)
    except ValueError as exc:
        return Result.error(str(exc))
    if not workspace.exists(relative):
        return Result.error(f"there is no recipe {command.name!r} in {workspace.resolve('recipes')}")
    text = workspace.read_text(relative, limit=1 << 20, what="recipes")
    name = check_name(command.name)
    try:
        inputs = inputs_matching(workspace, command.inputs)
        check_risks(parse_recipe(text), ctx.state.registry, yes=False)
        agreed = False
    except BatchRefused as exc:
        if "--yes" not in str(exc):
            return Result.error(str(exc))
        ctx.consent.require(Effect.replace(f"the files recipe {name}'s lines write or replace", named=False))
        agreed = True
    if not inputs:
        return Result.error(f"{command.inputs} holds no image in the workspace")
    options = Options(workspace=str(workspace.root), out_folder=f"batches/{name}", yes=agreed)
    scheduler = os.environ.get("NAPARI_TALK_SCHEDULER") or LOCAL

    work = _batch_work(text, [Item(input=path) for path in inputs], options, scheduler, "", "inputs")

    def finish(batch: object) -> Result:
        from ...core.recipes.batch import Batch

        assert isinstance(batch, Batch)
        failed = "".join(f"\n✗ {row.key}: {row.error}" for row in batch.failed)
        ok = len(batch.rows) - len(batch.failed)
        kept = f", {batch.skipped} kept from an earlier run" if batch.skipped else ""
        summary = (
            f"recipe {name}: {ok} of {len(inputs)} inputs ok{kept}; table: {workspace.resolve(batch.table)}"
        )
        return Result.success(
            summary + failed, {"table": batch.table, "rows": [r.as_dict() for r in batch.rows]}
        )

    return Job(f"recipe {name} on {len(inputs)} inputs", work, finish)


SWEEP_REPLY_CHARS = 120
"""A value's reply in the dock's table: the first line of the last line's reply, cut to this."""


@HANDLERS.on(cmd.RunSweep)
def run_sweep(command: cmd.RunSweep, ctx: Context[SessionControls]) -> Job | Result:
    """``for NAME from A to B step C: line; line``: each value a row of a batch (off the GUI thread,
    Stop ends it after the rows under way), each row starting from a copy of the viewer's layers, so
    the person's own layers are left as they are; the reply is the table, one row per value."""
    import os

    from ...core.recipes.batch import LOCAL, BatchRefused, check_risks
    from ...core.recipes.item import Item, Options
    from ...core.recipes.recipe import parse_recipe
    from ...core.recipes.sweep import SweepError, steps
    from ...core.safety.risk import Effect

    name = command.name
    try:
        values = steps(_decimal(command.start), _decimal(command.stop), _decimal(command.step))
    except SweepError as exc:
        return Result.error(str(exc))
    text = "\n".join(command.lines) + "\n"
    try:
        check_risks(parse_recipe(text), ctx.state.registry, yes=False)
        agreed = False
    except BatchRefused as exc:
        if "--yes" not in str(exc):
            return Result.error(str(exc))
        ctx.consent.require(
            Effect.replace(f"the files the sweep of {name}'s lines write or replace", named=False)
        )
        agreed = True
    layers = list(ctx.viewer.layers) if ctx.viewer is not None else []
    start = tuple(layer.as_layer_data_tuple() for layer in layers)  # type: ignore[attr-defined]
    options = Options(
        workspace=str(ctx.workspace.root), out_folder=f"batches/for-{name}", yes=agreed, layers=start
    )
    scheduler = os.environ.get("NAPARI_TALK_SCHEDULER") or LOCAL
    items = [Item(values=((name, value),)) for value in values]
    label = f"for {name} from {values[0]} to {values[-1]} ({len(values)} values)"

    work = _batch_work(text, items, options, scheduler, f"{name}: ", "values")

    def finish(batch: object) -> Result:
        from ...core.recipes.batch import Batch

        assert isinstance(batch, Batch)
        ok = len(batch.rows) - len(batch.failed)
        rows = [[row.key.split("=", 1)[-1], row.status, _gist(row)] for row in batch.rows]
        summary = f"{label}: {ok} of {len(values)} ok; table: {ctx.workspace.resolve(batch.table)}"
        table = {"columns": [name, "status", "reply"], "rows": rows}
        return Result.success(
            summary, {"table": batch.table, "rows": [r.as_dict() for r in batch.rows]}, table=table
        )

    return Job(label, work, finish)


def _decimal(value: float) -> str:
    """A typed number as it was typed (1.45, not 1.4500000000000002): floats print their shortest form."""
    return repr(float(value))


def _gist(row: object) -> str:
    from ...core.recipes.item import Row

    assert isinstance(row, Row)
    said = row.error if row.status != "ok" else (row.replies[-1] if row.replies else "")
    first = said.splitlines()[0] if said else ""
    return first if len(first) <= SWEEP_REPLY_CHARS else first[: SWEEP_REPLY_CHARS - 1] + "…"


def _batch_work(
    text: str, items: list[Any], options: Any, scheduler: str, prefix: str, unit: str
) -> Callable[[Progress], object]:
    """A batch's rows run as a job's work on the dock's kept cluster, its progress said in ``unit``
    ("3 of 20 inputs", "index: 3 of 20 values")."""

    def work(progress: Progress) -> object:
        from ...core.recipes.batch import run_batch

        def on_row(_row: object, done: int, total: int) -> None:
            progress.report(f"{prefix}{done} of {total} {unit}", done / total)

        progress.report(f"{prefix}starting {len(items)} {unit} on {scheduler}", 0.0)
        return run_batch(
            text,
            items,
            options,
            scheduler=scheduler,
            on_row=on_row,
            stop=lambda: progress.cancelled,
            keep_cluster=True,
        )

    return work
