"""What the files pack keeps for a session: the current folder (earlier contents kept for undo
live in the history's entries, within its memory budget)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class FilesState:
    folder: str = "."
    """The current folder, relative to the workspace root: paths people type start here."""
