"""Commands of the session itself: help, and the one undo history every pack shares."""

from __future__ import annotations

from typing import ClassVar

from pydantic import Field, field_validator

from ...core.basics.commands import Command, Risk


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


class RunSweep(Command, action="run_sweep"):
    """Run lines once for each value of a parameter (a sweep), each run starting from the viewer's
    layers as they are now and leaving them as they are; a results table goes to
    batches/for-NAME/results.csv."""

    name: str = Field(
        pattern=r"^[A-Za-z_][A-Za-z0-9_]*$",
        max_length=40,
        description="The parameter, as {name} in the lines.",
    )
    start: float = Field(description="Its first value.")
    stop: float = Field(description="Its last value (included when the steps reach it).")
    step: float = Field(default=1.0, gt=0, description="How much each value adds.")
    lines: list[str] = Field(
        min_length=1,
        max_length=20,
        description="The lines run for each value, in order ({name} is the value).",
    )
    examples: ClassVar = (
        "for index from 1.4 to 1.7 step 0.05: set the index of Prism to {index}; detector readings",
    )

    @field_validator("lines", mode="before")
    @classmethod
    def _split(cls, value: object) -> object:
        """Typed, the lines are one text with ';' between them."""
        if isinstance(value, str):
            return [line.strip() for line in value.split(";") if line.strip()]
        return value


COMMANDS: tuple[type[Command], ...] = (
    Help, UndoLastAction, RedoLastAction, SaveRecipe, RunRecipe, RunSweep,
)  # fmt: skip
