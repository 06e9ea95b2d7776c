"""The session pack: help and the shared undo history; its state is the session's own controls."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from ...core.contract.pack import Context, Pack, Sections
from .commands import COMMANDS, RedoLastAction, UndoLastAction
from .grammar import RULES

if TYPE_CHECKING:
    from ...core.basics.commands import Command
    from ...core.basics.result import Result
    from ...core.contract.registry import Registry
    from ...core.grammar.parser import Parser
    from ...core.running.recipe_log import RecipeLog
    from ...core.safety.risk import Consent, Effect
    from ...core.safety.workspace import Workspace


class SessionControls(Protocol):
    registry: Registry
    parser: Parser
    recipe_log: RecipeLog

    def known_names(self) -> dict[str, list[str]]: ...

    def undo_effects(self) -> tuple[Effect, ...]: ...

    def to_redo(self) -> Command | None: ...

    def undo(self, consent: Consent | None = None) -> Result: ...

    def redo(self, consent: Consent | None = None) -> Result: ...

    def packs_in_play(self, text: str) -> list[str]: ...


class SessionPack(Pack["SessionControls"]):
    def new_state(self, workspace: Workspace, settings: Sections) -> SessionControls:
        raise RuntimeError("the session pack's state is the session itself: Session provides it")

    def live(self, ctx: Context[SessionControls]) -> bool:
        """Help, undo and redo are always at hand."""
        return True

    def effects(self, command: Command, ctx: Context[SessionControls]) -> tuple[Effect, ...]:
        """An undo: what it would replace of the person's now (its digest); a redo: nothing here,
        as it is judged as the command it runs again (:meth:`judged_as`)."""
        if isinstance(command, UndoLastAction):
            return ctx.state.undo_effects()
        if isinstance(command, RedoLastAction):
            return ()
        return super().effects(command, ctx)

    def judged_as(self, command: Command, ctx: Context[SessionControls]) -> Command | None:
        return ctx.state.to_redo() if isinstance(command, RedoLastAction) else None


PACK = SessionPack(
    "session", COMMANDS, RULES, handlers=f"{__name__}.handlers:HANDLERS", recorded=False, order=0
)
