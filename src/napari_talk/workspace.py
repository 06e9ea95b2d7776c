"""The workspace folder: where commands read and write files, and nothing gets out of it."""

from __future__ import annotations

import os
from pathlib import Path, PurePosixPath, PureWindowsPath

from .result import CommandError


def default_workspace() -> Path:
    """``$NAPARI_TALK_WORKSPACE``, else ``~/napari-talk``."""
    return Path(os.environ.get("NAPARI_TALK_WORKSPACE") or Path.home() / "napari-talk")


def inside(root: Path, relative: str) -> Path:
    """The resolved path of ``relative`` under ``root``; refuses anything that would leave it."""
    if "\x00" in relative:
        raise CommandError("refused: the path contains a NUL byte")
    windows = PureWindowsPath(relative)
    if PurePosixPath(relative).is_absolute() or windows.drive or windows.root:
        raise CommandError(f"refused: {relative!r} is absolute; give a path inside the workspace")
    base = root.resolve()
    target = (base / relative.replace("\\", "/")).resolve()
    if target != base and base not in target.parents:
        raise CommandError(f"refused: {relative!r} is outside the workspace {base}")
    return target
