"""Walking a folder tree by descriptors, following no symlink: the one way the workspace is walked.

A path names a place only at the moment it is looked up; a folder swapped for a symlink between a
check of its path and a use of it leads the use elsewhere. So nothing here takes a path: each folder
is opened relative to its parent's descriptor with ``O_NOFOLLOW | O_DIRECTORY`` (a symlink there
fails to open instead of being followed), listed with ``os.scandir`` on that descriptor, and each
file opened relative to its folder's descriptor with ``O_NOFOLLOW`` and judged by ``fstat`` of what
was opened (a regular file, one hard link), never by a status looked up before.

Platform: POSIX (Linux is the target; macOS and the BSDs have the same calls): ``O_NOFOLLOW``,
``O_DIRECTORY``, ``dir_fd=`` and ``os.scandir`` of a descriptor. Windows has none of these.

Standard library only, with no imports from the package: the files pack's regular-expression
search runs this module in a child process that loads it by its file path.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Generator
from typing import NamedTuple

NO_FOLLOW = os.O_CLOEXEC | getattr(os, "O_NOFOLLOW", 0)
FOLDER_FLAGS = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | NO_FOLLOW
FILE_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | NO_FOLLOW
"""``O_NONBLOCK``: a FIFO swapped in for a file opens without waiting for a writer (and is refused)."""
MAX_DEPTH = 200
"""Folders nested deeper are not walked into: each level holds a descriptor open while it is walked."""


def open_folder(name: str, dir_fd: int) -> int:
    """The descriptor of the folder ``name`` in the folder ``dir_fd``; ``OSError`` when it is a
    symlink (``ELOOP``), not a folder, or gone."""
    return os.open(name, FOLDER_FLAGS, dir_fd=dir_fd)


class Entry(NamedTuple):
    """One entry met on a walk; ``dir_fd`` (its folder) is open only while the walk is at it."""

    path: str
    """Its path from the walk's start, joined to the prefix the walk was given, with ``/``."""
    name: str
    info: os.stat_result
    """Its own status: a symlink's, not its target's."""
    dir_fd: int

    @property
    def kind(self) -> str:
        return kind_of(self.info.st_mode)


def kind_of(mode: int) -> str:
    """``directory``, ``file``, ``symlink`` or ``other`` (FIFOs, sockets, devices)."""
    if stat.S_ISLNK(mode):
        return "symlink"
    if stat.S_ISDIR(mode):
        return "directory"
    if stat.S_ISREG(mode):
        return "file"
    return "other"


def entries(dir_fd: int) -> list[tuple[str, os.stat_result]]:
    """The folder's names and their own status, sorted by name; names gone meanwhile are left out."""
    found = []
    try:
        with os.scandir(dir_fd) as scan:
            for entry in scan:
                try:
                    found.append((entry.name, os.stat(entry.name, dir_fd=dir_fd, follow_symlinks=False)))
                except OSError:
                    continue
    except OSError:
        return []
    found.sort(key=lambda named: named[0])
    return found


def walk(
    dir_fd: int, prefix: str = "", *, recursive: bool = True, hidden: bool = False
) -> Generator[Entry, None, None]:
    """Every entry under the folder ``dir_fd``, depth first in name order (so files come in path
    order). Hidden names (starting with ".") are skipped unless ``hidden``. A folder is walked into
    only when it opens as a folder without following a symlink; one that does not (swapped for a
    symlink, removed meanwhile) is skipped. ``dir_fd`` stays the caller's to close; a caller that
    may stop early wraps the walk in ``contextlib.closing`` so the folders it opened are closed
    then, not whenever the generator is collected (by when their numbers may be another file's)."""
    prefix = prefix.strip("/")
    levels = [(dir_fd, prefix, iter(entries(dir_fd)))]
    try:
        while levels:
            fd, folder, pending = levels[-1]
            named = next(pending, None)
            if named is None:
                levels.pop()
                if fd != dir_fd:
                    os.close(fd)
                continue
            name, info = named
            if not hidden and name.startswith("."):
                continue
            path = f"{folder}/{name}" if folder else name
            yield Entry(path, name, info, fd)
            if recursive and stat.S_ISDIR(info.st_mode) and len(levels) <= MAX_DEPTH:
                try:
                    child = open_folder(name, fd)
                except OSError:
                    continue
                levels.append((child, path, iter(entries(child))))
    finally:
        for fd, _, _ in levels:
            if fd != dir_fd:
                os.close(fd)


def open_file(name: str, dir_fd: int) -> tuple[int, os.stat_result]:
    """A descriptor of ``name`` in the folder ``dir_fd`` and the status of what was opened.

    ``OSError`` when it is a symlink (``ELOOP``) or gone; the caller judges the status (a FIFO or a
    folder opens too, and ``st_nlink`` tells a hard-linked file)."""
    fd = os.open(name, FILE_FLAGS, dir_fd=dir_fd)
    try:
        return fd, os.fstat(fd)
    except BaseException:
        os.close(fd)
        raise


def read_regular(name: str, dir_fd: int, limit: int) -> bytes | str:
    """The bytes of the regular file ``name`` in ``dir_fd``, or why it was not read: ``unreadable``
    (a symlink, a special file, gone), ``hard_linked`` (another name may be outside the
    workspace) or ``too_large`` (over ``limit`` bytes)."""
    try:
        fd, info = open_file(name, dir_fd)
    except OSError:
        return "unreadable"
    try:
        if not stat.S_ISREG(info.st_mode):
            return "unreadable"
        if info.st_nlink > 1:
            return "hard_linked"
        if info.st_size > limit:
            return "too_large"
        data = os.read(fd, info.st_size + 1)  # one byte more: a file grown since is seen grown
        return "too_large" if len(data) > limit else data
    except OSError:
        return "unreadable"
    finally:
        os.close(fd)
