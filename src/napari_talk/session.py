"""A session: typed lines in, commands run against live objects, replies out.

    Session(viewer).run("hide nuclei and zoom to 2")

Text goes to the deterministic parser; every command, whichever road it came by, is validated
by the registry's adapter, dispatched to its pack, and answered with a :class:`Result`. Changes
that can be undone go into the one shared :class:`History`.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from pydantic import ValidationError

from .commands import Command
from .grammar.parser import Parser
from .help import LLM_HINT, suggest
from .history import History
from .registry import Registry, default_registry
from .result import CommandError, Result
from .workspace import default_workspace

log = logging.getLogger(__name__)

Road = Literal["parser", "llm", "none"]


@dataclass
class Turn:
    """One typed line and everything that came of it."""

    text: str
    road: Road
    commands: list[Command] = field(default_factory=list)
    results: list[Result] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return bool(self.results) and all(r.ok for r in self.results)

    @property
    def message(self) -> str:
        return "\n".join(r.message for r in self.results)


class Session:
    def __init__(
        self,
        viewer: Any = None,
        *,
        registry: Registry | None = None,
        workspace: Path | str | None = None,
        window: Any = None,
    ) -> None:
        self.viewer = viewer
        self.registry = registry or default_registry()
        self.parser = Parser(self.registry)
        self.history = History()
        self.workspace = Path(workspace) if workspace is not None else default_workspace()
        self.window = window
        """The Qt main window holding the viewer, when the caller knows it (the dock does)."""
        self.last_road: Road = "none"
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

    def run(self, text: str) -> Turn:
        """Parse a line and run what it asks for, in order, stopping at the first error."""
        commands = self.parse(text)
        if not commands:
            self.last_road = "none"
            return Turn(text, "none", results=[self.not_understood(text)])
        self.last_road = "parser"
        return Turn(text, "parser", commands, self.execute_all(commands))

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
        except ValidationError as exc:
            result = Result.error(f"invalid command: {_first_error(exc)}")
        except CommandError as exc:
            result = Result.error(str(exc))
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
        message = f"I did not understand {text.strip()!r}. Nearest commands: {nearest}.\n{LLM_HINT}"
        return Result.error(message, {"suggestions": examples}, understood=False)

    def llm_status(self) -> str:
        """What answers typed lines, for the dock's status line."""
        road = {"parser": "parser", "llm": "LLM", "none": "—"}[self.last_road]
        return f"parser (offline) · no LLM configured · last answer: {road}"


def _first_error(exc: ValidationError) -> str:
    error = exc.errors()[0]
    where = ".".join(str(p) for p in error.get("loc", ()) if not str(p).startswith("function"))
    return f"{where}: {error['msg']}" if where else error["msg"]
