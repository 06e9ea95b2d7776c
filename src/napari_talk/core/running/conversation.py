"""The chat dock's logic without its widgets: typed lines driven through their turn machine
(:mod:`.turns`) without ever blocking, questions to the person waiting their turn, and the
person's settings applied. A view shows what it is told (:class:`ChatView`); the Qt dock is one.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

from ..llm.road import LLMRoad
from .turns import Done, Pending, Step, Turn, TurnMachine

if TYPE_CHECKING:
    from ..chat.settings import LLMSettings
    from ..llm.road import LLMOutcome
    from .session import Session
    from .settings import Settings

Answer = Callable[[bool], None]
"""What hears the person's yes or no."""


class ChatView(Protocol):
    """What a conversation needs of the screen it is shown on."""

    def say(self, kind: str, text: str) -> None:
        """A line of the transcript ("you", "reply", "error")."""

    def show_turn(self, turn: Turn, *, echo: bool) -> None:
        """What came of a line; ``echo``: the typed line too (not shown yet)."""

    def offer(self, meant: str) -> None:
        """Put what a line not understood may have meant in the input, for Enter to run."""

    def ask_model(self, text: str, answer: Callable[[LLMOutcome], None]) -> None:
        """Put ``text`` to the model off the GUI thread; ``answer(outcome)`` back on it."""

    def names_may_change(self) -> None:
        """A command ran that may bring new names (segments, glasses, entities)."""

    def changed(self) -> None:
        """The conversation's state changed (questions, busy, the road that answered)."""


class Conversation:
    """Lines in, turns and questions out, for one session and one view."""

    def __init__(self, session: Session, view: ChatView) -> None:
        self.session = session
        self.view = view
        self.questions: list[tuple[str, Answer]] = []
        """Yes/no questions for the person, the first one shown (Run / Cancel)."""
        self.at_the_model: TurnMachine | None = None
        """The line whose reading the model is asked for, while it is."""
        self._session_key: str | None = None

    # -- typed lines ---------------------------------------------------------------------------

    def send(self, text: str) -> Turn | None:
        """Run a line as if typed; what came of it when the parser road carried it (so far, when it
        waits for the person), None when it went to the model."""
        machine = self.session.turn(text)
        return self._go_on(machine, machine.step(), echoed=False)

    def _go_on(self, machine: TurnMachine, step: Step, *, echoed: bool) -> Turn | None:
        if isinstance(step, Done):
            self._finished(step.turn, echoed=echoed)
            return step.turn
        if not echoed:
            self.view.say("you", machine.text)
        if step.question is not None:
            self._to_the_model(machine, step.question)
            return None
        self.ask(self._question(step), lambda run: self._answered(machine, run))
        return machine.turn

    def _finished(self, turn: Turn, *, echoed: bool) -> None:
        self.view.show_turn(turn, echo=not echoed)
        if turn.road in ("none", "llm"):  # a reading offered by the canonical stage or a model
            data = turn.results[-1].data if turn.results else None
            meant = data.get("meant") if isinstance(data, dict) else None
            if isinstance(meant, str) and meant:
                self.view.offer(meant)
        if turn.road == "parser" and not echoed:
            self.view.names_may_change()
        self.view.changed()

    def _to_the_model(self, machine: TurnMachine, text: str) -> None:
        if self.at_the_model is not None:
            self.view.say("error", "still busy with the previous request: Stop it, or answer it first.")
            return
        self.at_the_model = machine

        def answer(outcome: LLMOutcome) -> None:
            if self.at_the_model is not machine:
                return  # a request the person stopped: its answer is ignored
            self.at_the_model = None
            self._go_on(machine, machine.step(outcome), echoed=True)

        self.view.ask_model(text, answer)
        self.view.changed()

    def _answered(self, machine: TurnMachine, run: bool) -> None:
        self._go_on(machine, machine.step(run), echoed=True)

    def _question(self, step: Pending) -> str:
        assert step.approval is not None
        who = "The model wants to run" if step.origin == "model" else "This would run"
        return f"{who} {self.session.explain(step.approval)}. Run it?"

    def stop_model(self) -> bool:
        """Forget the line at the model (its answer, when it comes, is ignored); False: none was."""
        if self.at_the_model is None:
            return False
        self.at_the_model = None
        self.view.say("error", "stopped; the model's answer will be ignored.")
        self.view.changed()
        return True

    # -- questions to the person --------------------------------------------------------------

    def ask(self, question: str, answer: Answer) -> None:
        """Put a yes/no question to the person (Run / Cancel); questions wait their turn."""
        self.questions.append((question, answer))
        self.view.changed()

    def withdraw(self, answer: Answer) -> None:
        """Take back, unanswered, the question asked with ``answer`` (an agent's call its client
        abandoned, or one nobody answered in time)."""
        self.questions = [(question, given) for question, given in self.questions if given is not answer]
        self.view.changed()

    def confirm(self, run: bool) -> None:
        """The person's answer to the first question."""
        if not self.questions:
            return
        _, answer = self.questions.pop(0)
        answer(run)
        self.view.changed()

    # -- settings ------------------------------------------------------------------------------

    def use_model(self, settings: LLMSettings, session_key: str | None = None) -> None:
        """Read lines with the model ``settings`` describe (``session_key``: a key typed for this
        run only; None keeps the one given before)."""
        self._session_key = session_key if session_key is not None else self._session_key
        if self.session.llm is not None:
            self.session.llm.close()
        self.session.llm = LLMRoad(self.session.registry, settings, session_key=self._session_key)
        if self.session.llm_ready:
            # importing the SDK holds the GIL for a while: do it now, not while someone waits
            threading.Thread(target=self.session.llm.warm_up, name="napari-talk-warm-up", daemon=True).start()

    def apply(self, settings: Settings, session_key: str | None = None) -> None:
        """The person's new settings: the workspace folder, the hosts allowed, each pack's
        section, the model."""
        from ..safety.net import NetPolicy

        self.session.workspace = settings.workspace.path()
        self.session.net = NetPolicy.from_setting(settings.network.allowed_hosts)
        self.session.settings = settings
        self.use_model(settings.llm, session_key)
        self.view.changed()

    @property
    def session_key(self) -> str | None:
        return self._session_key
