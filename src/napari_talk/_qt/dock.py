"""The chat dock: type what you want the viewer to do.

The parser road runs at once on the GUI thread (microseconds); the LLM road runs in a worker, the
dock shows that it is working and offers Stop, and destructive commands wait for a click.
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

from ..core.contract.commands import Command
from ..core.contract.registry import Registry
from ..core.contract.result import Result
from ..core.llm.road import LLMRoad
from ..core.llm.settings import LLMSettings
from ..core.running.jobs import Job, Outcome, Progress, guarded
from ..core.running.session import ModelTurn, Session, Turn
from ..core.running.settings import SettingsStore, default_store
from ..core.safety.net import NetPolicy
from .chat_input import ChatInput
from .gui_thread import GuiThread
from .jobs import qt_runner
from .llm_task import LLMTask
from .panels import ViewerWindow
from .transcript import Transcript
from .warm_up import WarmUp

if TYPE_CHECKING:
    import napari

    from ..agents.mcp_server import HttpService
    from ..core.llm.road import LLMOutcome

log = logging.getLogger(__name__)

GREETING = (
    'Type what you want: "hide nuclei", "zoom to 300%", "fit GFP then center on 100 200". "help" lists more.'
)


PRIME_AFTER_MS = 800
"""How long the dock is idle before a local model reads the scene's prompt (a line typed meanwhile
waits for that read at the server, which it would have had to do anyway)."""


class _Relay(QObject):
    done = Signal()
    note = Signal(str)
    """A line for the transcript from another thread (what a pack says of its set-up)."""
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
        self._store = store or default_store()
        settings = self._store.load()
        self.session = Session(
            napari_viewer,
            window=ViewerWindow(napari_viewer, self),
            registry=registry,
            workspace=settings.workspace.path(),
        )
        self.session.net = NetPolicy.from_setting(settings.network.allowed_hosts)
        self.session.settings = settings
        self._session_key: str | None = None
        self.task: LLMTask | None = None
        self._questions: list[tuple[str, Callable[[bool], None]]] = []
        self.mcp: HttpService | None = None
        self.job: tuple[Job, threading.Event, QEventLoop] | None = None
        self.session.jobs.wait = self.run_job
        self.session.jobs.runner = qt_runner
        self.session.jobs.listen(self._background_done)
        self._mcp_gui: GuiThread | None = None
        self._preparing: list[threading.Thread] = []
        """The parser's rules being compiled in the background for new names."""
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
        self.run_button.clicked.connect(lambda: self._confirm(True))
        self.cancel_button.clicked.connect(lambda: self._confirm(False))
        self.settings_button.clicked.connect(self.edit_settings)
        self.mcp_switch.toggled.connect(self.serve_mcp)
        self.transcript.add("reply", GREETING)
        self._show_state()
        self._watch_layer_names()

    # -- typed lines ---------------------------------------------------------------------------

    def send(self, text: str) -> Turn | None:
        """Run a line as if typed: the parser road now, the LLM road in the background."""
        self._parser_ready()
        turn = self.session.try_parser(text)
        if turn is None and not self.session.llm_ready:
            turn = self.session.not_understood_turn(text)
            self._offer(turn)
        if turn is not None and (carried := self.session.waiting(turn)) is not None:
            self.transcript.add("you", text)
            self._carry_out(carried)
            return turn
        if turn is not None:
            self.transcript.add_turn(turn)
            self._show_state()
            self.prepare_parser()  # a command may bring new names (segments, glasses, entities)
            return turn
        if self.task is not None:
            self.transcript.add("you", text)
            self.transcript.add("error", "still busy with the previous request: Stop it, or answer it first.")
            return None
        self.transcript.add("you", text)
        self.task = LLMTask(self.session, text)
        self.task.finished.connect(self._llm_finished)
        self.task.start()
        self._show_state()
        return None

    def _offer(self, turn: Turn) -> None:
        """What a line not understood may have meant, in the input, selected: Enter runs it,
        typing replaces it (a reading is never run unasked)."""
        data = turn.results[0].data if turn.results else None
        meant = data.get("meant") if isinstance(data, dict) else None
        if isinstance(meant, str) and meant:

            def put() -> None:
                self.input.setText(meant)
                self.input.selectAll()

            QTimer.singleShot(0, put)

    def stop(self) -> None:
        if self.job is not None:
            _, cancelled, loop = self.job
            cancelled.set()
            loop.quit()
            return
        if self.task is None:
            return
        self.task.cancel()
        self.task = None
        self.transcript.add("error", "stopped; the model's answer will be ignored.")
        self._show_state()

    def _llm_finished(self, outcome: LLMOutcome) -> None:
        task = self.sender()
        if not isinstance(task, LLMTask) or task.cancelled.is_set():
            return  # a request the person stopped: its answer is ignored
        self.task = None
        self._carry_out(self.session.start_llm_turn(task.text, outcome))

    def _carry_out(self, carried: ModelTurn, answer: bool | None = None) -> None:
        """Run the model's commands one by one; each that needs the person, judged when its turn
        comes, waits for Run or Cancel."""
        asking = carried.advance(answer)
        if asking is not None:
            self.ask(
                f"{'The model wants to run' if carried.origin == 'model' else 'This would run'} "
                f"{self.session.explain(asking)}. Run it?",
                lambda run: self._carry_out(carried, run),
            )
            return
        self.transcript.add_turn(carried.turn, echo=False)
        self._show_state()

    def ask(self, question: str, answer: Callable[[bool], None]) -> None:
        """Put a yes/no question to the person (Run / Cancel); questions wait their turn."""
        self._questions.append((question, answer))
        self._show_state()

    def withdraw(self, answer: Callable[[bool], None]) -> None:
        """Take back, unanswered, the question asked with ``answer`` (an agent's call its client
        abandoned, or one nobody answered in time)."""
        self._questions = [(question, given) for question, given in self._questions if given is not answer]
        self._show_state()

    def _confirm(self, run: bool) -> None:
        if not self._questions:
            return
        _, answer = self._questions.pop(0)
        answer(run)
        self._show_state()

    # -- keeping the parser ready -------------------------------------------------------------

    def _watch_layer_names(self) -> None:
        """When layers come, go or are renamed, compile the parser's rules for the new names in
        the background, so the next typed line does not wait for it."""
        self._warmed_up = False
        layers = self.viewer.layers
        layers.events.inserted.connect(self._layer_inserted)
        layers.events.removed.connect(self.prepare_parser)
        for layer in layers:
            layer.events.name.connect(self.prepare_parser)
            self.session.layer_added(layer)  # a sample opened before the dock was
        self._warming = WarmUp(self._import_handlers, self._warmed)
        self._warming.start()

    def _import_handlers(self) -> None:
        """Off the GUI thread as the dock opens (see :mod:`.warm_up`): each pack's handlers
        imported, a third of a second each that the names the parser needs (and each pack's first
        command) would otherwise spend on the GUI thread; then, back there, the parser's rules for
        the names there are."""
        for pack in self.session.registry.packs:
            try:
                pack.checked_handlers()
            except Exception:  # the pack's first command meets the problem and says it plainly
                log.debug("could not import the handlers of pack %s", pack.name, exc_info=True)

    def _warmed(self) -> None:
        self._warmed_up = True
        rules = self.prepare_parser()
        assert rules is not None
        self._prepare_packs_later()  # each pack's own set-up (a sentence model), after the rules

    def _pack_notes(self) -> Callable[[str], None]:
        """How a pack's set-up tells the person about it from its thread ("getting the ray tracer
        ready…"): a line of the transcript, added on the GUI thread."""
        relay = _Relay()  # no parent: the packs' thread may still tell after the dock is gone
        relay.note.connect(self._pack_note)  # a method of the dock: called on its (the GUI) thread

        def tell(text: str) -> None:  # holds the relay, so it lives as long as someone may tell
            relay.note.emit(text)

        return tell

    def _pack_note(self, text: str) -> None:
        self.transcript.add("reply", text)

    def _layer_inserted(self, event) -> None:
        event.value.events.name.connect(self.prepare_parser)
        wanting = self.session.layer_added(event.value)
        self.prepare_parser()
        if wanting and self._warmed_up:  # before the warm-up, its own preparing sees the layer
            self._prepare_packs_later(wanting)

    def _prepare_packs_later(self, packs: list[str] | None = None) -> threading.Thread:
        """Each pack's set-up (or that of ``packs``) in a thread, after the parser's rules being
        compiled now: a sentence model loaded while the person looks at the sample, not when they
        search it."""
        under_way = list(self._preparing)
        tell = self._pack_notes()

        def prepare() -> None:
            for worker in under_way:
                worker.join()
            self.session.prepare_packs(tell, packs)

        # not a daemon: a process that ends waits for it, for native code (numba compiling, ONNX
        # Runtime loading) still running in a thread as the interpreter shuts down aborts the process
        worker = threading.Thread(target=prepare, name="napari-talk-packs")
        worker.start()
        return worker

    def _parser_ready(self) -> None:
        """The parser's rules for the names known now, compiled in a thread while the loop turns
        if they are not yet (the first line after the dock opens, or new names since): a second
        of regular expressions that would otherwise hold the GUI."""
        if self.job is not None:
            return
        if self._warming.running():  # the packs' names wait for their imports: wait in a job
            warming = self._warming
            self.run_job(Job("getting ready to read the line", lambda _: warming.wait(), Result.success))
        names = self.session.known_names()
        parser = self.session.parser
        if parser.prepared(names):
            return
        under_way = list(self._preparing)

        def compile_rules(_: Progress) -> None:
            for worker in under_way:  # most often they are compiling these very names
                worker.join()
            parser.prepare(names)

        self.run_job(Job("getting ready to read the line", compile_rules, lambda _: Result.success("")))

    def prepare_parser(self, *_) -> threading.Thread | None:
        """Compile the parser's rules for the names known now, in a thread; not before the warm-up
        has imported the packs (it compiles them then), so no name is asked for on the GUI thread
        while a pack's handlers are importing."""
        if not self._warmed_up:
            return None
        names = self.session.known_names()
        worker = threading.Thread(
            target=self.session.parser.prepare, args=(names,), name="napari-talk-prepare", daemon=True
        )
        self._preparing = [w for w in self._preparing if w.is_alive()] + [worker]
        worker.start()
        return worker

    # -- slow work -----------------------------------------------------------------------------

    def run_job(self, job: Job) -> Result:
        """A waited job (:mod:`napari_talk.core.running.jobs`): its work in a thread of its own while the
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
        self._session_key = session_key if session_key is not None else self._session_key
        if self.session.llm is not None:
            self.session.llm.close()
        self.session.llm = LLMRoad(self.session.registry, settings, session_key=self._session_key)
        if self.session.llm_ready:
            # importing the SDK holds the GIL for a while: do it now, not while someone waits
            threading.Thread(target=self.session.llm.warm_up, name="napari-talk-warm-up", daemon=True).start()

    def edit_settings(self) -> None:
        from .settings_dialog import SettingsDialog

        stored = self._store.load()
        llm = self.session.llm.settings if self.session.llm is not None else stored.llm
        current = self.session.settings.model_copy(
            update={"llm": llm, "workspace": stored.workspace, "network": stored.network}
        )
        dialog = SettingsDialog(current, self._session_key, self)
        if dialog.exec():
            settings = dialog.settings()
            self._store.save(settings)
            self.session.workspace = settings.workspace.path()
            self.session.net = NetPolicy.from_setting(settings.network.allowed_hosts)
            self.session.settings = settings
            self.apply_settings(settings.llm, dialog.typed_key() or "")
            self._show_state()

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
        confirming = bool(self._questions)
        if confirming:
            self.confirm_label.setText(self._questions[0][0])
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
