"""One undo/redo history for every pack (napari itself has none beyond Labels painting).

A command records what it changed as :class:`~napari_talk.core.basics.changes.Changes`, the one
way to make a change undoable (packs have always imported it from here too).

The history keeps entries within a memory budget in bytes, not a count. View changes (a zoom, a
colormap) are many and cheap: they go first when there are too many, and never push out the undo
of a data change; when the oldest data change must go to stay within the budget, the history says
so plainly (:meth:`History.record` returns what went).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..basics.changes import ENTRY_OVERHEAD, Changes, require_changes

if TYPE_CHECKING:
    from ..basics.commands import Command
    from ..safety.risk import Risk

MIB = 1024 * 1024
HISTORY_BUDGET_BYTES = 512 * MIB
"""Memory the undo history may keep (payloads an undo puts back: earlier file contents, arrays)."""
MAX_VIEW_ENTRIES = 200
"""View changes kept for undo; older ones go first, and never a data change's entry."""


@dataclass(frozen=True)
class Entry:
    command: Command
    changes: Changes
    risk: Risk = "view"
    """The command's usual risk: ``view`` entries are the cheap ones that go first."""
    said: str = ""
    """What the person was told when it was done ("GFP contrast limits set to 0–4000.")."""
    serial: int = field(default_factory=itertools.count().__next__, compare=False)
    """Which change this is, for as long as the session lives."""

    @property
    def size(self) -> int:
        return self.changes.size

    @property
    def is_view(self) -> bool:
        return self.risk in ("read", "view") and self.changes.size <= ENTRY_OVERHEAD

    def undo(self) -> str | None:
        return self.changes.undo()


class History:
    def __init__(self, budget: int = HISTORY_BUDGET_BYTES, max_view_entries: int = MAX_VIEW_ENTRIES) -> None:
        self.budget = budget
        self.max_view_entries = max_view_entries
        self._done: list[Entry] = []
        self._undone: list[Entry] = []

    @property
    def size(self) -> int:
        """Bytes the history keeps now (undoable and redoable entries)."""
        return sum(e.size for e in self._done) + sum(e.size for e in self._undone)

    def record(
        self,
        command: Command,
        changes: Changes,
        *,
        risk: Risk = "view",
        said: str = "",
        redoing: bool = False,
    ) -> list[Entry]:
        """A new change; it forgets what was undone, unless it is that very change redone.

        Returns the data changes that had to go to keep within the budget (oldest first); an
        entry larger than the whole budget is not kept, and is returned too."""
        entry = Entry(command, require_changes(changes), risk, said or command.summary())
        if not redoing:
            self._undone.clear()
        if entry.size > self.budget:
            return [entry]
        self._done.append(entry)
        dropped: list[Entry] = []
        views = [e for e in self._done if e.is_view]
        for old in views[: max(0, len(views) - self.max_view_entries)]:
            self._done.remove(old)
        while self.size > self.budget:
            if self._undone:
                self._undone.pop(0)
                continue
            old = self._done.pop(0)
            if not old.is_view:
                dropped.append(old)
        return dropped

    def next_undo(self) -> Entry | None:
        return self._done[-1] if self._done else None

    def next_redo(self) -> Entry | None:
        return self._undone[-1] if self._undone else None

    def put_back_redo(self, entry: Entry) -> None:
        """A redo that failed: it can still be redone."""
        self._undone.append(entry)

    def put_back(self, entry: Entry) -> None:
        """An undo that failed: the change is still there, so is its entry."""
        if self._undone and self._undone[-1] is entry:
            self._undone.pop()
        self._done.append(entry)

    def pop_undo(self) -> Entry | None:
        if not self._done:
            return None
        entry = self._done.pop()
        self._undone.append(entry)
        return entry

    def pop_redo(self) -> Entry | None:
        return self._undone.pop() if self._undone else None

    @property
    def can_undo(self) -> bool:
        return bool(self._done)

    @property
    def can_redo(self) -> bool:
        return bool(self._undone)

    def __len__(self) -> int:
        return len(self._done)

    def clear(self) -> None:
        self._done.clear()
        self._undone.clear()
