"""What the files pack keeps for a session: nothing of its own (earlier contents kept for undo
live in the history's entries, within its memory budget)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class FilesState:
    pass
