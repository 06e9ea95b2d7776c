"""Handlers of the session pack."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...result import Result

if TYPE_CHECKING:
    from ...session import Session
    from .commands import Help, RedoLastAction, UndoLastAction


def help_(command: Help, session: Session) -> Result:
    return Result.success(session.registry.help_text(command.topic))


def undo(command: UndoLastAction, session: Session) -> Result:
    return session.undo()


def redo(command: RedoLastAction, session: Session) -> Result:
    return session.redo()


HANDLERS = {"help": help_, "undo_last_action": undo, "redo_last_action": redo}
