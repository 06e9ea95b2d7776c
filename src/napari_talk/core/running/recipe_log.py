"""What a session did, in order, for recording a recipe: the commands that succeeded, with the line
typed for them, and which of them were undone since. Commands of a pack that is not ``recorded``
(the session's own: help, undo, redo, recipes) never come here."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..basics.commands import Command
    from ..basics.result import Result


@dataclass
class Done:
    command: Command
    typed: str
    """The line the person typed for it ("" when an agent or a model sent it)."""
    serial: int | None
    """Its entry in the undo history, when it made one (an undo of that entry strikes it out)."""
    undone: bool = False


@dataclass
class InputLayers:
    """The viewer's layers before the first recorded command: the input a recipe is replayed on."""

    names: tuple[str, ...] = ()
    source: str = ""
    """The file the first of them came from, when napari knows it ("" otherwise)."""


@dataclass
class RecipeLog:
    done: list[Done] = field(default_factory=list)
    inputs: InputLayers | None = None
    typing: str = ""
    """The line being run now, set by the session."""

    def before_first(self, names: Sequence[str], source: str = "") -> None:
        """Remember the input's layers, once: when the first command is about to run."""
        if self.inputs is None:
            self.inputs = InputLayers(tuple(names), source)

    def add(self, command: Command, result: Result, serial: int | None, *, redoing: bool = False) -> None:
        if not result.ok or (isinstance(result.data, dict) and result.data.get("background")):
            return  # a background job is recorded when it ends, not when it starts
        self.done.append(Done(command, "" if redoing else self.typing, serial))

    def undone(self, serial: int) -> None:
        for done in self.done:
            if done.serial == serial:
                done.undone = True

    def kept(self) -> list[Done]:
        """The commands a recipe holds: those that succeeded and were not undone, in order."""
        return [done for done in self.done if not done.undone]
