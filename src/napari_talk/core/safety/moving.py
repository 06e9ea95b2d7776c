"""Moving an entry of the workspace to another place in it (rename, move, to a trash folder).

Both ends go through the gate (:class:`~napari_talk.core.safety.workspace.Workspace`): each
folder is reached by a descriptor walked without following a symlink, and the entry is renamed
between those descriptors (``renameat``), so a folder swapped for a link meanwhile fails closed.
The entry moved must be a regular file with one name, or a real folder: a symlink, a FIFO or a
device, and a file with a second (hard) name that may be outside, are refused. Nothing is ever
replaced: a destination that exists is refused (the caller clears it first, with consent).
"""

from __future__ import annotations

import contextlib
import errno
import os
import posixpath
import stat

from .paths import special_kind
from .refusals import WorkspaceError, hard_linked, refuse
from .spelling import check_spelling
from .workspace import Workspace


def parent_and_name(relative: str) -> tuple[str, str]:
    """``notes/a.md`` → (``notes``, ``a.md``), hostile spellings refused; never the root itself."""
    spelled = posixpath.normpath(check_spelling(relative).as_posix())
    if spelled in (".", ""):
        raise WorkspaceError(f"{relative!r} is the workspace folder itself", "IsAFolder")
    parent, name = posixpath.split(spelled)
    return parent or ".", name


def entry_kind(workspace: Workspace, relative: str) -> str:
    """``file`` or ``folder``, refusing what may not be moved (a symlink, a special or hard-linked file)."""
    info = workspace.stat(relative)
    if info is None:
        raise WorkspaceError(f"{relative} does not exist in the workspace", "NotFound")
    return _movable(info, relative)


def _movable(info: os.stat_result, relative: str) -> str:
    if stat.S_ISLNK(info.st_mode):
        raise refuse(relative, "it is a symlink; the workspace follows none")
    if stat.S_ISDIR(info.st_mode):
        return "folder"
    if not stat.S_ISREG(info.st_mode):
        raise refuse(relative, f"it is a {special_kind(info.st_mode)}, not a regular file")
    if info.st_nlink > 1:
        raise hard_linked(relative, info.st_nlink, "move")
    return "file"


def move(workspace: Workspace, source: str, destination: str) -> None:
    """Rename ``source`` to ``destination`` (its folders made as needed); refused when the
    destination exists, or is inside the folder moved."""
    src_parent, src_name = parent_and_name(source)
    dst_parent, dst_name = parent_and_name(destination)
    spelled_src = posixpath.join(src_parent, src_name)
    spelled_dst = posixpath.join(dst_parent, dst_name)
    if spelled_dst == spelled_src or spelled_dst.startswith(spelled_src + "/"):
        raise WorkspaceError(f"{destination} is {source} itself or inside it", "InsideItself")
    with workspace.folder(src_parent) as src_fd, workspace.folder(dst_parent, create=True) as dst_fd:
        try:
            info = os.lstat(src_name, dir_fd=src_fd)
        except FileNotFoundError:
            raise WorkspaceError(f"{source} does not exist in the workspace", "NotFound") from None
        _movable(info, source)
        try:
            os.lstat(dst_name, dir_fd=dst_fd)
        except FileNotFoundError:
            pass
        else:
            raise WorkspaceError(f"{destination} exists already", "Exists")
        try:
            os.rename(src_name, dst_name, src_dir_fd=src_fd, dst_dir_fd=dst_fd)
        except OSError as exc:
            if exc.errno == errno.EINVAL:  # a folder into itself, reached through a symlink inside
                raise WorkspaceError(f"{destination} is inside {source}", "InsideItself") from None
            raise WorkspaceError(
                f"could not move {source}: {exc.strerror or exc}", type(exc).__name__
            ) from None
        for fd in (dst_fd, src_fd):  # the rename survives a power cut
            with contextlib.suppress(OSError):
                os.fsync(fd)
