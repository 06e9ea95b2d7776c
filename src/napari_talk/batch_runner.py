"""``napari-talk run --recipe R``: a recorded recipe replayed, on one viewer or on many inputs.

Without ``--each`` or ``--sweep`` the recipe runs like ``--script`` on the viewer (its placeholders
bound to the sample's layers); with them, each input (and each sweep value) is a row of a batch run
on Dask (:mod:`napari_talk.core.recipes.batch`), with a results table in the workspace.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from .exit_codes import EXIT_FAILED, EXIT_OK

if TYPE_CHECKING:
    from .core.safety.risk import Approval

SCHEDULER_ENV = "NAPARI_TALK_SCHEDULER"
"""The default for ``--scheduler``: an existing cluster's address, ``local`` or ``in-process``."""


class RecipeUsageError(ValueError):
    """Wrong recipe arguments: the CLI says the sentence and exits with its usage status."""


def run_recipe_command(args: argparse.Namespace, ask: Callable[[Approval], bool] | None) -> int:
    from .core.recipes.recipe import parse_recipe
    from .core.safety.workspace import Workspace, default_workspace

    workspace = Workspace(default_workspace())
    name, text = _recipe_text(workspace, args.recipe)
    if not (args.each or args.sweep):
        from .runner import run_lines

        lines = [step.line for step in parse_recipe(text, name).steps]
        return run_lines(lines, sample=args.sample, screenshot=args.screenshot, ask=ask, bind_layers=True)
    return _batch(args, workspace, name, text)


def run_for_line(args: argparse.Namespace, line: str) -> int | None:
    """``for NAME from A to B step C: line; line`` typed to ``run``: a sweep of those lines, one row
    per value, as ``--sweep`` gives (None: the line is not such a sweep)."""
    from .core.recipes.sweep import SweepError, parse_for_line
    from .core.safety.workspace import Workspace, default_workspace

    try:
        found = parse_for_line(line)
    except SweepError as exc:
        raise RecipeUsageError(str(exc)) from exc
    if found is None:
        return None
    sweep, lines = found
    args.sweep = [f"{sweep.name}={','.join(sweep.values)}"]
    return _batch(args, Workspace(default_workspace()), f"for-{sweep.name}", "\n".join(lines) + "\n")


def _recipe_text(workspace, recipe: str) -> tuple[str, str]:
    """A recipe by its name in the workspace (recipes/NAME.recipe), or a file of lines by its path."""
    from .core.recipes.recipe import check_name, recipe_path

    given = Path(recipe).expanduser()
    if given.suffix in (".recipe", ".txt") and given.is_file():
        try:
            return given.stem, given.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise RecipeUsageError(f"cannot read the recipe {given}: {exc}") from exc
    try:
        relative = recipe_path(recipe)
    except ValueError as exc:
        raise RecipeUsageError(str(exc)) from exc
    if not workspace.exists(relative):
        raise RecipeUsageError(
            f"there is no recipe {recipe!r}: neither a file here nor {workspace.resolve(relative)} "
            "(record one by typing 'save what I did as a recipe NAME')"
        )
    return check_name(recipe), workspace.read_text(relative, limit=1 << 20, what="recipes")


def _batch(args: argparse.Namespace, workspace, name: str, text: str) -> int:
    from .core.recipes.batch import LOCAL, BatchRefused, inputs_matching, run_batch
    from .core.recipes.item import Item, Options
    from .core.recipes.sweep import SweepError, combinations, parse_spec
    from .progress_line import ProgressLine

    try:
        combos = combinations([parse_spec(spec) for spec in args.sweep or []])
    except SweepError as exc:
        raise RecipeUsageError(str(exc)) from exc
    try:
        inputs = inputs_matching(workspace, args.each) if args.each else [""]
    except BatchRefused as exc:
        raise RecipeUsageError(str(exc)) from exc
    if args.each and not inputs:
        raise RecipeUsageError(f"{args.each!r} matches no file in the workspace {workspace.root}")
    sample = "" if args.each else (args.sample or "")
    items = [Item(input=path, sample=sample, values=combo) for path in inputs for combo in combos]
    options = Options(workspace=str(workspace.root), out_folder=f"batches/{name}", yes=args.yes)
    scheduler = args.scheduler or os.environ.get(SCHEDULER_ENV) or LOCAL
    line = ProgressLine(f"recipe {name}", unit="inputs")
    try:
        batch = run_batch(
            text, items, options, scheduler=scheduler, workers=args.workers,
            on_row=lambda _row, done, total: line.count(done, total),
        )  # fmt: skip
    except BatchRefused as exc:
        raise RecipeUsageError(str(exc)) from exc
    finally:
        line.close()
    for row in batch.failed:
        print(f"✗ {row.key}: {row.error}", flush=True)
    kept = f", {batch.skipped} kept from an earlier run" if batch.skipped else ""
    print(
        f"{len(batch.rows) - len(batch.failed)} of {len(batch.rows)} rows ok{kept}; "
        f"table: {workspace.resolve(batch.table)}",
        flush=True,
    )
    return EXIT_FAILED if batch.failed else EXIT_OK
