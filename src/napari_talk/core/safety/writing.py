"""Writing a workspace file: atomically (a temporary file beside it, renamed over it), or one
appended ``write``; never to a symlink, a special file or a file with a second (hard) name.

Temporary files a crash left behind are swept (:class:`TempSweeper`), once per folder.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import stat
import threading
import time

from . import tree
from .descriptors import refusal
from .paths import special_kind
from .refusals import WorkspaceError, hard_linked, refuse

TEMP_SUFFIX = ".napari-talk.tmp"
STALE_TEMP_SECONDS = 60.0
CHUNK = 1 << 20


def replace_atomically(dir_fd: int, name: str, data: bytes, relative: str, *, overwrite: bool) -> None:
    """Replace (or create) ``name`` in the folder ``dir_fd`` with ``data``, all or nothing; an
    existing file keeps its permissions."""
    try:
        existing = os.lstat(name, dir_fd=dir_fd)
        mode: int | None = stat.S_IMODE(existing.st_mode)
        if stat.S_ISLNK(existing.st_mode):
            raise refuse(relative, "it is a symlink; the workspace follows none")
        if stat.S_ISDIR(existing.st_mode):
            raise WorkspaceError(f"{relative} is a folder; give a file path", "IsAFolder")
        if not stat.S_ISREG(existing.st_mode):
            raise refuse(relative, f"it is a {special_kind(existing.st_mode)}, not a regular file")
        if existing.st_nlink > 1:
            raise hard_linked(relative, existing.st_nlink, "write to")
        if not overwrite:
            raise WorkspaceError(f"{relative} exists already", "Exists")
    except FileNotFoundError:
        mode = None
    temp, fd = _temp_file(dir_fd, name)
    try:
        view = memoryview(data)
        written = 0
        while written < len(view):
            written += os.write(fd, view[written : written + CHUNK])
        if mode is not None:
            os.fchmod(fd, mode)
        os.fsync(fd)
        os.close(fd)
        fd = -1
        os.replace(temp, name, src_dir_fd=dir_fd, dst_dir_fd=dir_fd)
    except BaseException:
        if fd != -1:
            os.close(fd)
        with contextlib.suppress(OSError):
            os.unlink(temp, dir_fd=dir_fd)
        raise
    with contextlib.suppress(OSError):
        os.fsync(dir_fd)


def append(dir_fd: int, name: str, data: bytes, relative: str) -> None:
    """One ``write`` at the end of the file (O_APPEND): concurrent writers never interleave."""
    flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | tree.NO_FOLLOW
    try:
        fd = os.open(name, flags, 0o644, dir_fd=dir_fd)
    except OSError as exc:
        raise refusal(dir_fd, name, relative, exc) from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise refuse(relative, "it is not a regular file")
        if info.st_nlink > 1:
            raise hard_linked(relative, info.st_nlink, "append to")
        os.write(fd, data)
        os.fsync(fd)
    finally:
        os.close(fd)


class TempSweeper:
    """Removes temporary files a crash left in a folder, once per folder for its lifetime."""

    def __init__(self) -> None:
        self._swept: set[str] = set()
        self._lock = threading.Lock()

    def sweep(self, dir_fd: int, folder: str) -> None:
        with self._lock:
            if folder in self._swept:
                return
            self._swept.add(folder)
        now = time.time()
        with contextlib.suppress(OSError), os.scandir(dir_fd) as entries:
            for entry in entries:
                if not (entry.name.startswith(".") and entry.name.endswith(TEMP_SUFFIX)):
                    continue
                with contextlib.suppress(OSError):
                    if now - entry.stat(follow_symlinks=False).st_mtime > STALE_TEMP_SECONDS:
                        os.unlink(entry.name, dir_fd=dir_fd)


def _temp_file(dir_fd: int, name: str) -> tuple[str, int]:
    """A new file beside the target (same file system, so the rename is atomic), umask applied."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | tree.NO_FOLLOW
    for _ in range(100):
        temp = f".{name[:180]}.{secrets.token_hex(6)}{TEMP_SUFFIX}"
        try:
            return temp, os.open(temp, flags, 0o666, dir_fd=dir_fd)
        except FileExistsError:
            continue
    raise FileExistsError(f"no free temporary name beside {name}")
