"""Running commands on the GUI thread for callers on other threads (the LLM road, MCP clients)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TYPE_CHECKING

from qtpy.QtCore import QObject, Signal

from ..core.contract.result import Result

if TYPE_CHECKING:
    from ..core.contract.commands import Command
    from ..core.running.session import Session
    from ..core.safety.risk import Approval

Ask = Callable[[str, Callable[[bool], None]], None]
"""``ask(question, answer)``: put a yes/no question to the person; ``answer`` gets the reply."""


class GuiThread(QObject):
    """Hands work to the GUI thread and waits, bounded, for its outcome."""

    _requested = Signal(object)

    def __init__(self, session: Session, ask: Ask | None = None) -> None:
        super().__init__()
        self._session = session
        self._ask = ask
        self._requested.connect(self._on_gui_thread)

    def run(self, command: Command, timeout: float) -> Result:
        """Execute ``command`` a model asked for on the GUI thread (judged there by the session's
        risk policy); an error Result if it takes over ``timeout`` s."""
        return self.call(lambda: self._session.execute(command, origin="model"), command.action, timeout)

    def call(self, work: Callable[[], Result], action: str, timeout: float) -> Result:
        """``work()`` on the GUI thread; an error Result if it takes over ``timeout`` s."""
        done, slot = self._post(lambda finish: finish(work()))
        if not done.wait(timeout):
            return Result.error(
                f"{action} did not finish within {timeout:g} s; the viewer carries on "
                "and the command may still complete"
            )
        return slot["value"]

    def confirm(self, asked: Approval, timeout: float) -> bool:
        """Ask the person in the dock; False if there is no one to ask or no answer in time."""
        ask = self._ask
        if ask is None:
            return False

        def put(finish: Callable[[object], None]) -> None:
            ask(f"An agent wants to run {self._session.explain(asked)}. Run it?", finish)

        done, slot = self._post(put)
        return done.wait(timeout) and bool(slot["value"])

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
