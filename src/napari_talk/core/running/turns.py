"""A typed line's turn, as a machine every door drives the same way.

    machine = session.turn("hide nuclei")
    step = machine.step()
    while isinstance(step, Pending):
        step = machine.step(answer_to(step))
    step.turn

A line is read by the parser; the commands read run one by one, each judged for consent when its
turn to run comes. Where the line cannot go on by itself it stops with a :class:`Pending`, the
request the door must answer, and is resumed with the answer: the person's word on an
:class:`Approval` (True or False), or the model's reading of a line the parser did not read (an
:class:`LLMOutcome`, which the door gets from :meth:`SessionTurns.ask_llm` where it must: off the
GUI thread in the dock, here in a script). It ends with :class:`Done` and the :class:`Turn`.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from ..basics.commands import Command
from ..basics.result import Result
from ..contract.pack import Pack
from ..help.live_examples import in_live_names
from ..help.topics import not_understood_line, suggest, unknown_verb
from ..safety.risk import Approval, NeedsApproval, Origin
from .session_dispatch import SessionDispatch

if TYPE_CHECKING:
    from ..llm.road import Execute, LLMOutcome

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


@dataclass(frozen=True)
class Pending:
    """The line waits for its door: ``approval`` for the person's word (answer True or False), or
    ``question``, the line to put to the model (answer with what :meth:`SessionTurns.ask_llm` says)."""

    approval: Approval | None = None
    question: str | None = None
    origin: Origin = "person"
    """Who asked for the command waiting for approval: the person's line, or the model."""


@dataclass(frozen=True)
class Done:
    """The line is over: what came of it."""

    turn: Turn


Step = Pending | Done


class TurnMachine:
    """One line's way from typed text to a :class:`Turn`, stopping wherever its door must answer."""

    def __init__(self, session: SessionTurns, text: str, *, ready_rephrasing: bool = False) -> None:
        self.session = session
        self.text = text
        self.turn: Turn | None = None
        self._ready_rephrasing = ready_rephrasing
        """Make the canonical stage ready (blocking) before a line nothing read is answered."""
        self._origin: Origin = "person"
        self._waiting: list[Command | Mapping[str, Any]] = []
        self._asking: Pending | None = None
        self._agreed: frozenset[str] = frozenset()
        self._record_run = False
        """Whether each command run joins ``turn.commands`` (the model's; the parser lists them all)."""
        self._after: Result | None = None
        """What is said after every command ran (the clause the parser did not understand)."""
        self._over_already = False

    @classmethod
    def running(
        cls, session: SessionTurns, commands: Sequence[Command | Mapping[str, Any]], *, origin: Origin
    ) -> TurnMachine:
        """A turn of commands asked for as they are, not read from text (an agent's call, a
        recipe's line written as JSON): each is validated and judged as its turn to run comes."""
        machine = cls(session, "")
        machine.turn, machine._origin, machine._waiting = Turn("", "parser"), origin, list(commands)
        return machine

    def step(self, answer: bool | LLMOutcome | None = None) -> Step:
        """Go on until the line needs an answer or is over; ``answer`` answers the last
        :class:`Pending` (None: no answer yet, and it is returned again)."""
        if self.turn is None:
            return self._read()
        if self._over_already:
            return Done(self.turn)
        if self._asking is not None:
            if answer is None:
                return self._asking
            asked, self._asking = self._asking, None
            if asked.question is not None:
                return self._model_read(answer)
            if not answer:
                return self._declined(asked)
            assert asked.approval is not None
            self._agreed = self._agreed | asked.approval.tokens
        return self._run()

    # -- the roads ----------------------------------------------------------------------------

    def _read(self) -> Step:
        session, text = self.session, self.text
        names = session.known_names()
        session.recipe_log.typing = text
        reading = session.parser.read(text, names)
        if reading.commands:
            return self._parsed(reading.commands, reading.notes)
        reason = session.parser.explain(text, names)
        if reason is not None:
            session.last_road = "parser"
            return self._over(Turn(text, "parser", results=[Result.error(reason)]))
        if session.llm_ready:
            self.turn = Turn(text, "llm")
            self._asking = Pending(question=text, origin="model")
            return self._asking
        leading = session.parser.read_leading(text, names)
        if leading is not None:
            found, failed = leading
            self._after = Result.error(
                f"I did not understand {failed!r}, so it and what follows did not run."
            )
            return self._parsed(found.commands, found.notes)
        if self._ready_rephrasing:
            session.rephrasing.prepare()  # blocking, as the caller is: its reading is the first suggestion
        session.last_road = "none"
        return self._over(Turn(text, "none", results=[session.not_understood(text)]))

    def _parsed(self, commands: Sequence[Command], notes: tuple[str, ...]) -> Step:
        self.session.last_road = "parser"
        self.turn = Turn(self.text, "parser", list(commands), notes=notes)
        self._waiting = list(commands)
        return self._run()

    def _model_read(self, outcome: object) -> Step:
        from ..llm.road import LLMOutcome

        assert isinstance(outcome, LLMOutcome), "a question to the model is answered with its outcome"
        session = self.session
        session.last_road, session.last_model = "llm", outcome.model
        if outcome.user_prompt:
            for pack in session.registry.packs:
                if type(pack).model_prompt is not Pack.model_prompt:
                    pack.model_prompt(session.context(pack), outcome.user_prompt)
        spoken = "\n".join([*outcome.notes, *([outcome.spoken] if outcome.spoken else [])]) or None
        self.turn = Turn(
            self.text,
            "llm",
            [command for command, _ in outcome.read],
            [result for _, result in outcome.read],
            spoken,
            outcome.model,
        )
        if outcome.error:
            meta = {} if outcome.understood else {"understood": False}
            offered = {"meant": outcome.meant} if outcome.meant else None  # taken only if the person does
            self.turn.results.append(Result.error(outcome.error, offered, **meta))
            return self._over(self.turn)
        self._origin, self._record_run = "model", True
        self._waiting = list(outcome.commands)
        return self._run()

    # -- carrying out -------------------------------------------------------------------------

    def _run(self) -> Step:
        """The commands in order, each judged as its turn comes (a second undo in one line reaches
        an older change, and is judged by that change)."""
        assert self.turn is not None
        while self._waiting:
            command = self._waiting[0]
            try:
                result = self.session.attempt(command, origin=self._origin, agreed=self._agreed)
            except NeedsApproval as needs:
                self._asking = Pending(approval=needs.approval, origin=self._origin)
                return self._asking
            self._agreed = frozenset()
            self._waiting.pop(0)
            if self._record_run and isinstance(command, Command):
                self.turn.commands.append(command)
            self.turn.results.append(result)
            if not result.ok:
                return self._over(self.turn)
        if self._after is not None:
            self.turn.results.append(self._after)
        return self._over(self.turn)

    def _declined(self, asked: Pending) -> Step:
        assert self.turn is not None and asked.approval is not None
        rest = "".join(f"; {c.summary()}" for c in self._waiting[1:] if isinstance(c, Command))
        refused = Result.refused(asked.approval)  # the structured refusal, so a caller knows why
        refused.message = f"not run, as it was not confirmed: {asked.approval.question}{rest}"
        self.turn.results.append(refused)
        self._waiting.clear()
        return self._over(self.turn)

    def _over(self, turn: Turn) -> Done:
        self.turn, self._waiting, self._over_already = turn, [], True
        return Done(turn)


class SessionTurns(SessionDispatch):
    """Dispatch's layer, with typed lines read and answered: the parser, else the model, else the
    nearest examples."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.last_road: Road = "none"
        self.last_model = ""

    def turn(self, text: str, *, ready_rephrasing: bool = False) -> TurnMachine:
        """The machine that carries ``text`` to its :class:`Turn` (see the module's docstring)."""
        return TurnMachine(self, text, ready_rephrasing=ready_rephrasing)

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
        machine = TurnMachine.running(self, [command], origin=origin)
        answer: bool | None = None
        for _ in range(3):

            def work(answer: bool | None = answer) -> Result:
                step = machine.step(answer)
                if isinstance(step, Done):
                    return step.turn.results[-1]
                assert step.approval is not None
                return Result.refused(step.approval)

            result = work() if within is None else within(work)
            if result.approval is None or ask is None or not ask(result.approval):
                return result
            answer = True
        return result

    def ask_llm(
        self, text: str, *, execute: Execute | None = None, cancelled: threading.Event | None = None
    ) -> LLMOutcome:
        """The model's reading of a line (blocking); safe off the GUI thread when ``execute`` is."""
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
            phrasings=self.rephrasing.reader,
        )

    def prime_llm(self) -> bool:
        """Have a local model read this scene's prompt ahead of the next line (see
        ``LLMRoad.prime``); blocking, so a GUI runs it in a thread. True when it was sent."""
        if self.llm is None or not self.llm.reads_ahead:
            return False
        scene = self.packs_in_play("")
        return self.llm.prime(self.context_lines(scene), scene)

    def not_understood(self, text: str) -> Result:
        """The reply to a line nothing read: the canonical stage's reading of it first, in the
        person's own names (never run: a reading is a guess, and on lines written blind its guesses
        were wrong as often as right), then the nearest examples."""
        packs = self.packs_in_play(text)
        live = [p.name for p in self.registry.packs if p.name in packs and p.live(self.context(p))]
        names: Mapping[str, Sequence[str]] = self.known_names()
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
