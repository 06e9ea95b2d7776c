"""The workspace folder: where commands read and write files, and nothing gets out of it.

Every path a command names is relative to the workspace root. :func:`resolve` is the one gate:
it refuses hostile spellings early with a clear message, then decides containment on the
*resolved* path (every symlink followed), never on string prefixes, and refuses anything that
is neither a regular file nor a folder (device files, FIFOs, sockets).
"""

from __future__ import annotations

import os
import re
import stat
from pathlib import Path, PurePosixPath, PureWindowsPath

from .result import CommandError

MAX_PATH_CHARS = 4096
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
_DRIVE = re.compile(r"^[A-Za-z]:")
_WINDOWS_DEVICES = frozenset(
    {"con", "prn", "aux", "nul", "conin$", "conout$"}
    | {f"{port}{n}" for port in ("com", "lpt") for n in (*"123456789", "¹", "²", "³")}
)


class SecurityError(CommandError):
    """A path that would leave the workspace, or names something that is not a file or folder."""

    kind = "SecurityError"


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


def _refuse(relative: str, why: str) -> SecurityError:
    return SecurityError(f"security error: {relative!r} refused: {why}")


def check_spelling(relative: str) -> PurePosixPath:
    """The path as POSIX parts, refusing what no workspace path may look like.

    Backslashes are read as separators (a Windows user's ``notes\\a.txt``), so ``..\\..\\x`` is
    judged like ``../../x``. This is for clear messages; :func:`resolve` decides containment.
    """
    if not isinstance(relative, str):
        raise SecurityError(f"security error: a path must be text, not {type(relative).__name__}")
    if "\x00" in relative:
        raise _refuse(relative, "the path contains a NUL byte")
    if _CONTROL.search(relative):
        raise _refuse(relative, "the path contains a control character")
    if len(relative) > MAX_PATH_CHARS:
        raise _refuse(relative[:40] + "…", f"the path is longer than {MAX_PATH_CHARS} characters")
    spelled = relative.replace("\\", "/")
    windows = PureWindowsPath(relative)
    if spelled.startswith("/") or windows.drive or windows.root or _DRIVE.match(spelled):
        raise _refuse(relative, "absolute paths, drive letters and UNC paths are not allowed; give a path "
                      "inside the workspace")  # fmt: skip
    depth = 0
    for part in spelled.split("/"):
        if part in ("", "."):
            continue
        if part == "..":
            depth -= 1
            if depth < 0:
                raise _refuse(relative, "'..' climbs outside the workspace")
            continue
        depth += 1
        if not part.strip(". "):
            raise _refuse(relative, f"{part!r} is not a usable name (only dots and spaces)")
        if _DRIVE.match(part):
            raise _refuse(relative, f"{part!r} looks like a drive letter")
        if part.split(".")[0].rstrip(" ").casefold() in _WINDOWS_DEVICES:
            raise _refuse(relative, f"{part!r} is a device name on Windows")
    return PurePosixPath(spelled or ".")


def resolve(root: Path | str, relative: str) -> Path:
    """The resolved path of ``relative`` under ``root``; refuses anything that would leave it.

    The target need not exist. If it does, it must be a regular file or a folder.
    """
    spelled = check_spelling(relative)
    base = workspace_root(root)
    try:
        target = (base / spelled).resolve()
    except (OSError, RuntimeError) as exc:  # a symlink loop
        raise _refuse(relative, f"it cannot be resolved ({exc})") from None
    if not target.is_relative_to(base):
        raise _refuse(relative, "it resolves outside the workspace (through a symlink?)")
    refuse_special(target, relative)
    return target


def refuse_special(path: Path, relative: str) -> None:
    """Refuse device files, FIFOs and sockets: reading one can block or never end."""
    try:
        mode = os.lstat(path).st_mode
    except (FileNotFoundError, NotADirectoryError):
        return
    except OSError as exc:
        raise _refuse(relative, f"it cannot be examined ({exc.strerror})") from None
    if stat.S_ISREG(mode) or stat.S_ISDIR(mode):
        return
    kind = special_kind(mode)
    raise _refuse(relative, f"it is a {kind}, not a regular file or folder")


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
