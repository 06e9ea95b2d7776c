"""Running one command: validated by the registry's adapter, judged for consent as it runs, handed
to the pack that owns it, and written once into the undo history and the recipe log."""

from __future__ import annotations

import logging
import time
from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import Any

from pydantic import ValidationError

from ..basics.commands import Command
from ..basics.jobs import Job, Jobs
from ..basics.result import CommandError, Result
from ..errors import ContractError
from ..safety.risk import Consent, NeedsApproval, Origin
from ..safety.workspace import human_size
from .recipe_log import RecipeLog
from .session_consent import SessionConsent, undo_effects

log = logging.getLogger(__name__)


class SessionDispatch(SessionConsent):
    """Consent's layer, with commands carried out and recorded."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.jobs = Jobs(self._record)
        self.recipe_log = RecipeLog()
        """The commands that succeeded, in order, for saving as a recipe (:mod:`..recipes`)."""

    def attempt(
        self,
        command: Command | Mapping[str, Any],
        *,
        origin: Origin = "person",
        agreed: Iterable[str] = (),
        redoing: bool = False,
    ) -> Result:
        """Validate and run one command once; raises :class:`NeedsApproval` (nothing changed) when
        the person must agree first and has not, and nothing else."""
        started = time.perf_counter()
        try:
            if not isinstance(command, Command):
                command = self.registry.validate(dict(command))
            consent = self.consent(command, origin, agreed, implicit=redoing)
            consent.require(*self.effects(command))
            self._note_input_layers(command)
            result = self._dispatch(command, consent)
        except NeedsApproval:
            raise
        except ValidationError as exc:
            result = Result.error(f"invalid command: {_first_error(exc)}")
        except CommandError as exc:
            result = Result.error(str(exc), **({"error": exc.kind} if exc.kind else {}))
        except OSError as exc:
            action = getattr(command, "action", "command")
            result = Result.error(f"{action} failed: {exc.strerror or exc}", error=type(exc).__name__)
        except Exception as exc:
            log.exception("command failed: %r", command)
            result = Result.error(f"{getattr(command, 'action', 'command')} failed: {exc}")
        result.meta.setdefault("execution_time", round(time.perf_counter() - started, 6))
        if isinstance(command, Command):
            self._record(command, result, redoing=redoing)
        return result

    def _record(self, command: Command, result: Result, *, redoing: bool = False) -> None:
        """The one place undo history and the recipe log are written (jobs that end later come here
        too)."""
        undoable = result.ok and result.undo is not None
        if undoable:
            self._record_undo(command, result, redoing=redoing)
        if self.registry.pack_of(command.action).recorded:
            entry = self.history.next_undo() if undoable else None
            serial = entry.serial if entry is not None and entry.command is command else None
            self.recipe_log.add(command, result, serial, redoing=redoing)

    def _note_input_layers(self, command: Command) -> None:
        """The layers there before the first recorded command: what a recipe binds to each input's."""
        if self.recipe_log.inputs is not None or self.viewer is None:
            return
        if not self.registry.pack_of(command.action).recorded:
            return
        try:  # bookkeeping for a recipe never costs the person the command they asked for
            layers = list(getattr(self.viewer, "layers", ()))
            source = getattr(getattr(layers[0], "source", None), "path", None) if layers else None
            self.recipe_log.before_first([layer.name for layer in layers], str(source or ""))
        except Exception:
            log.debug("the input's layers could not be noted for a recipe", exc_info=True)

    def _record_undo(self, command: Command, result: Result, *, redoing: bool = False) -> None:
        assert result.undo is not None
        said = result.message.removeprefix("redid: ")
        dropped = self.history.record(
            command, result.undo, risk=type(command).risk, said=said, redoing=redoing
        )
        result.undo = None
        if dropped:
            budget = human_size(self.history.budget)
            gone = "; ".join(f"“{entry.said}”" for entry in dropped)
            result.message += (
                f"\n(undo memory is capped at {budget}: the oldest change that could be undone had to "
                f"go: {gone}.)"
            )
            result.meta["undo_dropped"] = [entry.command.to_wire() for entry in dropped]

    def _dispatch(self, command: Command, consent: Consent) -> Result:
        try:
            pack, handler = self.registry.handler(command)
        except ContractError as exc:  # a pack whose handlers, loaded now, lack this one or another
            raise CommandError(str(exc)) from None
        if handler is None:
            raise CommandError(f"{command.action} is not available here (pack {pack.name!r})")
        outcome = handler(command, self.context(pack, consent))
        if isinstance(outcome, Job):
            return self.jobs.start(outcome, command) if outcome.background else self.jobs.wait(outcome)
        return outcome

    def undo(self, consent: Consent | None = None) -> Result:
        """Undo the last change, judged like any command: what it would replace of the person's
        now (a layer painted on since, a file written since) needs their word."""
        entry = self.history.next_undo()
        if entry is None:
            return Result.error("nothing to undo")
        if consent is not None:
            consent.require(*undo_effects(entry))
        self.history.pop_undo()
        try:
            told = entry.undo()
        except Exception as exc:
            self.history.put_back(entry)
            reason = str(exc) if isinstance(exc, CommandError) else f"{type(exc).__name__}: {exc}"
            return Result.error(f"could not undo ({entry.said}): {reason}; it stays undoable")
        self.recipe_log.undone(entry.serial)
        also = f" {told[:1].upper()}{told[1:]}." if isinstance(told, str) and told else ""
        return Result.success(f"undid: {entry.said}{also}", entry.command.to_wire())

    def redo(self, consent: Consent | None = None) -> Result:
        """Run the undone command again, judged fresh against what is there now (a file the person
        wrote since the undo is theirs: replacing it needs their word)."""
        entry = self.history.next_redo()
        if entry is None:
            return Result.error("nothing to redo")
        consent = consent or self.consent(entry.command)
        self.history.pop_redo()
        try:
            result = self.attempt(entry.command, origin=consent.origin, agreed=consent.agreed, redoing=True)
        except NeedsApproval as asked:
            self.history.put_back_redo(entry)
            raise NeedsApproval(replace(asked.approval, summary=f"redo: {asked.approval.summary}")) from None
        if result.ok:
            result.message = f"redid: {result.message}"
        else:
            self.history.put_back_redo(entry)
        return result


def _first_error(exc: ValidationError) -> str:
    error = exc.errors()[0]
    where = ".".join(str(p) for p in error.get("loc", ()) if not str(p).startswith("function"))
    return f"{where}: {error['msg']}" if where else error["msg"]
