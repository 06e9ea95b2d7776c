"""Workspace paths as paths, for what must be named by path (listing, a library that only takes
paths): the root, and a relative path resolved and checked to stay inside it.

Containment is decided on the resolved path, never on string prefixes. What is read, written,
listed or searched is never reached by such a path: the gate walks descriptors (:mod:`.descriptors`).
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from .refusals import SecurityError, refuse
from .spelling import check_spelling


def default_workspace() -> Path:
    """``$NAPARI_TALK_WORKSPACE``, else ``~/napari-talk``."""
    return Path(os.environ.get("NAPARI_TALK_WORKSPACE") or Path.home() / "napari-talk").expanduser()


def workspace_root(root: Path | str) -> Path:
    """The resolved root, created on first use."""
    path = Path(root).expanduser()
    path.mkdir(parents=True, exist_ok=True)
    resolved = path.resolve(strict=True)
    if not resolved.is_dir():
        raise SecurityError(f"the workspace {resolved} is not a folder")
    return resolved


def resolve(root: Path | str, relative: str) -> Path:
    """The resolved path of ``relative`` under ``root``; refuses anything that would leave it.

    The target need not exist. If it does, it must be a regular file or a folder.
    """
    spelled = check_spelling(relative)
    base = workspace_root(root)
    try:
        target = (base / spelled).resolve()
    except (OSError, RuntimeError) as exc:  # a symlink loop, or one swapped in or out meanwhile
        why = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc
        raise refuse(relative, f"it cannot be resolved ({why})") from None
    if not target.is_relative_to(base):
        raise refuse(relative, "it resolves outside the workspace (through a symlink?)")
    refuse_special(target, relative)
    return target


def refuse_special(path: Path, relative: str) -> None:
    """Refuse device files, FIFOs and sockets: reading one can block or never end."""
    try:
        mode = os.lstat(path).st_mode
    except (FileNotFoundError, NotADirectoryError):
        return
    except OSError as exc:
        raise refuse(relative, f"it cannot be examined ({exc.strerror})") from None
    if stat.S_ISREG(mode) or stat.S_ISDIR(mode):
        return
    kind = special_kind(mode)
    raise refuse(relative, f"it is a {kind}, not a regular file or folder")


def special_kind(mode: int) -> str:
    if stat.S_ISFIFO(mode):
        return "FIFO"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "device file"
    if stat.S_ISSOCK(mode):
        return "socket"
    if stat.S_ISLNK(mode):
        return "symlink"
    return "special file"


def relative_to_root(root: Path, path: Path) -> str:
    """``path`` (resolved, inside ``root``) as the POSIX path a command would name it by."""
    relative = path.relative_to(root).as_posix()
    return relative if relative else "."
