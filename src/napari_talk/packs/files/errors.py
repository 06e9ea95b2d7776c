"""The files pack's errors: each carries a ``kind`` that agents read in the result's meta."""

from __future__ import annotations

from ...core.safety.workspace import WorkspaceError


class FilesError(WorkspaceError):
    """A refusal or failure meant for the person (and the agent) who asked."""

    def __init__(self, message: str, kind: str = "FilesError") -> None:
        super().__init__(message, kind)
