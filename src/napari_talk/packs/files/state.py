"""What the files pack keeps for a session: the current folder (earlier contents kept for undo
live in the history's entries, within its memory budget)."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class FilesState:
    folder: str = "."
    """The current folder, relative to the workspace root: paths people type start here."""
    names: tuple[float, dict[str, list[str]]] | None = field(default=None, repr=False)
    """The tree's names as last offered to the parser, and when (see ``naming.spoken_names``)."""
