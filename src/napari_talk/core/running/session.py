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
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, TypeVar, cast, overload

from pydantic import ValidationError

from ..contract.commands import MAX_NAME_CHARS, Command, shown_name
from ..contract.pack import Context, Pack
from ..contract.registry import Registry, default_registry
from ..contract.result import CommandError, Result
from ..errors import ContractError
from ..grammar.parser import Parser
from ..help.live_examples import in_live_names
from ..help.topics import not_understood_line, suggest, unknown_verb
from ..safety.net import NetPolicy
from ..safety.risk import (
    Approval,
    Consent,
    ConsentedNet,
    Effect,
    NeedsApproval,
    Origin,
    RiskPolicy,
    at_least,
    destination,
    urls_in,
)
from ..safety.workspace import Workspace, default_workspace, human_size
from .history import Entry, History
from .jobs import Job, Jobs
from .recipe_log import RecipeLog
from .rephrasing import Rephrasing
from .settings import Settings

if TYPE_CHECKING:
    import threading

    from ..llm.road import Execute, LLMOutcome, LLMRoad
    from ..viewer.protocols import Layer, Viewer
    from ..viewer.window import Window

S = TypeVar("S")

log = logging.getLogger(__name__)
SUGGESTIONS = 3
"""How many examples a line nothing read is answered with."""

Road = Literal["parser", "llm", "none"]
Ask = Callable[[Approval], bool]
"""Put an :class:`Approval` to the person; True when they agree (blocking)."""
Within = Callable[[Callable[[], Result]], Result]
"""``within(work)``: call ``work`` where the live objects are (the GUI thread)."""


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
    notes: tuple[str, ...] = ()
    """How the parser read the line, when not as typed ("read 'shwo' as 'show'")."""

    @property
    def ok(self) -> bool:
        return all(r.ok for r in self.results) and bool(self.results or self.spoken)

    @property
    def message(self) -> str:
        said = [*self.notes, *([self.spoken] if self.spoken else []), *(r.message for r in self.results)]
        return "\n".join(said)


class Session:
    def __init__(
        self,
        viewer: Viewer | None = None,
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
        """The window's panels (:mod:`napari_talk.core.viewer.window`), when the caller has a window."""
        self.llm = llm
        """The LLM road, when a model is set up; None keeps the session offline."""
        self.last_road: Road = "none"
        self.last_model = ""
        self.jobs = Jobs(self._record)
        self.net = NetPolicy()
        """Which private hosts URLs may be fetched from (the person's settings; none by default)."""
        self._settings = Settings()
        self._states: dict[str, object] = {"session": self}
        self.rephrasing = Rephrasing(self.registry)
        """The canonical stage for lines the parser does not read; silent until :meth:`prepare_packs`."""
        self.recipe_log = RecipeLog()
        """The commands that succeeded, in order, for saving as a recipe (:mod:`..recipes`)."""

    @property
    def settings(self) -> Settings:
        """The person's settings, as packs read them (each its own section)."""
        return self._settings

    @settings.setter
    def settings(self, settings: Settings) -> None:
        for pack in self.registry.packs:
            section = pack.settings_section
            if section and settings.section(section) != self._settings.section(section):
                self._states.pop(pack.name, None)  # made anew from the new section on next use
        self._settings = settings

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

    @overload
    def state(self, pack: Pack[S] | type[Pack[S]]) -> S: ...

    @overload
    def state(self, pack: str) -> Any: ...

    def state(self, pack: Pack[S] | type[Pack[S]] | str) -> Any:
        """The state ``pack`` keeps for this session, made on first use; typed when ``pack`` is
        the pack or its class (``session.state(AtlasPack)`` is the ``Atlas``)."""
        found = self._pack(pack)
        if found.name not in self._states:
            self._states[found.name] = found.new_state(self._workspace, self._settings)
        return self._states[found.name]

    def _pack(self, pack: Pack[S] | type[Pack[S]] | str) -> Pack[S]:
        if isinstance(pack, Pack):
            return pack
        if isinstance(pack, str):
            return cast("Pack[S]", self.registry.pack(pack))
        for registered in self.registry.packs:
            if type(registered) is pack:
                return cast("Pack[S]", registered)
        raise KeyError(f"no {pack.__name__} is registered in this session")

    def context(self, pack: Pack[S], consent: Consent | None = None) -> Context[S]:
        """What ``pack``'s handlers and hooks may touch, for a command run under ``consent``."""
        consent = consent or Consent(policy=self.policy, configured_hosts=self.configured_hosts())
        return Context(
            viewer=self.viewer,
            workspace=self._workspace,
            state=self.state(pack),
            jobs=self.jobs,
            window=self.window,
            llm=self.llm if self.llm_ready else None,
            net=ConsentedNet(self.net.allowed_hosts, consent),
            consent=consent,
            settings=self._settings,
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

    def prepare_packs(
        self, tell: Callable[[str], None] | None = None, packs: Sequence[str] | None = None
    ) -> None:
        """The canonical stage's set-up, then each pack's (see :meth:`Pack.prepare`), or only those
        of ``packs``; blocking, so a GUI runs it in a thread. ``tell`` hears what a pack says of its
        set-up (:meth:`Pack.preparing`), from that thread."""
        if packs is None:
            self.rephrasing.prepare()
        for pack in self.registry.packs:
            if packs is not None and pack.name not in packs:
                continue
            try:
                ctx = self.context(pack)
                notes = pack.preparing(ctx)
                if notes is not None and tell is not None:
                    tell(notes[0])
                pack.prepare(ctx)
                if notes is not None and tell is not None:
                    tell(notes[1])
            except Exception:  # the first command will meet the problem and say it plainly
                log.debug("pack %s could not prepare", pack.name, exc_info=True)

    def layer_added(self, layer: Layer) -> list[str]:
        """Tell every pack of a layer that came into the viewer (see :meth:`Pack.layer_added`); the
        packs whose set-up the layer calls for (:meth:`Pack.prepares_for`), for
        :meth:`prepare_packs` to run in the background."""
        wanting = []
        for pack in self.registry.packs:
            try:
                ctx = self.context(pack)
                pack.layer_added(ctx, layer)
                if pack.prepares_for(ctx, layer):
                    wanting.append(pack.name)
            except Exception:  # a pack's set-up of a layer is a nicety, never an error for the person
                log.debug("pack %s could not set up layer %r", pack.name, layer, exc_info=True)
        return wanting

    def packs_in_play(self, text: str) -> list[str]:
        """The packs a model should see for this line (keeps the prompt short for local models)."""
        folded = text.casefold()
        return [pack.name for pack in self.registry.packs if pack.in_play(self.context(pack), folded)]

    @property
    def llm_ready(self) -> bool:
        return self.llm is not None and self.llm.settings.configured

    def run(self, text: str, *, ask: Ask | None = None) -> Turn:
        """Run a line by the parser road, else (blocking) the LLM road; stop at the first error.

        ``ask`` is put what the person must agree to (a model's command replacing their file, an
        undo removing a layer they painted on); without it such commands do not run.
        """
        turn = self.try_parser(text, ask)
        if turn is not None:
            return turn
        if self.llm_ready:
            return self.finish_llm_turn(text, self.ask_llm(text), ask)
        self.rephrasing.prepare()  # blocking, as run is: its reading is the first suggestion
        return self.not_understood_turn(text)

    def try_parser(self, text: str, ask: Ask | None = None) -> Turn | None:
        """The parser road alone: its turn, or None when the line is not understood."""
        names = self.known_names()
        self.recipe_log.typing = text
        reading = self.parser.read(text, names)
        commands = reading.commands
        if not commands:
            reason = self.parser.explain(text, names)
            if reason is None:
                return None if self.llm_ready else self._leading_turn(text, names, ask)
            self.last_road = "parser"
            return Turn(text, "parser", results=[Result.error(reason)])
        self.last_road = "parser"
        return Turn(text, "parser", commands, self.execute_all(commands, ask), notes=reading.notes)

    def _leading_turn(self, text: str, names: Mapping[str, Sequence[str]], ask: Ask | None) -> Turn | None:
        """Without a model to read the whole line: its leading requests the parser understands run,
        and the reply says which clause after them was not understood (and nothing after it ran)."""
        found = self.parser.read_leading(text, names)
        if found is None:
            return None
        reading, failed = found
        self.last_road = "parser"
        results = self.execute_all(reading.commands, ask)
        if all(r.ok for r in results):
            results.append(
                Result.error(f"I did not understand {failed!r}, so it and what follows did not run.")
            )
        return Turn(text, "parser", reading.commands, results, notes=reading.notes)

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
        scene = self.packs_in_play("")
        return self.llm.interpret(
            text,
            self.context_lines(scene),
            run_here,
            cancelled,
            packs=packs,
            scene=scene,
            names=self.known_names(),
        )

    def prime_llm(self) -> bool:
        """Have a local model read this scene's prompt ahead of the next line (see
        ``LLMRoad.prime``); blocking, so a GUI runs it in a thread. True when it was sent."""
        if self.llm is None or not self.llm.reads_ahead:
            return False
        scene = self.packs_in_play("")
        return self.llm.prime(self.context_lines(scene), scene)

    # -- consent: judged by what a command will do, when it does it ---------------------------

    def consent(
        self,
        command: Command,
        origin: Origin = "person",
        agreed: Iterable[str] = (),
        *,
        implicit: bool = False,
    ) -> Consent:
        """The consent ``command`` runs under, asked for by ``origin``, with what the person agreed to."""
        return Consent(
            origin=origin,
            policy=self.policy,
            wire=command.to_wire(),
            summary=command.summary(),
            agreed=frozenset(agreed),
            implicit=implicit,
            configured_hosts=self.configured_hosts(),
        )

    def configured_hosts(self) -> frozenset[str]:
        """Hosts the person set up: their model's server and the hosts allowed in the settings."""
        hosts = set(self.net.allowed_hosts)
        if self.llm is not None and (where := destination(self.llm.settings.base_url)):
            hosts.add(where)
        return frozenset(hosts)

    def effects(self, command: Command) -> tuple[Effect, ...]:
        """What running ``command`` now would do that the person may have to agree to, as its
        pack judges it (an undo: what it would replace of theirs, its digest)."""
        pack = self.registry.pack_of(command.action)
        sends = tuple(Effect.send(host) for host in _hosts(urls_in(command.model_dump().values())))
        try:
            found = pack.effects(command, self.context(pack))
            if sends:  # the hosts named say where better than the command's usual risk
                found = tuple(e for e in found if e.kind != "send")
            return found + sends
        except Exception:  # an effect nobody can tell is an effect to ask about
            log.debug("pack %s could not judge %s", pack.name, command.action, exc_info=True)
            return (Effect.replace(f"what {command.action} touches (it could not be judged)"), *sends)

    def judge(self, command: Command, origin: Origin = "person") -> Approval | None:
        """What the person would be asked before ``command`` ran now, or None: it would run."""
        pack = self.registry.pack_of(command.action)
        again = pack.judged_as(command, self.context(pack))
        implicit = again is not None
        command = again if again is not None else command
        try:
            self.consent(command, origin, implicit=implicit).require(*self.effects(command))
        except NeedsApproval as asked:
            return asked.approval
        return None

    def explain(self, asked: Command | Approval) -> str:
        """What a question to the person says: the command, and the effects they agree to."""
        if isinstance(asked, Command):
            approval = self.judge(asked, "model")
            return approval.question if approval is not None else asked.summary()
        return asked.question

    def finish_llm_turn(self, text: str, outcome: LLMOutcome, ask: Ask | None = None) -> Turn:
        """Run what the model chose, asking ``ask`` (blocking) for each command that needs the
        person when its turn to run comes, and say what happened."""
        carried = self.start_llm_turn(text, outcome)
        asking = carried.advance()
        while asking is not None:
            asking = carried.advance(ask is not None and ask(asking))
        return carried.turn

    def waiting(self, turn: Turn) -> ModelTurn | None:
        """A parsed turn that stopped at a command needing the person's word (an undo that would
        remove a layer they painted on since): that question, pending, and the rest of the line."""
        refused = turn.results[-1].approval if turn.results else None
        if refused is None or turn.road != "parser":
            return None
        done = len(turn.results) - 1
        rest = turn.commands[done:]
        carried = Turn(turn.text, "parser", turn.commands[:done], turn.results[:done])
        return ModelTurn(self, carried, rest, origin="person", asking=refused)

    def start_llm_turn(self, text: str, outcome: LLMOutcome) -> ModelTurn:
        """The model's reply, ready to be carried out command by command (see :class:`ModelTurn`)."""
        self.last_road, self.last_model = "llm", outcome.model
        if outcome.user_prompt:
            for pack in self.registry.packs:
                if type(pack).model_prompt is not Pack.model_prompt:
                    pack.model_prompt(self.context(pack), outcome.user_prompt)
        commands = [command for command, _ in outcome.read]
        results = [result for _, result in outcome.read]
        spoken = "\n".join([*outcome.notes, *([outcome.spoken] if outcome.spoken else [])]) or None
        turn = Turn(text, "llm", commands, results, spoken, outcome.model)
        if outcome.error:
            meta = {} if outcome.understood else {"understood": False}
            turn.results.append(Result.error(outcome.error, **meta))
            return ModelTurn(self, turn, [])
        return ModelTurn(self, turn, outcome.commands)

    def execute_all(self, commands: Iterable[Command], ask: Ask | None = None) -> list[Result]:
        results = []
        for command in commands:
            result = self.execute(command, ask=ask)
            results.append(result)
            if not result.ok:
                break
        return results

    def execute(
        self,
        command: Command | Mapping[str, Any],
        *,
        origin: Origin = "person",
        ask: Ask | None = None,
        within: Within | None = None,
    ) -> Result:
        """Validate and run one command; never raises.

        Consent is judged as it runs, against the state as it is then (:mod:`napari_talk.core.safety.risk`).
        When the person must agree, ``ask(approval)`` is asked (the dock's question) and the command
        run with their word, judged again (what changed meanwhile is asked about again); without
        ``ask``, or when they say no, nothing runs and the Result is a structured refusal
        (``result.approval``, ``meta["approval"]``) an agent can show. ``within(work)`` calls
        ``work`` where the live objects are (the GUI thread); by default here.
        """
        agreed: frozenset[str] = frozenset()
        for _ in range(3):

            def work(agreed: frozenset[str] = agreed) -> Result:
                try:
                    return self.attempt(command, origin=origin, agreed=agreed)
                except NeedsApproval as asked:
                    return Result.refused(asked.approval)

            result = work() if within is None else within(work)
            if result.approval is None:
                return result
            if ask is None or not ask(result.approval):
                return result
            agreed = agreed | result.approval.tokens
        return result

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

    def undo_effects(self) -> tuple[Effect, ...]:
        """What undoing the last change now would replace of the person's (nothing to undo: none)."""
        entry = self.history.next_undo()
        return _undo_effects(entry) if entry is not None else ()

    def to_redo(self) -> Command | None:
        """The command a redo would run again, if any."""
        entry = self.history.next_redo()
        return entry.command if entry is not None else None

    def undo(self, consent: Consent | None = None) -> Result:
        """Undo the last change, judged like any command: what it would replace of the person's
        now (a layer painted on since, a file written since) needs their word."""
        entry = self.history.next_undo()
        if entry is None:
            return Result.error("nothing to undo")
        if consent is not None:
            consent.require(*_undo_effects(entry))
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

    def not_understood(self, text: str) -> Result:
        """The reply to a line nothing read: the canonical stage's reading of it first, in the
        person's own names (never run: a reading is a guess, and on lines written blind its guesses
        were wrong as often as right), then the nearest examples."""
        packs = self.packs_in_play(text)
        live = [p.name for p in self.registry.packs if p.name in packs and p.live(self.context(p))]
        names = self.known_names()
        nearest = suggest(self.registry, text, limit=2 * SUGGESTIONS, packs=packs, live=live)
        examples = in_live_names(nearest, text, names, self.registry, self.parser)[:SUGGESTIONS]
        meant = self.rephrasing.read(text, names, self.parser)
        every_name = [name for found in names.values() for name in found]
        unknown = None if meant else unknown_verb(text, self.parser.vocabulary(), every_name)
        message = not_understood_line(
            text, examples, offer_model=not self.llm_ready, meant=meant, unknown_word=unknown
        )
        suggestions = [meant, *(e for e in examples if e != meant)] if meant else examples
        return Result.error(message, {"suggestions": suggestions, "meant": meant}, understood=False)

    def llm_status(self) -> str:
        """What answers typed lines, for the dock's status line."""
        model = f"LLM {self.llm.label}" if self.llm is not None and self.llm_ready else "no LLM configured"
        road = {"parser": "parser", "llm": f"LLM ({self.last_model})", "none": "—"}[self.last_road]
        return f"parser (offline) · {model} · last answer: {road}"


class ModelTurn:
    """A model's reply being carried out: each command is judged when its turn to run comes, so
    a second undo in one reply, which reaches an older change, is judged by that change.

    ``asking = carried.advance()``; while ``asking`` is an :class:`Approval`, put it to the person
    and call ``carried.advance(their_answer)``; ``carried.turn`` then says what happened.
    """

    def __init__(
        self,
        session: Session,
        turn: Turn,
        commands: Sequence[Command],
        *,
        origin: Origin = "model",
        asking: Approval | None = None,
    ) -> None:
        self.session = session
        self.turn = turn
        self.origin: Origin = origin
        self._waiting = list(commands)
        self._asking = asking

    def advance(self, agreed: bool | None = None) -> Approval | None:
        """Run the commands in order until one needs the person's word (what they are asked is
        returned) or none is left (None); ``agreed`` answers what was returned last time (None:
        no answer yet, the question stands)."""
        tokens: frozenset[str] = frozenset()
        if self._asking is not None and agreed is None:
            return self._asking
        if self._asking is not None:
            asked, self._asking = self._asking, None
            if not agreed:
                rest = "".join(f"; {c.summary()}" for c in self._waiting[1:])
                refused = Result.refused(asked)  # the structured refusal, so a caller knows why
                refused.message = f"not run, as it was not confirmed: {asked.question}{rest}"
                self.turn.results.append(refused)
                self._waiting.clear()
                return None
            tokens = asked.tokens
        while self._waiting:
            command = self._waiting[0]
            try:
                result = self.session.attempt(command, origin=self.origin, agreed=tokens)
            except NeedsApproval as needs:
                self._asking = needs.approval
                return needs.approval
            tokens = frozenset()
            self._waiting.pop(0)
            self.turn.commands.append(command)
            self.turn.results.append(result)
            if not result.ok:
                self._waiting.clear()
        return None


def _undo_effects(entry: Entry) -> tuple[Effect, ...]:
    """What undoing ``entry`` now would replace: what its steps' guards find (a layer painted on
    since: the person's line did not name it), and, for a change of data, that change itself (the
    person asked for it: a model or an agent undoing it asks them)."""
    found = tuple(entry.changes.effects())
    if at_least(entry.risk, "data"):
        found += (Effect.replace(f"what “{entry.said}” did, by undoing it", str(entry.serial)),)
    return found


def _hosts(urls: Iterable[str]) -> list[str]:
    found: list[str] = []
    for url in urls:
        where = destination(url)
        if where and where not in found:
            found.append(where)
    return found


def _first_error(exc: ValidationError) -> str:
    error = exc.errors()[0]
    where = ".".join(str(p) for p in error.get("loc", ()) if not str(p).startswith("function"))
    return f"{where}: {error['msg']}" if where else error["msg"]
