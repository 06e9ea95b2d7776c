"""Background jobs in napari's thread pool, their outcome delivered on the GUI thread."""

from __future__ import annotations

from typing import Any

from ..core.basics.jobs import Done, Work


def qt_runner(work: Work, done: Done) -> Any:
    """A :data:`~napari_talk.core.basics.jobs.Runner`: ``work`` in a worker, ``done`` on the GUI thread."""
    from napari.qt.threading import create_worker

    worker = create_worker(work, _start_thread=False)
    worker.returned.connect(done)
    worker.start()
    return worker
