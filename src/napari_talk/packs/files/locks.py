"""One file's read-modify-write at a time within this process (an edit racing a write)."""

from __future__ import annotations

import contextlib
import threading
import weakref
from collections.abc import Iterator
from pathlib import Path

_locks: weakref.WeakValueDictionary[Path, threading.RLock] = weakref.WeakValueDictionary()
_locks_guard = threading.Lock()


@contextlib.contextmanager
def path_lock(path: Path) -> Iterator[None]:
    """Serialize read-modify-write of one file within this process (an edit racing a write)."""
    with _locks_guard:
        lock = _locks.get(path)
        if lock is None:
            lock = _locks[path] = threading.RLock()
    with lock:
        yield
