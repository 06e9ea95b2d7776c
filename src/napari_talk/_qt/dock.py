"""The chat dock: type what you want the viewer to do.

The parser road runs at once on the GUI thread (microseconds); the LLM road runs in a worker, the
dock shows that it is working and offers Stop, and destructive commands wait for a click. What a
line does is decided by its :class:`Conversation` (Qt-free, :mod:`napari_talk.core.running.conversation`);
this widget shows it, runs the model's question off the GUI thread and keeps the loop turning.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from qtpy.QtCore import QEventLoop, QObject, QTimer, Signal
from qtpy.QtWidgets import (
    QCheckBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QProgressBar,
    QPushButton,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from ..core.basics.commands import Command
from ..core.basics.jobs import Job, Outcome, Progress, guarded
from ..core.basics.result import Result
from ..core.chat.settings import LLMSettings
from ..core.contract.registry import Registry
from ..core.running.conversation import Answer, Conversation
from ..core.running.opening import open_session
from ..core.running.settings import SettingsStore, default_store
from ..core.running.turns import Turn
from .chat_input import ChatInput
from .gui_thread import GuiThread
from .jobs import qt_runner
from .keeping_ready import KeepingReady
from .llm_task import LLMTask
from .panels import ViewerWindow
from .transcript import Transcript
from .triangulation import choose_triangulation

if TYPE_CHECKING:
    import napari

    from ..agents.mcp_server import HttpService
    from ..core.llm.road import LLMOutcome
    from .warm_up import WarmUp

log = logging.getLogger(__name__)

GREETING = (
    'Type what you want: "hide nuclei", "zoom to 300%", "fit GFP then center on 100 200". "help" lists more.'
)


PRIME_AFTER_MS = 800
"""How long the dock is idle before a local model reads the scene's prompt (a line typed meanwhile
waits for that read at the server, which it would have had to do anyway)."""


class _Relay(QObject):
    done = Signal()
    progress = Signal(str, object)
    """A job's ``Progress.report(status, fraction)``, from its worker thread to the GUI thread."""


class ChatDock(QWidget):
    def __init__(
        self,
        napari_viewer: napari.viewer.Viewer,
        parent: QWidget | None = None,
        *,
        store: SettingsStore | None = None,
        registry: Registry | None = None,
    ) -> None:
        super().__init__(parent)
        self.viewer = napari_viewer
        self.triangulation = choose_triangulation()  # napari's compiled one, unless the person chose
        self._store = store or default_store()
        settings = self._store.load()
        self.session = open_session(
            napari_viewer,
            window=ViewerWindow(napari_viewer, self),
            registry=registry,
            settings=settings,
            names_changed=self.prepare_parser,
            packs_wanted=self._layer_wants,
        )
        self.conversation = Conversation(self.session, self)
        self.task: LLMTask | None = None
        self._model_answer: Callable[[LLMOutcome], None] | None = None
        self.mcp: HttpService | None = None
        self.job: tuple[Job, threading.Event, QEventLoop] | None = None
        self.session.jobs.wait = self.run_job
        self.session.jobs.runner = qt_runner
        self.session.jobs.listen(self._background_done)
        self._mcp_gui: GuiThread | None = None
        self._ready = KeepingReady(self.session, self.run_job, self._pack_note, self)
        self._priming: threading.Thread | None = None
        self._prime_timer = QTimer(self)
        self._prime_timer.setSingleShot(True)
        self._prime_timer.setInterval(PRIME_AFTER_MS)
        self._prime_timer.timeout.connect(self._prime)
        self.apply_settings(settings.llm)

        self.transcript = Transcript(self)
        self.input = ChatInput(self._completion_candidates, self)
        self.status = QLabel(self)
        self.status.setWordWrap(True)
        self.busy = QProgressBar(self)
        self.busy.setRange(0, 0)
        self.busy.setMaximumHeight(6)
        self.busy.setTextVisible(False)
        self.stop_button = QPushButton("Stop", self)
        self.confirm_label = QLabel(self)
        self.confirm_label.setWordWrap(True)
        self.run_button = QPushButton("Run", self)
        self.cancel_button = QPushButton("Cancel", self)
        self.clear_button = QPushButton("Clear", self)
        self.clear_button.setToolTip("Clear the transcript (the undo history stays)")
        self.settings_button = QToolButton(self)
        self.settings_button.setText("⚙")
        self.settings_button.setToolTip("Language model settings")
        self.mcp_switch = QCheckBox("Serve over MCP", self)
        self.mcp_switch.setToolTip("Let MCP clients (agents) drive this viewer over HTTP on 127.0.0.1")
        self.mcp_info = QLineEdit(self)
        self.mcp_info.setReadOnly(True)
        self.mcp_info.setPlaceholderText("off")

        working = QHBoxLayout()
        working.addWidget(self.busy, 1)
        working.addWidget(self.stop_button)
        confirming = QHBoxLayout()
        confirming.addWidget(self.confirm_label, 1)
        confirming.addWidget(self.run_button)
        confirming.addWidget(self.cancel_button)
        serving = QHBoxLayout()
        serving.addWidget(self.mcp_switch)
        serving.addWidget(self.mcp_info, 1)
        footer = QHBoxLayout()
        footer.addWidget(self.status, 1)
        footer.addWidget(self.settings_button)
        footer.addWidget(self.clear_button)
        layout = QVBoxLayout(self)
        layout.addWidget(self.transcript, 1)
        layout.addLayout(confirming)
        layout.addLayout(working)
        layout.addWidget(self.input)
        layout.addLayout(footer)
        layout.addLayout(serving)

        self.input.submitted.connect(self.send)
        self.input.completions_shown.connect(self._show_completions)
        self.clear_button.clicked.connect(self.transcript.reset)
        self.stop_button.clicked.connect(self.stop)
        self.run_button.clicked.connect(lambda: self.conversation.confirm(True))
        self.cancel_button.clicked.connect(lambda: self.conversation.confirm(False))
        self.settings_button.clicked.connect(self.edit_settings)
        self.mcp_switch.toggled.connect(self.serve_mcp)
        self.transcript.add("reply", GREETING)
        self._show_state()
        self._ready.start()

    # -- typed lines (what they do is the conversation's) ---------------------------------------

    def send(self, text: str) -> Turn | None:
        """Run a line as if typed: the parser road now, the LLM road in the background."""
        if self.job is None:
            self._ready.parser_ready()
        return self.conversation.send(text)

    def stop(self) -> None:
        if self.job is not None:
            _, cancelled, loop = self.job
            cancelled.set()
            loop.quit()
            return
        if self.task is None:
            return
        self.task.cancel()
        self.task, self._model_answer = None, None
        self.conversation.stop_model()

    def ask(self, question: str, answer: Answer) -> None:
        """Put a yes/no question to the person (Run / Cancel); questions wait their turn."""
        self.conversation.ask(question, answer)

    def withdraw(self, answer: Answer) -> None:
        """Take back, unanswered, the question asked with ``answer``."""
        self.conversation.withdraw(answer)

    @property
    def _questions(self) -> list[tuple[str, Answer]]:
        return self.conversation.questions

    # -- what the conversation shows (its ChatView) ---------------------------------------------

    def say(self, kind: str, text: str) -> None:
        self.transcript.add(kind, text)

    def show_turn(self, turn: Turn, *, echo: bool) -> None:
        self.transcript.add_turn(turn, echo=echo)

    def offer(self, meant: str) -> None:
        """What a line not understood may have meant, in the input, selected: Enter runs it,
        typing replaces it (a reading is never run unasked)."""

        def put() -> None:
            self.input.setText(meant)
            self.input.selectAll()

        QTimer.singleShot(0, put)

    def ask_model(self, text: str, answer: Callable[[LLMOutcome], None]) -> None:
        """The model's reading of ``text`` in a worker (:class:`LLMTask`), its answer back here."""
        self.task, self._model_answer = LLMTask(self.session, text), answer
        self.task.finished.connect(self._llm_finished)
        self.task.start()

    def _llm_finished(self, outcome: LLMOutcome) -> None:
        task, answer = self.sender(), self._model_answer
        if not isinstance(task, LLMTask) or task.cancelled.is_set() or answer is None:
            return  # a request the person stopped: its answer is ignored
        self.task, self._model_answer = None, None
        answer(outcome)

    def names_may_change(self) -> None:
        self.prepare_parser()

    def changed(self) -> None:
        self._show_state()

    # -- keeping the parser ready (see :mod:`.keeping_ready`) ----------------------------------

    @property
    def _warming(self) -> WarmUp:
        return self._ready.warming

    @property
    def _warmed_up(self) -> bool:
        return self._ready.warmed_up

    def prepare_parser(self, *_: object) -> threading.Thread | None:
        """Compile the parser's rules for the names known now, in a thread (after the warm-up)."""
        return self._ready.prepare_parser() if hasattr(self, "_ready") else None

    def _layer_wants(self, packs: list[str]) -> None:
        self._ready.layer_wants(packs)

    def _pack_note(self, text: str) -> None:
        self.transcript.add("reply", text)

    # -- slow work -----------------------------------------------------------------------------

    def run_job(self, job: Job) -> Result:
        """A waited job (:mod:`napari_talk.core.basics.jobs`): its work in a thread of its own while the
        GUI keeps turning, its finish here; Stop abandons it."""
        loop = QEventLoop()
        relay = _Relay()
        relay.done.connect(loop.quit)
        progress = Progress(relay.progress.emit)
        relay.progress.connect(self._show_progress)
        work = guarded(lambda: job.work(progress))
        outcomes: list[Outcome] = []

        def run() -> None:
            outcomes.append(work())
            relay.done.emit()

        self.job = (job, progress, loop)
        self.busy.setRange(0, 0)  # busy, how far unknown, until the work reports a fraction
        self.input.setEnabled(False)
        self._show_state()
        threading.Thread(target=run, name="napari-talk-job", daemon=True).start()
        guard = _deadline_guard(self, progress, loop)
        loop.exec()
        if guard is not None:
            guard.stop()
        self.job = None
        self.input.setEnabled(True)
        self.input.setFocus()
        self._show_state()
        return job.settle(outcomes[0] if outcomes else None, progress)

    def _show_progress(self, status: str, fraction: float | None) -> None:
        """What a waited job's work reported (on the GUI thread): in the status line, and in the
        busy bar when it says how far it is."""
        if self.job is None:
            return
        self.status.setText(f"{self.job[0].label}: {status}")
        if fraction is not None:
            self.busy.setRange(0, 1000)
            self.busy.setValue(round(1000 * min(max(fraction, 0.0), 1.0)))

    def _background_done(self, command: Command, result: Result) -> None:
        """A background job (ComfyUI) ended: its answer joins the transcript."""
        self.transcript.add("reply" if result.ok else "error", result.message)
        self._show_state()

    # -- settings ------------------------------------------------------------------------------

    def apply_settings(self, settings: LLMSettings, session_key: str | None = None) -> None:
        self.conversation.use_model(settings, session_key)

    def edit_settings(self) -> None:
        from .settings_dialog import SettingsDialog

        stored = self._store.load()
        llm = self.session.llm.settings if self.session.llm is not None else stored.llm
        current = self.session.settings.model_copy(
            update={"llm": llm, "workspace": stored.workspace, "network": stored.network}
        )
        dialog = SettingsDialog(current, self.conversation.session_key, self)
        if dialog.exec():
            settings = dialog.settings()
            self._store.save(settings)
            self.conversation.apply(settings, dialog.typed_key() or "")

    # -- MCP -----------------------------------------------------------------------------------

    def serve_mcp(self, on: bool) -> None:
        """Streamable HTTP on 127.0.0.1 with a fresh bearer token; calls run on the GUI thread."""
        from ..agents.mcp_server import Bridge, HttpService

        if self.mcp is not None:
            self.mcp.stop()
            self.mcp = None
        if on:
            gui = GuiThread(self.session, self.ask, self.withdraw)
            bridge = Bridge(self.session, gui.call, gui.confirm)
            self._mcp_gui = gui  # the bridge's calls go through it: keep it alive with the service
            self.mcp = HttpService(bridge).start()
            self.mcp_info.setText(f"{self.mcp.url}  ·  Authorization: Bearer {self.mcp.token}")
        else:
            self.mcp_info.clear()

    def closeEvent(self, event) -> None:
        self.serve_mcp(False)
        super().closeEvent(event)

    # -- the model reads ahead ------------------------------------------------------------------

    def _prime(self) -> None:
        """While the person types, a local model reads the scene's prompt (``Session.prime_llm``)."""
        llm = self.session.llm
        if self.task is not None or self.job is not None or llm is None or not llm.reads_ahead:
            return
        if self._warming.running() or (self._priming is not None and self._priming.is_alive()):
            self._prime_timer.start()
            return
        self._priming = threading.Thread(target=self._prime_in_thread, name="napari-talk-prime", daemon=True)
        self._priming.start()

    def _prime_in_thread(self) -> None:
        try:
            self.session.prime_llm()
        except Exception:  # a read-ahead is a nicety: the line itself meets any real problem
            log.debug("could not have the model read ahead", exc_info=True)

    # -- display -------------------------------------------------------------------------------

    def _show_state(self) -> None:
        working = self.task is not None or self.job is not None
        questions = self.conversation.questions
        confirming = bool(questions)
        if confirming:
            self.confirm_label.setText(questions[0][0])
        self.busy.setVisible(working)
        self.stop_button.setVisible(working)
        for widget in (self.confirm_label, self.run_button, self.cancel_button):
            widget.setVisible(confirming)
        if self.job is not None:
            self.status.setText(f"{self.job[0].label} …")
        elif working:
            self.status.setText(f"asking {self.session.llm.label if self.session.llm else 'the model'} …")
        else:
            self.status.setText(self.session.llm_status())
        if not working and not confirming and self.session.llm is not None and self.session.llm.reads_ahead:
            self._prime_timer.start()

    def _show_completions(self, options: list[str]) -> None:
        self.status.setText("  ·  ".join(options))

    def _completion_candidates(self) -> list[str]:
        names = self.session.known_names()
        words = {
            word
            for cls in self.session.registry.commands.values()
            for example in cls.examples
            for word in example.split()[:2]
            if word.isalpha() and len(word) > 2
        }
        return [*names.get("layers", []), *names.get("panels", []), *sorted(words)]


DEADLINE_GRACE_SECONDS = 2.0
"""Work past its call's deadline (an MCP call's) that has not stopped by this much later is left
behind, as Stop leaves it: the GUI thread returns to the calls after it."""


def _deadline_guard(parent: QObject, progress: Progress, loop: QEventLoop) -> QTimer | None:
    """A timer that ends the wait for a job's work once its call's deadline has passed, for work
    that never checks it (``progress.check()``): a wedged call never holds the GUI thread."""
    if progress.deadline is None:
        return None

    def leave() -> None:
        progress.set()
        loop.quit()

    guard = QTimer(parent)
    guard.setSingleShot(True)
    guard.timeout.connect(leave)
    guard.start(max(0, round((progress.deadline - time.monotonic() + DEADLINE_GRACE_SECONDS) * 1000)))
    return guard
