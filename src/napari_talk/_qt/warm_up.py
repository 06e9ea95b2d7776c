"""Getting the dock ready in the background without racing napari.

As the dock opens, each pack's handlers are imported in a thread (a third of a second each that a
pack's first command would otherwise spend on the GUI thread). A thread must never import or
initialize what napari itself uses on the GUI thread: two threads in one module's first import can
see it half made (Python hands a concurrent circular import the partial module), and a lazily built
object such as pint's unit registry, built in a thread while napari reads it for a new layer, said
"'pixel' is not defined in the unit registry" and left an empty canvas. So the modules the
background work shares with napari are imported here on the GUI thread first, in one short step,
and napari's own lazy set-up (pandas, pint's registry, scipy's rotations) is left to napari: it
comes on the GUI thread when the first layer needs it, as it does without the dock.

``tests/dock/test_dock_start.py`` records which thread imports every module and holds the rule.
"""

from __future__ import annotations

import contextlib
import importlib
import threading
from collections.abc import Callable

from qtpy.QtCore import QObject, Signal

SHARED_WITH_NAPARI = ("difflib", "numba", "_cffi_backend")
"""Modules that the dock's background work imports and napari imports itself when layers come
(difflib: the parser's suggestions; numba: the rays tracer's kernels, napari's label colours and
shape triangulation; _cffi_backend: the rays pack's seeded random, through cryptography, and
numba's compilations). numba's first import is 0.2 s, paid once; the others a millisecond."""


class _Relay(QObject):
    done = Signal()


class WarmUp:
    """Runs ``work`` in a thread once the GUI thread has imported :data:`SHARED_WITH_NAPARI` (a
    few milliseconds: napari has imported numba already), then ``done`` on the GUI thread.

    It starts as the dock opens, not on the event loop's next turn: a sample opened in the same
    turn (``napari-talk start --sample``, a script) would otherwise hold it back for seconds, and
    the first line with it."""

    def __init__(self, work: Callable[[], None], done: Callable[[], None]) -> None:
        self._work = work
        self._begun = False
        self._finished = threading.Event()
        self._relay = _Relay()
        self._relay.done.connect(done)

    def running(self) -> bool:
        return not self._finished.is_set()

    def wait(self) -> None:
        """Block until the work is done (from a thread other than the GUI thread: the work starts
        only once the GUI thread's loop has turned)."""
        self._finished.wait()

    def start(self) -> None:
        """Begin now, on the GUI thread (once: a later call does nothing)."""
        if self._begun:
            return
        self._begun = True
        for name in SHARED_WITH_NAPARI:
            with contextlib.suppress(ImportError):  # a pack's first command meets it and says so
                importlib.import_module(name)
        threading.Thread(target=self._run, name="napari-talk-warm-up", daemon=True).start()

    def _run(self) -> None:
        try:
            self._work()
        finally:
            self._finished.set()
            self._relay.done.emit()
