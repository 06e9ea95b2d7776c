"""Atomic file replacement: a reader, or a process killed mid-write, sees the old or the new bytes.

The new content goes to a temporary file in the target's folder, is flushed and fsynced, and is
renamed over the target (``os.replace``, atomic on POSIX and Windows); the folder is then fsynced
so the rename survives a power cut.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import stat
import threading
import weakref
from collections.abc import Iterator
from pathlib import Path

CHUNK = 1 << 20
_TEMP_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0) | getattr(os, "O_CLOEXEC", 0)


def atomic_write(path: Path, data: bytes) -> int:
    """Replace ``path`` with ``data`` atomically; the folder must exist. Returns bytes written."""
    mode = _existing_mode(path)
    temp, fd = _temp_file(path)
    try:
        view = memoryview(data)
        written = 0
        while written < len(view):
            written += os.write(fd, view[written : written + CHUNK])
        if mode is not None and hasattr(os, "fchmod"):
            os.fchmod(fd, mode)
        os.fsync(fd)
        os.close(fd)
        fd = -1
        os.replace(temp, path)
    except BaseException:
        if fd != -1:
            os.close(fd)
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise
    _fsync_folder(path.parent)
    return len(data)


def _existing_mode(path: Path) -> int | None:
    try:
        return stat.S_IMODE(os.stat(path).st_mode)
    except OSError:
        return None


def _temp_file(path: Path) -> tuple[Path, int]:
    """A new file beside ``path`` (same file system, so the rename is atomic), umask applied."""
    for _ in range(100):
        temp = path.with_name(f".{path.name[:180]}.{secrets.token_hex(6)}.tmp")
        try:
            return temp, os.open(temp, _TEMP_FLAGS, 0o666)
        except FileExistsError:
            continue
    raise FileExistsError(f"no free temporary name beside {path}")


def _fsync_folder(folder: Path) -> None:
    if os.name == "nt":
        return  # Windows cannot open a folder for fsync; NTFS journals the rename
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


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
