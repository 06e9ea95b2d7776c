"""The gate's two kinds of refusal, and the one-sentence messages it gives with them.

:class:`SecurityError` is a path that would leave the workspace or names something that is not a
file or folder; :class:`WorkspaceError` is a file that cannot be read or written as asked. Both
are :class:`~napari_talk.core.errors.CommandError`, so the person sees the sentence, never a trace.
"""

from __future__ import annotations

from ..errors import CommandError


class SecurityError(CommandError):
    """A path that would leave the workspace, or names something that is not a file or folder."""

    kind = "SecurityError"


class WorkspaceError(CommandError):
    """A file the person named cannot be read or written as asked (not a security matter)."""

    def __init__(self, message: str, kind: str = "WorkspaceError") -> None:
        super().__init__(message)
        self.kind = kind


def refuse(relative: str, why: str) -> SecurityError:
    return SecurityError(f"security error: {relative!r} refused: {why}")


def changed(relative: str, part: str) -> SecurityError:
    return refuse(
        relative,
        f"{part!r} changed while it was being opened (swapped with a symlink?); the workspace follows none",
    )


def hard_linked(relative: str, links: int, act: str) -> SecurityError:
    return refuse(
        relative,
        f"it has {links} hard links, and napari-talk does not {act} a file that is also reachable by "
        "another name (possibly outside the workspace); copy it into the workspace instead",
    )


def human_size(size: int) -> str:
    """``1,048,576 bytes (1 MiB)``: exact for agents, readable for people."""
    for unit, scale in (("GiB", 1024**3), ("MiB", 1024**2), ("KiB", 1024)):
        if size >= scale:
            return f"{size:,} bytes ({size / scale:.3g} {unit})"
    return f"{size:,} bytes"


def too_large(relative: str, size: int, limit: int, what: str) -> WorkspaceError:
    return WorkspaceError(
        f"{relative} is {human_size(size)}, over the limit of {human_size(limit)} for {what}", "TooLarge"
    )


def not_found(relative: str) -> WorkspaceError:
    return WorkspaceError(f"{relative} does not exist in the workspace", "NotFound")
