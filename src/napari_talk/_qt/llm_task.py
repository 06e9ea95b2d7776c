"""Running the LLM road off the GUI thread, with read-only commands run back on the GUI thread."""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING

from qtpy.QtCore import QObject, Signal

from ..result import Result

if TYPE_CHECKING:
    from ..commands import Command
    from ..session import Session


class _GuiExecutor(QObject):
    """Hands a command to the GUI thread and waits (bounded) for its Result."""

    _requested = Signal(object)

    def __init__(self, session: Session) -> None:
        super().__init__()
        self._session = session
        self._requested.connect(self._run)

    def __call__(self, command: Command, timeout: float) -> Result:
        slot: dict[str, Result] = {}
        done = threading.Event()
        self._requested.emit((command, slot, done))
        if not done.wait(timeout):
            return Result.error(f"{command.action} did not finish within {timeout:g} s")
        return slot["result"]

    def _run(self, request) -> None:
        command, slot, done = request
        slot["result"] = self._session.execute(command)
        done.set()


class LLMTask(QObject):
    """One question to the model; ``finished`` carries the outcome on the GUI thread."""

    finished = Signal(object)

    def __init__(self, session: Session, text: str) -> None:
        super().__init__()
        self.text = text
        self.cancelled = threading.Event()
        self._session = session
        self._executor = _GuiExecutor(session)
        self._thread = threading.Thread(target=self._work, name="napari-talk-llm", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def cancel(self) -> None:
        self.cancelled.set()

    def wait(self, timeout: float | None = None) -> bool:
        self._thread.join(timeout)
        return not self._thread.is_alive()

    def _work(self) -> None:
        outcome = self._session.ask_llm(self.text, execute=self._executor, cancelled=self.cancelled)
        self.finished.emit(outcome)
