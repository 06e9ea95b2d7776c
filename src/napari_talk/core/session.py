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
from typing import TYPE_CHECKING, Any, Literal, TypeVar

from pydantic import ValidationError

from .commands import MAX_NAME_CHARS, Command, shown_name
from .grammar.parser import Parser
from .help import LLM_HINT, suggest
from .history import History
from .jobs import Job, Jobs
from .net import NetPolicy
from .pack import Context, Pack
from .registry import Registry, default_registry
from .result import CommandError, Result
from .risk import Origin, Risk, RiskPolicy, at_least
from .workspace import Workspace, default_workspace

if TYPE_CHECKING:
    import threading

    from .llm.road import Execute, LLMOutcome, LLMRoad
    from .window import Window

S = TypeVar("S")

log = logging.getLogger(__name__)

Road = Literal["parser", "llm", "none"]
Confirm = Callable[[list[Command]], bool]

UNCONFIRMED = "unconfirmed"
"""``meta["error"]`` of a command that was not run because the person must agree to it first;
``meta["risk"]`` says what it would cost and ``meta["agreement"]`` what the person agrees to:
run it again with ``agreed=`` that, and it runs if it still costs no more and reaches the same."""


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
        window: Window | None = None,
        llm: LLMRoad | None = None,
    ) -> None:
        self.viewer = viewer
        self.registry = registry or default_registry()
        self.parser = Parser(self.registry)
        self.history = History()
        self._workspace = Workspace(workspace if workspace is not None else default_workspace())
        self.window = window
        """The window's panels (:mod:`napari_talk.core.window`), when the caller has a window."""
        self.llm = llm
        """The LLM road, when a model is set up; None keeps the session offline."""
        self.generative_prompt: str | None = None
        """The prompt a model keeps refining for generative tools (seed 000's ``user_prompt``)."""
        self.last_road: Road = "none"
        self.last_model = ""
        self.jobs = Jobs(self._record)
        self.net = NetPolicy()
        """Which private hosts URLs may be fetched from (the person's settings; none by default)."""
        self._states: dict[str, Any] = {"session": self}

    @property
    def workspace(self) -> Workspace:
        """The gate to the workspace folder; set a new folder with a path."""
        return self._workspace

    @workspace.setter
    def workspace(self, root: Path | str | Workspace) -> None:
        root = root.root if isinstance(root, Workspace) else Path(root)
        if Path(root).expanduser() != Path(self._workspace).expanduser():
            self._workspace = Workspace(root)
            self._states = {"session": self}  # what packs kept belonged to the old folder

    def state(self, pack: Pack[S] | str) -> S:
        """The state ``pack`` keeps for this session, made on first use."""
        found = pack if isinstance(pack, Pack) else self.registry.pack(pack)
        if found.name not in self._states:
            self._states[found.name] = found.new_state(self._workspace)
        return self._states[found.name]

    def context(self, pack: Pack[S]) -> Context[S]:
        """What ``pack``'s handlers and hooks may touch."""
        return Context(
            viewer=self.viewer,
            workspace=self._workspace,
            state=self.state(pack),
            jobs=self.jobs,
            window=self.window,
            llm=self.llm if self.llm_ready else None,
            generative_prompt=self.generative_prompt,
            net=self.net,
        )

    @property
    def policy(self) -> RiskPolicy:
        trusted = self.llm is not None and self.llm.settings.allow_destructive
        return RiskPolicy(trust_with_data=trusted)

    def known_names(self) -> dict[str, list[str]]:
        """Names the parser may resolve: layers, panels, and what each pack adds. A name longer
        than a command takes (:data:`MAX_NAME_CHARS`), made outside napari-talk, is left out: no
        command could name it, and offering it would cost every typed line its length."""
        return {
            kind: [name for name in found if len(name) <= MAX_NAME_CHARS]
            for kind, found in self._live_names().items()
        }

    def _live_names(self) -> dict[str, list[str]]:
        names: dict[str, list[str]] = {}
        for pack in self.registry.packs:
            try:
                names.update(pack.names(self.context(pack)))
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
                lines += pack.describe(self.context(pack))
            except Exception:
                log.debug("pack %s described nothing", pack.name, exc_info=True)
        too_long = {n for found in self._live_names().values() for n in found if len(n) > MAX_NAME_CHARS}
        for name in sorted(too_long, key=len, reverse=True):  # shown shortened, as listings show them
            lines = [line.replace(name, shown_name(name)) for line in lines]
        return lines

    def prepare_packs(self) -> None:
        """Each pack's slow set-up (see :meth:`Pack.prepare`); blocking, so a GUI runs it in a thread."""
        for pack in self.registry.packs:
            try:
                pack.prepare(self.context(pack))
            except Exception:  # the first command will meet the problem and say it plainly
                log.debug("pack %s could not prepare", pack.name, exc_info=True)

    def layer_added(self, layer: Any) -> None:
        """Tell every pack of a layer that came into the viewer (see :meth:`Pack.layer_added`)."""
        for pack in self.registry.packs:
            try:
                pack.layer_added(self.context(pack), layer)
            except Exception:  # a pack's set-up of a layer is a nicety, never an error for the person
                log.debug("pack %s could not set up layer %r", pack.name, layer, exc_info=True)

    def packs_in_play(self, text: str) -> list[str]:
        """The packs a model should see for this line (keeps the prompt short for local models)."""
        folded = text.casefold()
        return [pack.name for pack in self.registry.packs if pack.in_play(self.context(pack), folded)]

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
        names = self.known_names()
        commands = self.parser.parse(text, names)
        if not commands:
            reason = self.parser.explain(text, names)
            if reason is None:
                return None
            self.last_road = "parser"
            return Turn(text, "parser", results=[Result.error(reason)])
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
        run_here = execute or (lambda command, _timeout: self.execute(command, origin="model"))
        packs = self.packs_in_play(text)
        return self.llm.interpret(
            text, self.context_lines(packs), run_here, cancelled, packs=packs, names=self.known_names()
        )

    def risk(self, command: Command) -> Risk:
        """What running ``command`` now would cost the person (undo and redo: what they undo)."""
        if command.action in ("undo_last_action", "redo_last_action"):
            entry = (
                self.history.next_undo() if command.action == "undo_last_action" else self.history.next_redo()
            )
            return entry.risk if entry is not None and at_least(entry.risk, "data") else "view"
        pack = self.registry.pack_of(command.action)
        try:
            return pack.risk(command, self.context(pack))
        except Exception:  # a risk nobody can tell is a risk to ask about
            log.debug("pack %s could not assess %s", pack.name, command.action, exc_info=True)
            return "data"

    def agreement(self, command: Command) -> str:
        """What the person agrees to when they let ``command`` run now: its risk, and for an undo
        or a redo the very change it reaches."""
        entry = None
        if command.action == "undo_last_action":
            entry = self.history.next_undo()
        elif command.action == "redo_last_action":
            entry = self.history.next_redo()
        reaches = f" #{entry.serial}" if entry is not None else ""
        return f"{self.risk(command)} {command.to_wire()}{reaches}"

    def needs_person(self, command: Command, origin: Origin) -> bool:
        """Whether the person must agree before ``command``, asked for by ``origin``, runs now."""
        return self.policy.needs_person(self.risk(command), origin)

    def needs_confirmation(self, commands: Sequence[Command], origin: Origin = "model") -> list[Command]:
        """The commands the person must agree to if each ran now, against the state as it is.

        Commands that run one after another change what the next costs (a second undo reaches an
        older change): :meth:`execute` judges each again when its turn comes.
        """
        return [c for c in commands if self.needs_person(c, origin)]

    def explain(self, command: Command) -> str:
        """``command`` in words for a question to the person; an undo or redo says what it reaches."""
        entry = None
        if command.action == "undo_last_action":
            entry = self.history.next_undo()
        elif command.action == "redo_last_action":
            entry = self.history.next_redo()
        return f"{command.summary()} ({entry.said})" if entry is not None else command.summary()

    def finish_llm_turn(self, text: str, outcome: LLMOutcome, confirm: Confirm | None = None) -> Turn:
        """Run what the model chose, asking ``confirm`` (blocking) for each command that needs the
        person when its turn to run comes, and say what happened."""
        carried = self.start_llm_turn(text, outcome)
        asking = carried.advance()
        while asking is not None:
            asking = carried.advance(confirm is not None and confirm([asking]))
        return carried.turn

    def start_llm_turn(self, text: str, outcome: LLMOutcome) -> ModelTurn:
        """The model's reply, ready to be carried out command by command (see :class:`ModelTurn`)."""
        self.last_road, self.last_model = "llm", outcome.model
        if outcome.user_prompt:
            self.generative_prompt = outcome.user_prompt
        commands = [command for command, _ in outcome.read]
        results = [result for _, result in outcome.read]
        turn = Turn(text, "llm", commands, results, outcome.spoken, outcome.model)
        if outcome.error:
            turn.results.append(Result.error(outcome.error))
            return ModelTurn(self, turn, [])
        return ModelTurn(self, turn, outcome.commands)

    def execute_asking(
        self,
        command: Command,
        origin: Origin,
        confirm: Callable[[Command], bool] | None,
        within: Callable[[Callable[[], Result]], Result] | None = None,
    ) -> Result:
        """Run ``command`` for ``origin``; when the policy wants the person, ask ``confirm`` and run
        it with their word, judged again as it runs. ``within(work)`` calls ``work`` where the live
        objects are (the GUI thread); by default here."""
        agreed: str | None = None
        for _ in range(3):  # what changed while the person was asked is asked about again

            def work(agreed: str | None = agreed) -> Result:
                return self.execute(command, origin=origin, agreed=agreed)

            result = work() if within is None else within(work)
            if result.meta.get("error") != UNCONFIRMED:
                return result
            if confirm is None or not confirm(command):
                break
            agreed = result.meta["agreement"]
        return Result.error(f"{command.summary()} was not confirmed; nothing ran", error=UNCONFIRMED)

    def execute_all(self, commands: Iterable[Command]) -> list[Result]:
        results = []
        for command in commands:
            result = self.execute(command)
            results.append(result)
            if not result.ok:
                break
        return results

    def execute(
        self,
        command: Command | Mapping[str, Any],
        *,
        origin: Origin = "person",
        agreed: str | None = None,
        redoing: bool = False,
    ) -> Result:
        """Validate and run one command; never raises.

        Its risk is judged now, against the state as it is when it runs: when the policy wants the
        person to agree to what ``origin`` asked and ``agreed`` (what the person agreed to, see
        :meth:`agreement`) is not this, nothing runs and ``meta["error"]`` is :data:`UNCONFIRMED`.
        """
        started = time.perf_counter()
        risk: Risk | None = None
        try:
            if not isinstance(command, Command):
                command = self.registry.validate(dict(command))
            risk = self.risk(command)
            if self.policy.needs_person(risk, origin) and agreed != (agreement := self.agreement(command)):
                return Result.error(
                    f"{self.explain(command)} waits for the person's agreement",
                    error=UNCONFIRMED,
                    risk=risk,
                    agreement=agreement,
                )
            result = self._dispatch(command)
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
            self._record(command, result, risk=risk, redoing=redoing)
        return result

    def _record(
        self, command: Command, result: Result, *, risk: Risk | None = None, redoing: bool = False
    ) -> None:
        """The one place undo history is written (jobs that end later come here too)."""
        if result.ok and result.undo is not None:
            said = result.message.removeprefix("redid: ")
            self.history.record(
                command, result.undo, risk=risk or type(command).risk, said=said, redoing=redoing
            )

    def _dispatch(self, command: Command) -> Result:
        pack, handler = self.registry.handler(command)
        if handler is None:
            raise CommandError(f"{command.action} is not available here (pack {pack.name!r})")
        outcome = handler(command, self.context(pack))
        if isinstance(outcome, Job):
            return self.jobs.start(outcome, command) if outcome.background else self.jobs.wait(outcome)
        return outcome

    def undo(self) -> Result:
        entry = self.history.pop_undo()
        if entry is None:
            return Result.error("nothing to undo")
        try:
            told = entry.undo()
        except Exception as exc:
            self.history.put_back(entry)
            reason = str(exc) if isinstance(exc, CommandError) else f"{type(exc).__name__}: {exc}"
            return Result.error(f"could not undo ({entry.said}): {reason}; it stays undoable")
        also = f" {told[:1].upper()}{told[1:]}." if isinstance(told, str) and told else ""
        return Result.success(f"undid: {entry.said}{also}", entry.command.to_wire())

    def redo(self) -> Result:
        entry = self.history.pop_redo()
        if entry is None:
            return Result.error("nothing to redo")
        result = self.execute(entry.command, redoing=True)
        result.undo = None  # execute() already recorded it
        if result.ok:
            result.message = f"redid: {result.message}"
        else:
            self.history.put_back_redo(entry)
        return result

    def not_understood(self, text: str) -> Result:
        packs = self.packs_in_play(text)
        live = [p.name for p in self.registry.packs if p.name in packs and p.live(self.context(p))]
        examples = suggest(self.registry, text, packs=packs, live=live)
        nearest = " · ".join(f'"{e}"' for e in examples)
        typed = text.strip()
        shown = typed if len(typed) <= 120 else typed[:117] + "…"
        message = f"I did not understand {shown!r}. Nearest commands: {nearest}."
        if not self.llm_ready:
            message += f"\n{LLM_HINT}"
        return Result.error(message, {"suggestions": examples}, understood=False)

    def llm_status(self) -> str:
        """What answers typed lines, for the dock's status line."""
        model = f"LLM {self.llm.label}" if self.llm is not None and self.llm_ready else "no LLM configured"
        road = {"parser": "parser", "llm": f"LLM ({self.last_model})", "none": "—"}[self.last_road]
        return f"parser (offline) · {model} · last answer: {road}"


class ModelTurn:
    """A model's reply being carried out: each command is judged when its turn to run comes, so
    a second undo in one reply, which reaches an older change, is judged by that change.

    ``asking = carried.advance()``; while ``asking`` is a command, put it to the person and call
    ``carried.advance(their_answer)``; ``carried.turn`` then says what happened.
    """

    def __init__(self, session: Session, turn: Turn, commands: Sequence[Command]) -> None:
        self.session = session
        self.turn = turn
        self._waiting = list(commands)
        self._asking: tuple[Command, str] | None = None

    def advance(self, agreed: bool | None = None) -> Command | None:
        """Run the commands in order until one needs the person's word (it is returned) or none
        is left (None); ``agreed`` answers the command returned last time."""
        agreement: str | None = None
        if self._asking is not None:
            command, asked = self._asking
            self._asking = None
            if not agreed:
                rest = "".join(f"; {c.summary()}" for c in self._waiting[1:])
                self.turn.results.append(
                    Result.error(f"not run, as it was not confirmed: {command.summary()}{rest}")
                )
                self._waiting.clear()
                return None
            agreement = asked
        while self._waiting:
            command = self._waiting[0]
            result = self.session.execute(command, origin="model", agreed=agreement)
            agreement = None
            if result.meta.get("error") == UNCONFIRMED:
                self._asking = (command, result.meta["agreement"])
                return command
            self._waiting.pop(0)
            self.turn.commands.append(command)
            self.turn.results.append(result)
            if not result.ok:
                self._waiting.clear()
        return None


def _first_error(exc: ValidationError) -> str:
    error = exc.errors()[0]
    where = ".".join(str(p) for p in error.get("loc", ()) if not str(p).startswith("function"))
    return f"{where}: {error['msg']}" if where else error["msg"]
