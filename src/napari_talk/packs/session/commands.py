"""Commands of the session itself: help, and the one undo history every pack shares."""

from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import Field

from ...commands import Command, Risk


class Help(Command):
    """Say what can be typed, with examples."""

    action: Literal["help"] = "help"
    risk: ClassVar[Risk] = "read"
    topic: str | None = Field(default=None, description="A subject to narrow it to (zoom, layers, ...).")
    examples: ClassVar = ("help", "help zoom")


class UndoLastAction(Command):
    """Undo the last change, whichever pack made it."""

    action: Literal["undo_last_action"] = "undo_last_action"
    examples: ClassVar = ("undo",)


class RedoLastAction(Command):
    """Redo the last undone change."""

    action: Literal["redo_last_action"] = "redo_last_action"
    examples: ClassVar = ("redo",)


COMMANDS: tuple[type[Command], ...] = (Help, UndoLastAction, RedoLastAction)
