"""A workspace file named by path for a library that opens files by name (SQLite), pinned to a
folder descriptor so a folder swapped meanwhile cannot redirect it."""

from __future__ import annotations

import os
import stat
from pathlib import Path

from .paths import special_kind
from .refusals import hard_linked, refuse


class PinnedFile:
    """A file named through a folder descriptor kept open until :meth:`release`."""

    def __init__(
        self, path: Path, dir_fd: int, name: str, relative: str, before: os.stat_result | None
    ) -> None:
        self.path, self._dir_fd, self._name, self._relative, self._before = (
            path,
            dir_fd,
            name,
            relative,
            before,
        )

    def verify(self) -> None:
        after = own_status(self._dir_fd, self._name, self._relative)
        before = self._before
        if after is None or (
            before is not None and (after.st_dev, after.st_ino) != (before.st_dev, before.st_ino)
        ):
            raise refuse(self._relative, "the file was replaced while it was being opened")

    def release(self) -> None:
        if self._dir_fd != -1:
            os.close(self._dir_fd)
            self._dir_fd = -1


def own_status(dir_fd: int, name: str, relative: str) -> os.stat_result | None:
    """The file's own status (None when there is none), refused unless a regular file with one name."""
    try:
        info = os.lstat(name, dir_fd=dir_fd)
    except FileNotFoundError:
        return None
    if stat.S_ISLNK(info.st_mode):
        raise refuse(relative, "it is a symlink; the workspace follows none")
    if not stat.S_ISREG(info.st_mode):
        raise refuse(relative, f"it is a {special_kind(info.st_mode)}, not a regular file")
    if info.st_nlink > 1:
        raise hard_linked(relative, info.st_nlink, "open")
    return info
