"""Reaching a place inside the workspace by descriptor, following no symlink on the way.

A path is walked one folder at a time from a descriptor of the root, each folder opened with
``O_NOFOLLOW`` relative to its parent, so a folder swapped for a symlink between a check and a use
fails closed instead of leading outside. A symlink inside the workspace is read and its target
judged lexically against the root (:func:`real_parts`), so one leading out is refused.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from ..errors import CommandError
from . import tree
from .paths import special_kind
from .refusals import WorkspaceError, changed, not_found, refuse
from .spelling import check_spelling

ROOT_FLAGS = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | os.O_CLOEXEC
"""The root itself may be reached through symlinks (the person chose it); nothing below it is."""
MAX_LINK_HOPS = 40


@dataclass(frozen=True)
class Place:
    """Where a listing or a search starts (:meth:`Workspace.place`); ``dir_fd`` is open only
    inside the ``with`` block."""

    dir_fd: int
    path: str
    """What was named, as commands name it (``.`` for the root)."""
    folder: str
    """The folder ``dir_fd`` is, as commands name it (``""`` for the root)."""
    only: str | None
    """The file's name in that folder when a file was named, else None."""


def real_parts(root: Path, relative: str) -> list[str]:
    """The path's parts with every symlink inside the workspace replaced by where it leads.

    A link is read and its target judged lexically against the root (the parts before it are
    real folders), so a link leading out is refused; the parts are then opened without
    following any link, so a link swapped in meanwhile fails closed.
    """
    pending = lexical(check_spelling(relative).as_posix().split("/"), relative)
    real: list[str] = []
    hops = 0
    fd = os.open(root, ROOT_FLAGS)
    try:
        while pending:
            part = pending.pop(0)
            try:
                mode = os.lstat(part, dir_fd=fd).st_mode
            except (FileNotFoundError, NotADirectoryError):
                return [*real, part, *pending]
            if stat.S_ISLNK(mode):
                hops += 1
                if hops > MAX_LINK_HOPS:
                    raise refuse(relative, "too many symlinks (a loop?)")
                try:
                    target = os.readlink(part, dir_fd=fd)
                except OSError:  # no longer a symlink: swapped meanwhile
                    raise changed(relative, part) from None
                if target.startswith("/"):
                    inside = Path(target)
                    if not inside.is_relative_to(root):
                        raise refuse(relative, "it resolves outside the workspace (through a symlink)")
                    spelled = inside.relative_to(root).parts
                else:
                    spelled = (*real, *target.split("/"))
                pending = lexical([*spelled, *pending], relative)
                real = []
                os.close(fd)
                fd = os.open(root, ROOT_FLAGS)
                continue
            real.append(part)
            if pending and stat.S_ISDIR(mode):
                try:
                    step = tree.open_folder(part, fd)
                except OSError as exc:  # swapped for a symlink (or removed) since its lstat
                    raise refusal(fd, part, relative, exc) from None
                os.close(fd)
                fd = step
            elif pending:
                return [*real, *pending]
    finally:
        os.close(fd)
    return real


def split(root: Path, relative: str) -> tuple[list[str], str]:
    """The real folders above ``relative``, and its own name; refused for the root itself."""
    parts = real_parts(root, relative)
    if not parts:
        raise WorkspaceError(f"{relative!r} is the workspace folder itself; give a file path", "IsAFolder")
    return parts[:-1], parts[-1]


def walk_to(root: Path, parts: list[str], relative: str, create: bool) -> int:
    """A descriptor of the folder ``parts`` (real folders, as :func:`real_parts` gives them),
    made on the way when ``create``; the caller closes it."""
    fd = os.open(root, ROOT_FLAGS)
    try:
        for part in parts:
            try:
                step = tree.open_folder(part, fd)
            except FileNotFoundError:
                if not create:
                    raise not_found(relative) from None
                with contextlib.suppress(FileExistsError):
                    os.mkdir(part, 0o777, dir_fd=fd)
                step = tree.open_folder(part, fd)
            except (NotADirectoryError, OSError) as exc:
                raise refusal(fd, part, relative, exc) from None
            os.close(fd)
            fd = step
    except BaseException:
        os.close(fd)
        raise
    return fd


@contextlib.contextmanager
def folder(root: Path, relative: str, *, create: bool = False) -> Iterator[int]:
    """A descriptor of a folder inside the workspace, reached without following a symlink."""
    fd = walk_to(root, real_parts(root, relative), relative, create)
    try:
        yield fd
    finally:
        os.close(fd)


@contextlib.contextmanager
def place(root: Path, relative: str) -> Iterator[Place]:
    """Where a listing or a search of ``relative`` starts, reached following no symlink: the
    folder's descriptor for :mod:`.tree` to walk. A file is a place too (its folder, and its
    name in ``only``); a missing path is NotFound, and a special file is refused."""
    parts = real_parts(root, relative)
    path = "/".join(parts) or "."
    if not parts:
        with folder(root, ".") as fd:
            yield Place(fd, path, "", None)
        return
    above = "/".join(parts[:-1])
    name = parts[-1]
    dir_fd = walk_to(root, parts[:-1], relative, create=False)
    try:
        try:
            mode = os.lstat(name, dir_fd=dir_fd).st_mode
        except (FileNotFoundError, NotADirectoryError):
            raise not_found(relative) from None
        if stat.S_ISREG(mode):
            yield Place(dir_fd, path, above, name)
            return
        if not stat.S_ISDIR(mode):
            raise refuse(relative, f"it is a {special_kind(mode)}, not a regular file or folder")
        try:
            fd = tree.open_folder(name, dir_fd)
        except OSError as exc:  # swapped for a symlink since its lstat
            raise refusal(dir_fd, name, relative, exc) from None
    finally:
        os.close(dir_fd)
    try:
        yield Place(fd, path, path, None)
    finally:
        os.close(fd)


def refusal(fd: int, part: str, relative: str, exc: OSError) -> CommandError:
    """Why ``part`` in the folder ``fd`` could not be opened, said as the person should hear it."""
    try:
        mode = os.lstat(part, dir_fd=fd).st_mode
    except OSError:
        return WorkspaceError(f"{relative}: {exc.strerror or exc}", type(exc).__name__)
    if stat.S_ISLNK(mode):
        return refuse(relative, f"{part!r} is a symlink; the workspace follows none")
    if exc.errno in (errno.ELOOP, errno.ENOTDIR) and stat.S_ISDIR(mode):  # a symlink at the open
        return changed(relative, part)
    if not stat.S_ISDIR(mode):
        return WorkspaceError(f"{relative}: {part!r} is a file, not a folder", "NotAFolder")
    return WorkspaceError(f"{relative}: {exc.strerror or exc}", type(exc).__name__)


def lexical(parts: list[str] | tuple[str, ...], relative: str) -> list[str]:
    """``a/./b/../c`` → ``[a, c]``; refuses a ``..`` that would climb out of the root."""
    out: list[str] = []
    for part in parts:
        if part in ("", "."):
            continue
        if part == "..":
            if not out:
                raise refuse(relative, "it resolves outside the workspace (through a symlink)")
            out.pop()
        else:
            out.append(part)
    return out
