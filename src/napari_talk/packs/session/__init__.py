"""The session pack: help and the shared undo history; its state is the session's own controls."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from ...core.contract.pack import Context, Handlers, Pack
from .commands import COMMANDS
from .grammar import RULES

if TYPE_CHECKING:
    from ...core.contract.registry import Registry
    from ...core.contract.result import Result
    from ...core.grammar.parser import Parser
    from ...core.recipes.log import RecipeLog
    from ...core.running.settings import Settings
    from ...core.safety.risk import Consent
    from ...core.safety.workspace import Workspace


class SessionControls(Protocol):
    registry: Registry
    parser: Parser
    recipe_log: RecipeLog

    def known_names(self) -> dict[str, list[str]]: ...

    def undo(self, consent: Consent | None = None) -> Result: ...

    def redo(self, consent: Consent | None = None) -> Result: ...

    def packs_in_play(self, text: str) -> list[str]: ...


class SessionPack(Pack["SessionControls"]):
    def handlers(self) -> Handlers[SessionControls]:
        from .handlers import HANDLERS

        return HANDLERS

    def new_state(self, workspace: Workspace, settings: Settings) -> SessionControls:
        raise RuntimeError("the session pack's state is the session itself: Session provides it")

    def live(self, ctx: Context[SessionControls]) -> bool:
        """Help, undo and redo are always at hand."""
        return True


PACK = SessionPack("session", COMMANDS, RULES, order=0)
