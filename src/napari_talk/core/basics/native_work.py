"""Native work in a background thread that a process ending waits for.

A compiler (numba's LLVM) or a runtime (ONNX) still running native code in a daemon thread while
the interpreter shuts down crashes the process (a segmentation fault as napari quits). Work of
that kind runs inside :func:`native_work`; a process that ends waits for all of it, up to
:data:`EXIT_WAIT` seconds. Unlike a lock, it never makes two such jobs wait for each other."""

from __future__ import annotations

import atexit
import contextlib
import threading
from collections.abc import Iterator

EXIT_WAIT = 60.0
_running = 0
_changed = threading.Condition()


@contextlib.contextmanager
def native_work() -> Iterator[None]:
    global _running
    with _changed:
        _running += 1
    try:
        yield
    finally:
        with _changed:
            _running -= 1
            _changed.notify_all()


def running() -> int:
    """How many pieces of native work are under way."""
    return _running


@atexit.register
def _wait_for_native_work() -> None:
    with _changed:
        _changed.wait_for(lambda: _running == 0, timeout=EXIT_WAIT)
