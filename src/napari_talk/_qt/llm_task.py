"""Running the LLM road off the GUI thread, with read-only commands run back on the GUI thread."""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING

from qtpy.QtCore import QObject, Signal

from ..core.llm.road import LLMOutcome
from .gui_thread import GuiThread

if TYPE_CHECKING:
    from ..core.running.session import Session


class LLMTask(QObject):
    """One question to the model; ``finished`` carries the outcome on the GUI thread."""

    finished = Signal(object)

    def __init__(self, session: Session, text: str) -> None:
        super().__init__()
        self.text = text
        self.cancelled = threading.Event()
        self._session = session
        self._gui = GuiThread(session)
        self._thread = threading.Thread(target=self._work, name="napari-talk-llm", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def cancel(self) -> None:
        self.cancelled.set()

    def wait(self, timeout: float | None = None) -> bool:
        self._thread.join(timeout)
        return not self._thread.is_alive()

    def _work(self) -> None:
        try:
            outcome = self._session.ask_llm(self.text, execute=self._gui.run, cancelled=self.cancelled)
        except Exception as exc:  # the dock must never stay busy: every question ends in a line
            outcome = LLMOutcome(error=f"the question to the model failed: {type(exc).__name__}: {exc}")
        self.finished.emit(outcome)
