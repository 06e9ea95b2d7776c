"""Reading a workspace file: opened by descriptor, judged by what was opened, bounded by size
before a byte is read.

A file with more than one hard link is another file's content under a second name, possibly
outside the workspace: it is read only when every one of its names is found inside.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import stat
from pathlib import Path

from . import tree
from .descriptors import ROOT_FLAGS, refusal, split, walk_to
from .paths import special_kind
from .refusals import WorkspaceError, hard_linked, not_found, refuse, too_large

HARD_LINK_SCAN_ENTRIES = 20_000
"""Entries of the workspace looked through for a hard-linked file's other names before a read of
it is refused (its names could not all be found inside)."""


def open_file(root: Path, relative: str) -> tuple[int, os.stat_result]:
    """A descriptor of a regular file, and its status; refused when it is anything else."""
    folder, name = split(root, relative)
    dir_fd = walk_to(root, folder, relative, create=False)
    try:
        try:
            fd, info = tree.open_file(name, dir_fd)
        except FileNotFoundError:
            raise not_found(relative) from None
        except OSError as exc:
            raise refusal(dir_fd, name, relative, exc) from None
    finally:
        os.close(dir_fd)
    try:
        if stat.S_ISDIR(info.st_mode):
            raise WorkspaceError(f"{relative} is a folder, not a file", "IsAFolder")
        if not stat.S_ISREG(info.st_mode):
            raise refuse(relative, f"it is a {special_kind(info.st_mode)}, not a regular file")
        if info.st_nlink > 1 and not links_inside(root, info):
            raise hard_linked(relative, info.st_nlink, "read")
    except BaseException:
        os.close(fd)
        raise
    return fd, info


def links_inside(root: Path, info: os.stat_result) -> bool:
    """Whether every name of this hard-linked file is inside the workspace (looked for in at
    most :data:`HARD_LINK_SCAN_ENTRIES` entries, walked following no symlink; not found is not
    inside)."""
    found = 0
    root_fd = os.open(root, ROOT_FLAGS)
    try:
        with contextlib.closing(tree.walk(root_fd, hidden=True)) as walk:  # its descriptors closed now
            for seen, entry in enumerate(walk, 1):
                if seen > HARD_LINK_SCAN_ENTRIES:
                    return False
                if (entry.info.st_dev, entry.info.st_ino) == (info.st_dev, info.st_ino):
                    found += 1
                    if found >= info.st_nlink:
                        return True
    finally:
        os.close(root_fd)
    return False


def read_bytes(root: Path, relative: str, *, limit: int, what: str = "files") -> bytes:
    """The whole file, refused by its size (read on the open descriptor) when over ``limit``."""
    fd, info = open_file(root, relative)
    try:
        if info.st_size > limit:
            raise too_large(relative, info.st_size, limit, what)
        chunks, total = [], 0
        while chunk := os.read(fd, max(info.st_size + 1 - total, 1 << 16)):
            chunks.append(chunk)
            total += len(chunk)
            if total > limit:
                raise too_large(relative, total, limit, what)
        return b"".join(chunks)
    finally:
        os.close(fd)


def digest(root: Path, relative: str) -> str | None:
    """The SHA-256 of the file's content, read in pieces; None when there is no such file."""
    try:
        fd, _ = open_file(root, relative)
    except WorkspaceError as exc:
        if exc.kind == "NotFound":
            return None
        raise
    try:
        found = hashlib.sha256()
        while chunk := os.read(fd, 1 << 20):
            found.update(chunk)
        return found.hexdigest()
    finally:
        os.close(fd)
