"""Keeping the parser ready while the dock is open: each pack's handlers imported as it opens
(see :mod:`.warm_up`), the parser's rules compiled in the background for the names there are
whenever a layer comes, goes or is renamed, and each pack's own set-up (a sentence model) run in a
thread, so a typed line never waits for any of it on the GUI thread.

What the next line may need comes first: a pack that a layer calls for (the Atlas sample: its
sentence model, pictures and vectors) has its handlers imported first and is set up as soon as
they are, beside the other packs' imports and the parser's rules, which the warm-up compiles
before any name is known (the names known later add a tenth to it). The rest (the other packs,
then the canonical stage) comes after both, one step at a time, and gives way to the person's
lines (:mod:`.giving_way`): a search typed meanwhile shares the machine with none of it."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING

from qtpy.QtCore import QObject, Signal

from ..core.basics.jobs import Job, Progress
from ..core.basics.result import Result
from .giving_way import GiveWay
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
        self._lock = threading.Lock()
        self._wanted: list[str] = []
        """Packs a layer called for whose set-up has not begun yet."""
        self._setting_up: list[threading.Thread] = []
        """The set-up of packs a layer called for, under way."""
        self._set_up_for_layers: set[str] = set()
        self._imported = threading.Event()
        """Every pack's handlers are imported."""
        self._imported_packs: set[str] = set()
        """The packs whose handlers are imported: their set-up may begin."""
        self.way = GiveWay()
        """What the background set-up no line needs waits on while a line's slow work runs."""
        self.destroyed.connect(self.way.stop)
        self._tell_from_thread = self._pack_notes()
        self.warming = WarmUp(self._warm_up, self._warmed)

    def start(self) -> None:
        """Begin the warm-up; from now on, the session's waited jobs (a line's slow work) hold the
        background set-up back while they run."""
        waited = self.session.jobs.wait

        def wait(job: Job) -> Result:
            with self.way.line():
                return waited(job)

        self.session.jobs.wait = wait
        # a sample opened before the dock (``napari-talk start --sample atlas``): its pack's
        # set-up begins as soon as its handlers are imported, not after the parser's rules
        self.layer_wants(self._wanted_by_layers_there())
        self.warming.start()

    def _warm_up(self) -> None:
        """Off the GUI thread as the dock opens (see :mod:`.warm_up`): each pack's handlers
        imported, a third of a second each that the names the parser needs (and each pack's first
        command) would otherwise spend on the GUI thread, a layer's packs first; the set-up of a
        pack a layer called for begins once its handlers are, without waiting for the GUI thread
        to turn, nor for the other packs' imports; then the parser's
        rules are compiled for no names (most of the work, whichever names come: see the parser's
        plans), all before a name is asked for."""
        with self._lock:
            wanted = list(self._wanted)
        packs = self.session.registry.packs
        for pack in sorted(packs, key=lambda pack: pack.name not in wanted):  # a layer's packs first
            try:
                pack.checked_handlers()
            except Exception:  # the pack's first command meets the problem and says it plainly
                log.debug("could not import the handlers of pack %s", pack.name, exc_info=True)
            with self._lock:
                self._imported_packs.add(pack.name)
            self._set_up_wanted([pack.name])  # a layer called for it: its set-up begins beside the rest
        self._imported.set()
        self._set_up_wanted()
        self.session.parser.prepare({})

    def _warmed(self) -> None:
        """Back on the GUI thread after the warm-up (or sooner, when a line asks first): the
        parser's rules for the names there are, beside the set-up a layer called for; the rest
        after both."""
        if self.warmed_up:
            return
        self.warmed_up = True
        self.layer_wants(
            [name for name in self._wanted_by_layers_there() if name not in self._set_up_for_layers]
        )
        rules = self.prepare_parser()
        assert rules is not None
        self._prepare_the_rest()

    def _wanted_by_layers_there(self) -> list[str]:
        """The packs whose set-up a layer that was there before the dock calls for (a sample
        opened first, as ``napari-talk start --sample`` does)."""
        layers = list(getattr(self.session.viewer, "layers", None) or [])
        wanted = []
        for pack in self.session.registry.packs:
            try:
                ctx = self.session.context(pack)
                if any(pack.prepares_for(ctx, layer) for layer in layers):
                    wanted.append(pack.name)
            except Exception:  # a pack's set-up is a nicety: its first command does the work
                log.debug("pack %s could not say what it prepares for", pack.name, exc_info=True)
        return wanted

    def layer_wants(self, packs: list[str]) -> None:
        """A layer calls for the set-up of ``packs``: begun at once, or as soon as their handlers
        are imported."""
        if not packs:
            return
        with self._lock:
            self._wanted += [name for name in packs if name not in self._wanted]
            imported = list(self._imported_packs)
        self._set_up_wanted(imported)  # the others' begins once the warm-up imported their handlers

    def _set_up_wanted(self, only: list[str] | None = None) -> None:
        """Begin the set-up of the packs layers called for (of those in ``only``), in a thread
        (from any thread)."""
        with self._lock:
            packs = [name for name in self._wanted if only is None or name in only]
            self._wanted = [name for name in self._wanted if name not in packs]
            if not packs:
                return
            self._set_up_for_layers.update(packs)
            # not a daemon: a process that ends waits for it, for native code (ONNX Runtime loading)
            # still running in a thread as the interpreter shuts down aborts the process
            worker = threading.Thread(
                target=self.session.prepare_packs,
                args=(self._tell_from_thread, packs),
                name="napari-talk-packs",
            )
            self._setting_up = [w for w in self._setting_up if w.is_alive()] + [worker]
        worker.start()

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

    def _prepare_the_rest(self) -> threading.Thread:
        """The set-up no line is waiting for, in a thread once the parser's rules and the set-up
        layers called for are done: each other pack's, then the canonical stage's, each step
        after the person's lines (a sentence model's phrasings embedded while a search waits
        for the same model made the first search seconds late)."""
        with self._lock:
            before = [*self._preparing, *self._setting_up]
        tell, way = self._tell_from_thread, self.way

        def prepare() -> None:
            for worker in before:
                worker.join()
            for pack in self.session.registry.packs:
                if pack.name in self._set_up_for_layers:
                    continue
                if not way.wait():
                    return
                self.session.prepare_packs(tell, [pack.name])
            if way.wait():
                self.session.rephrasing.prepare(way.wait)

        # not a daemon: see _set_up_wanted (numba compiling, ONNX Runtime embedding)
        worker = threading.Thread(target=prepare, name="napari-talk-packs")
        worker.start()
        return worker

    def parser_ready(self) -> None:
        """The parser's rules for the names known now, compiled in a thread while the loop turns
        if they are not yet (the first line after the dock opens, or new names since): a second
        of regular expressions that would otherwise hold the GUI."""
        self.way.typed()
        if self.warming.running():  # the packs' names wait for their imports: wait in a job
            warming = self.warming
            self._line_job(Job("getting ready to read the line", lambda _: warming.wait(), Result.success))
        if not self.warming.running():
            self._warmed()  # at once, if the warm-up's word from its thread is still on its way
        names = self.session.known_names()
        parser = self.session.parser
        if parser.prepared(names):
            return
        under_way = list(self._preparing)

        def compile_rules(_: Progress) -> None:
            for worker in under_way:  # most often they are compiling these very names
                worker.join()
            parser.prepare(names)

        self._line_job(Job("getting ready to read the line", compile_rules, lambda _: Result.success("")))

    def _line_job(self, job: Job) -> Result:
        with self.way.line():
            return self._run_job(job)

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
