"""A session: typed lines in, commands run against live objects, replies out.

    Session(viewer).run("hide nuclei and zoom to 2")

Text goes to the deterministic parser; every command, whichever road it came by, is validated
by the registry's adapter, dispatched to its pack, and answered with a :class:`Result`. Changes
that can be undone go into the one shared :class:`History`.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from pydantic import ValidationError

from .commands import Command
from .grammar.parser import Parser
from .help import LLM_HINT, suggest
from .history import History
from .registry import Registry, default_registry
from .result import CommandError, Job, Result
from .workspace import default_workspace

if TYPE_CHECKING:
    import threading

    from .llm.road import Execute, LLMOutcome, LLMRoad

log = logging.getLogger(__name__)

Road = Literal["parser", "llm", "none"]
Confirm = Callable[[list[Command]], bool]


@dataclass
class Turn:
    """One typed line and everything that came of it."""

    text: str
    road: Road
    commands: list[Command] = field(default_factory=list)
    results: list[Result] = field(default_factory=list)
    spoken: str | None = None
    """What the model said besides its commands."""
    model: str = ""

    @property
    def ok(self) -> bool:
        return all(r.ok for r in self.results) and bool(self.results or self.spoken)

    @property
    def message(self) -> str:
        return "\n".join([*([self.spoken] if self.spoken else []), *(r.message for r in self.results)])


class Session:
    def __init__(
        self,
        viewer: Any = None,
        *,
        registry: Registry | None = None,
        workspace: Path | str | None = None,
        window: Any = None,
        llm: LLMRoad | None = None,
    ) -> None:
        self.viewer = viewer
        self.registry = registry or default_registry()
        self.parser = Parser(self.registry)
        self.history = History()
        self.workspace = Path(workspace) if workspace is not None else default_workspace()
        self.window = window
        """The Qt main window holding the viewer, when the caller knows it (the dock does)."""
        self.llm = llm
        """The LLM road, when a model is set up; None keeps the session offline."""
        self.generative_prompt: str | None = None
        """The prompt a model keeps refining for generative tools (seed 000's ``user_prompt``)."""
        self.last_road: Road = "none"
        self.last_model = ""
        self.run_job: Callable[[Job], Result] = Job.run_here
        """How slow work runs: here, in turn, unless a GUI sets a way that keeps it responsive."""
        self.state: dict[str, Any] = {}
        """What packs keep for this session, under their pack's name (a scene, task records, ...)."""

    def known_names(self) -> dict[str, list[str]]:
        """Names the parser may resolve: layers, panels, and what each pack adds."""
        names: dict[str, list[str]] = {}
        for pack in self.registry.packs:
            try:
                names.update(pack.names(self))
            except Exception:  # a pack's live object may be gone; its names then are too
                log.debug("pack %s offered no names", pack.name, exc_info=True)
        return names

    def parse(self, text: str, context: Mapping[str, Sequence[str]] | None = None) -> list[Command]:
        return self.parser.parse(text, self.known_names() if context is None else context)

    def context_lines(self, packs: Iterable[str] | None = None) -> list[str]:
        """What each pack's live objects hold (or those of ``packs``), for a model's prompt."""
        lines: list[str] = []
        for pack in self.registry.packs:
            if packs is not None and pack.name not in packs:
                continue
            try:
                lines += pack.describe(self)
            except Exception:
                log.debug("pack %s described nothing", pack.name, exc_info=True)
        return lines

    def packs_in_play(self, text: str) -> list[str]:
        """The packs a model should see for this line (keeps the prompt short for local models)."""
        folded = text.casefold()
        return [pack.name for pack in self.registry.packs if pack.in_play(self, folded)]

    @property
    def llm_ready(self) -> bool:
        return self.llm is not None and self.llm.settings.configured

    def run(self, text: str, *, confirm: Confirm | None = None) -> Turn:
        """Run a line by the parser road, else (blocking) the LLM road; stop at the first error.

        ``confirm`` is asked before destructive commands a model chose; without it they do not run.
        """
        turn = self.try_parser(text)
        if turn is not None:
            return turn
        if self.llm_ready:
            return self.finish_llm_turn(text, self.ask_llm(text), confirm)
        return self.not_understood_turn(text)

    def try_parser(self, text: str) -> Turn | None:
        """The parser road alone: its turn, or None when the line is not understood."""
        commands = self.parse(text)
        if not commands:
            return None
        self.last_road = "parser"
        return Turn(text, "parser", commands, self.execute_all(commands))

    def not_understood_turn(self, text: str) -> Turn:
        self.last_road = "none"
        return Turn(text, "none", results=[self.not_understood(text)])

    def ask_llm(
        self, text: str, *, execute: Execute | None = None, cancelled: threading.Event | None = None
    ) -> LLMOutcome:
        """The model's reading of a line; safe off the GUI thread when ``execute`` is."""
        if self.llm is None:
            raise RuntimeError("no LLM road is set up for this session")
        run_here = execute or (lambda command, _timeout: self.execute(command))
        packs = self.packs_in_play(text)
        return self.llm.interpret(text, self.context_lines(packs), run_here, cancelled, packs=packs)

    def needs_confirmation(self, commands: Sequence[Command]) -> list[Command]:
        if self.llm is not None and self.llm.settings.allow_destructive:
            return []
        return [c for c in commands if c.risk == "destructive"]

    def finish_llm_turn(self, text: str, outcome: LLMOutcome, confirm: Confirm | None = None) -> Turn:
        """Run what the model chose (after confirmation where needed) and say what happened."""
        self.last_road, self.last_model = "llm", outcome.model
        if outcome.user_prompt:
            self.generative_prompt = outcome.user_prompt
        commands = [command for command, _ in outcome.read]
        results = [result for _, result in outcome.read]
        turn = Turn(text, "llm", commands, results, outcome.spoken, outcome.model)
        if outcome.error:
            turn.results.append(Result.error(outcome.error))
            return turn
        risky = self.needs_confirmation(outcome.commands)
        if risky and not (confirm is not None and confirm(risky)):
            listed = ", ".join(c.summary() for c in risky)
            turn.results.append(Result.error(f"not run, as it was not confirmed: {listed}"))
            return turn
        turn.commands += outcome.commands
        turn.results += self.execute_all(outcome.commands)
        return turn

    def execute_all(self, commands: Iterable[Command]) -> list[Result]:
        results = []
        for command in commands:
            result = self.execute(command)
            results.append(result)
            if not result.ok:
                break
        return results

    def execute(self, command: Command | Mapping[str, Any], *, redoing: bool = False) -> Result:
        """Validate and run one command; never raises."""
        started = time.perf_counter()
        try:
            if not isinstance(command, Command):
                command = self.registry.validate(dict(command))
            result = self._dispatch(command)
            if isinstance(result, Job):
                result = self.run_job(result)
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
        if result.ok and result.undo is not None and isinstance(command, Command):
            self.history.record(command, result.undo, redoing=redoing)
        return result

    def _dispatch(self, command: Command) -> Result:
        pack, handler = self.registry.handler(command.action)
        if handler is None:
            raise CommandError(f"{command.action} is not available here (pack {pack.name!r})")
        return handler(command, self)

    def undo(self) -> Result:
        entry = self.history.pop_undo()
        if entry is None:
            return Result.error("nothing to undo")
        entry.undo()
        return Result.success(f"undid {entry.command.summary()}", entry.command.to_wire())

    def redo(self) -> Result:
        entry = self.history.pop_redo()
        if entry is None:
            return Result.error("nothing to redo")
        result = self.execute(entry.command, redoing=True)
        result.undo = None  # execute() already recorded it
        if result.ok:
            result.message = f"redid {entry.command.summary()}: {result.message}"
        return result

    def not_understood(self, text: str) -> Result:
        examples = suggest(self.registry, text)
        nearest = " · ".join(f'"{e}"' for e in examples)
        message = f"I did not understand {text.strip()!r}. Nearest commands: {nearest}."
        if not self.llm_ready:
            message += f"\n{LLM_HINT}"
        return Result.error(message, {"suggestions": examples}, understood=False)

    def llm_status(self) -> str:
        """What answers typed lines, for the dock's status line."""
        model = f"LLM {self.llm.label}" if self.llm_ready else "no LLM configured"
        road = {"parser": "parser", "llm": f"LLM ({self.last_model})", "none": "—"}[self.last_road]
        return f"parser (offline) · {model} · last answer: {road}"


def _first_error(exc: ValidationError) -> str:
    error = exc.errors()[0]
    where = ".".join(str(p) for p in error.get("loc", ()) if not str(p).startswith("function"))
    return f"{where}: {error['msg']}" if where else error["msg"]
