"""Keeping the parser ready while the dock is open: each pack's handlers imported as it opens
(see :mod:`.warm_up`), the parser's rules compiled in the background for the names there are
whenever a layer comes, goes or is renamed, and each pack's own set-up (a sentence model) run in a
thread, so a typed line never waits for any of it on the GUI thread."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING

from qtpy.QtCore import QObject, Signal

from ..core.contract.result import Result
from ..core.running.jobs import Job, Progress
from .warm_up import WarmUp

if TYPE_CHECKING:
    from ..core.running.session import Session

log = logging.getLogger(__name__)


class _Notes(QObject):
    note = Signal(str)
    """A line for the transcript from another thread (what a pack says of its set-up)."""


class KeepingReady(QObject):
    """The parser's rules and the packs' set-up for one session, made in threads. ``run_job`` runs
    a waited job while the GUI turns; ``tell`` adds a line to the transcript (on the GUI thread)."""

    def __init__(
        self,
        session: Session,
        run_job: Callable[[Job], Result],
        tell: Callable[[str], None],
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self.session = session
        self._run_job = run_job
        self._tell = tell
        self.warmed_up = False
        self._preparing: list[threading.Thread] = []
        """The parser's rules being compiled in the background for new names."""
        self.warming = WarmUp(self._import_handlers, self._warmed)

    def start(self) -> None:
        self.warming.start()

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
        self.warmed_up = True
        rules = self.prepare_parser()
        assert rules is not None
        self.prepare_packs_later()  # each pack's own set-up (a sentence model), after the rules

    def layer_wants(self, packs: list[str]) -> None:
        """A new layer calls for the set-up of ``packs`` (before the warm-up, its own preparing
        sees the layer)."""
        if self.warmed_up:
            self.prepare_packs_later(packs)

    def _pack_notes(self) -> Callable[[str], None]:
        """How a pack's set-up tells the person about it from its thread ("getting the ray tracer
        ready…"): a line of the transcript, added on the GUI thread."""
        relay = _Notes()  # no parent: the packs' thread may still tell after the dock is gone
        relay.note.connect(self._pack_note)  # a method of this object: called on its (the GUI) thread

        def tell(text: str) -> None:  # holds the relay, so it lives as long as someone may tell
            relay.note.emit(text)

        return tell

    def _pack_note(self, text: str) -> None:
        self._tell(text)

    def prepare_packs_later(self, packs: list[str] | None = None) -> threading.Thread:
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

    def parser_ready(self) -> None:
        """The parser's rules for the names known now, compiled in a thread while the loop turns
        if they are not yet (the first line after the dock opens, or new names since): a second
        of regular expressions that would otherwise hold the GUI."""
        if self.warming.running():  # the packs' names wait for their imports: wait in a job
            warming = self.warming
            self._run_job(Job("getting ready to read the line", lambda _: warming.wait(), Result.success))
        names = self.session.known_names()
        parser = self.session.parser
        if parser.prepared(names):
            return
        under_way = list(self._preparing)

        def compile_rules(_: Progress) -> None:
            for worker in under_way:  # most often they are compiling these very names
                worker.join()
            parser.prepare(names)

        self._run_job(Job("getting ready to read the line", compile_rules, lambda _: Result.success("")))

    def prepare_parser(self, *_: object) -> threading.Thread | None:
        """Compile the parser's rules for the names known now, in a thread; not before the warm-up
        has imported the packs (it compiles them then), so no name is asked for on the GUI thread
        while a pack's handlers are importing."""
        if not self.warmed_up:
            return None
        names = self.session.known_names()
        worker = threading.Thread(
            target=self.session.parser.prepare, args=(names,), name="napari-talk-prepare", daemon=True
        )
        self._preparing = [w for w in self._preparing if w.is_alive()] + [worker]
        worker.start()
        return worker
