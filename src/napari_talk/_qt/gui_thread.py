"""Running commands on the GUI thread for callers on other threads (the LLM road, MCP clients)."""

from __future__ import annotations

import contextvars
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING

from qtpy.QtCore import QObject, Signal

from ..core.basics.result import Result

if TYPE_CHECKING:
    from ..agents.mcp_server import Abandoned
    from ..core.basics.commands import Command
    from ..core.running.session import Session
    from ..core.safety.risk import Approval

Ask = Callable[[str, Callable[[bool], None]], None]
"""``ask(question, answer)``: put a yes/no question to the person; ``answer`` gets the reply."""
Withdraw = Callable[[Callable[[bool], None]], None]
"""``withdraw(answer)``: take back the question asked with ``answer``, unanswered."""


class FirstAnswer:
    """A yes/no that the first to answer decides (the person's click, a timeout, the client going
    away); later answers change nothing."""

    def __init__(self) -> None:
        self._given = threading.Event()
        self._lock = threading.Lock()
        self.value = False

    def __call__(self, value: bool) -> None:
        self.give(value)

    def give(self, value: bool) -> bool:
        """Answer; True when this answer is the one that counts."""
        with self._lock:
            if self._given.is_set():
                return False
            self.value = bool(value)
            self._given.set()
            return True

    def wait(self, timeout: float) -> bool:
        """Whether an answer came within ``timeout`` s."""
        return self._given.wait(timeout)


class GuiThread(QObject):
    """Hands work to the GUI thread and waits, bounded, for its outcome."""

    _requested = Signal(object)

    def __init__(self, session: Session, ask: Ask | None = None, withdraw: Withdraw | None = None) -> None:
        super().__init__()
        self._session = session
        self._ask = ask
        self._withdraw = withdraw
        self._requested.connect(self._on_gui_thread)

    def run(self, command: Command, timeout: float) -> Result:
        """Execute ``command`` a model asked for on the GUI thread (judged there by the session's
        risk policy); an error Result if it takes over ``timeout`` s."""
        return self.call(lambda: self._session.execute(command, origin="model"), command.action, timeout)

    def call(self, work: Callable[[], Result], action: str, timeout: float) -> Result:
        """``work()`` on the GUI thread; an error Result if it takes over ``timeout`` s. It runs in
        the caller's context: the limits of an MCP call (its deadline, its client gone) bound the
        jobs it starts there as they do without a display."""
        context = contextvars.copy_context()
        done, slot = self._post(lambda finish: finish(context.run(work)))
        if not done.wait(timeout):
            return Result.error(
                f"{action} did not finish within {timeout:g} s; the viewer carries on "
                "and the command may still complete"
            )
        return slot["value"]

    def confirm(self, asked: Approval, timeout: float, abandoned: Abandoned | None = None) -> bool:
        """Ask the person in the dock; False if there is no one to ask, no answer in time, or the
        call is ``abandoned`` first (its question then leaves the dock, as after Cancel)."""
        ask = self._ask
        if ask is None:
            return False
        answer = FirstAnswer()
        self._soon(lambda: ask(f"An agent wants to run {self._session.explain(asked)}. Run it?", answer))
        if abandoned is not None:
            abandoned.on(lambda: self._refuse(answer))
        if not answer.wait(timeout):
            self._refuse(answer)
        return answer.value

    def _refuse(self, answer: FirstAnswer) -> None:
        """Answer no for the person, and take the question back from the dock."""
        withdraw = self._withdraw
        if answer.give(False) and withdraw is not None:
            self._soon(lambda: withdraw(answer))

    def _soon(self, work: Callable[[], object]) -> None:
        """``work()`` on the GUI thread, not waited for; in the order asked."""
        self._requested.emit((lambda _finish: work(), None))

    def _post(self, work: Callable[[Callable[[object], None]], None]):
        done, slot = threading.Event(), {}

        def finish(value: object) -> None:
            slot["value"] = value
            done.set()

        self._requested.emit((work, finish))
        return done, slot

    def _on_gui_thread(self, request) -> None:
        work, finish = request
        work(finish)
