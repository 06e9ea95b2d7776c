"""Commands of the session itself: help, and the one undo history every pack shares."""

from __future__ import annotations

from typing import ClassVar

from pydantic import Field

from ...core.contract.commands import Command, Risk


class Help(Command, action="help"):
    """Say what can be typed, with examples."""

    risk: ClassVar[Risk] = "read"
    topic: str | None = Field(default=None, description="A subject to narrow it to (zoom, layers, ...).")
    examples: ClassVar = ("help", "help zoom")


class UndoLastAction(Command, action="undo_last_action"):
    """Undo the last change, whichever pack made it."""

    examples: ClassVar = ("undo",)


class RedoLastAction(Command, action="redo_last_action"):
    """Redo the last undone change."""

    examples: ClassVar = ("redo",)


class SaveRecipe(Command, action="save_recipe"):
    """Save the commands that succeeded in this session, in order and undone ones left out, as a
    recipe in the workspace (recipes/NAME.recipe), to replay on other inputs."""

    name: str = Field(min_length=1, max_length=80, description="The recipe's name.")
    examples: ClassVar = ("save what I did as a recipe contrast", "save this as recipe gfp-figure")


class RunRecipe(Command, action="run_recipe"):
    """Run a saved recipe on every image in a workspace folder (or matching a pattern), each in its
    own viewer model, on Dask; a results table goes to batches/NAME/results.csv."""

    name: str = Field(min_length=1, max_length=80, description="The recipe's name.")
    inputs: str = Field(
        min_length=1, max_length=400, description="A workspace folder (its images) or a pattern: data/*.tif."
    )
    examples: ClassVar = ("run recipe contrast on every file in data/", "run the recipe look on data/*.tif")


COMMANDS: tuple[type[Command], ...] = (Help, UndoLastAction, RedoLastAction, SaveRecipe, RunRecipe)
