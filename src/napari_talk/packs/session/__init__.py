"""The session pack: help and the shared undo history; its state is the session's own controls."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from ...pack import Handlers, Pack
from .commands import COMMANDS
from .grammar import RULES

if TYPE_CHECKING:
    from ...registry import Registry
    from ...result import Result
    from ...workspace import Workspace


class SessionControls(Protocol):
    registry: Registry

    def undo(self) -> Result: ...

    def redo(self) -> Result: ...


class SessionPack(Pack["SessionControls"]):
    def handlers(self) -> Handlers[SessionControls]:
        from .handlers import HANDLERS

        return HANDLERS

    def new_state(self, workspace: Workspace) -> SessionControls:
        raise RuntimeError("the session pack's state is the session itself: Session provides it")


PACK = SessionPack("session", COMMANDS, RULES)
