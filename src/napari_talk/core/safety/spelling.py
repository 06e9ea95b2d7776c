"""How a workspace path may be spelled: judged on the text alone, before anything is looked up.

This is for clear messages (a NUL byte, an absolute path, a ``..`` climbing out, a Windows device
name); containment is decided on what the path leads to (:mod:`.paths`, :mod:`.descriptors`).
"""

from __future__ import annotations

import re
from pathlib import PurePosixPath, PureWindowsPath

from .printable import unprintable
from .refusals import SecurityError, refuse

MAX_PATH_CHARS = 4096
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
_DRIVE = re.compile(r"^[A-Za-z]:")
_WINDOWS_DEVICES = frozenset(
    {"con", "prn", "aux", "nul", "conin$", "conout$"}
    | {f"{port}{n}" for port in ("com", "lpt") for n in (*"123456789", "¹", "²", "³")}
)


def check_spelling(relative: str) -> PurePosixPath:
    """The path as POSIX parts, refusing what no workspace path may look like.

    Backslashes are read as separators (a Windows user's ``notes\\a.txt``), so ``..\\..\\x`` is
    judged like ``../../x``. This is for clear messages; :func:`.paths.resolve` decides containment.
    """
    if not isinstance(relative, str):
        raise SecurityError(f"security error: a path must be text, not {type(relative).__name__}")
    if "\x00" in relative:
        raise refuse(relative, "the path contains a NUL byte")
    if _CONTROL.search(relative):
        raise refuse(relative, "the path contains a control character")
    hidden = unprintable(relative)
    if hidden:
        raise refuse(relative, f"the path contains {hidden}: names must be printable")
    if len(relative) > MAX_PATH_CHARS:
        raise refuse(relative[:40] + "…", f"the path is longer than {MAX_PATH_CHARS} characters")
    spelled = relative.replace("\\", "/")
    windows = PureWindowsPath(relative)
    if spelled.startswith("/") or windows.drive or windows.root or _DRIVE.match(spelled):
        raise refuse(relative, "absolute paths, drive letters and UNC paths are not allowed; give a path "
                     "inside the workspace")  # fmt: skip
    depth = 0
    for part in spelled.split("/"):
        if part in ("", "."):
            continue
        if part == "..":
            depth -= 1
            if depth < 0:
                raise refuse(relative, "'..' climbs outside the workspace")
            continue
        depth += 1
        if not part.strip(". "):
            raise refuse(relative, f"{part!r} is not a usable name (only dots and spaces)")
        if _DRIVE.match(part):
            raise refuse(relative, f"{part!r} looks like a drive letter")
        if part.split(".")[0].rstrip(" ").casefold() in _WINDOWS_DEVICES:
            raise refuse(relative, f"{part!r} is a device name on Windows")
    return PurePosixPath(spelled or ".")
