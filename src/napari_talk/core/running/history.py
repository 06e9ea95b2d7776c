"""One undo/redo history for every pack (napari itself has none beyond Labels painting).

A command records what it changed as :class:`Changes`, the one way to make a change undoable:
each step says what undoing it costs in memory (``size``) and what undoing it *now* would
overwrite (``guard``), so an undo is judged fresh against what is there, like any command.

The history keeps entries within a memory budget in bytes, not a count. View changes (a zoom, a
colormap) are many and cheap: they go first when there are too many, and never push out the undo
of a data change; when the oldest data change must go to stay within the budget, the history says
so plainly (:meth:`History.record` returns what went).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from types import TracebackType
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..contract.commands import Command
    from ..safety.risk import Effect, Risk

Step = Callable[[], "str | None"]
"""Undoes one change; may return a sentence for what that did beyond the view."""
Guard = Callable[[], "Iterable[Effect | None]"]
"""What undoing a step now would replace of the person's (nothing: an empty iterable)."""

MIB = 1024 * 1024
HISTORY_BUDGET_BYTES = 512 * MIB
"""Memory the undo history may keep (payloads an undo puts back: earlier file contents, arrays)."""
MAX_VIEW_ENTRIES = 200
"""View changes kept for undo; older ones go first, and never a data change's entry."""
ENTRY_OVERHEAD = 256
"""What an entry costs even when its steps keep no payload (a closure, the command)."""


class Changes:
    """The undo steps of one command, as it makes its changes: all or nothing.

    ``with Changes() as changes: ... changes.add(undo_step)``; if the command fails half-way, the
    steps made so far are undone (newest first) before the error goes on, so no change is left
    without an entry. Hand the changes to the Result (``Result.success(..., undo=changes)``);
    the session records them.
    """

    def __init__(self) -> None:
        self._steps: list[tuple[Step, Guard | None, int]] = []

    def add(self, step: Step, *, guard: Guard | None = None, size: int = 0) -> None:
        """``step`` undoes one change, and may return a sentence for what that does beyond the
        view ("figures/a.png deleted"); ``size`` is the bytes it keeps alive (an earlier content);
        ``guard`` says what running it now would replace of the person's."""
        self._steps.append((step, guard, size))

    def extend(self, other: Changes) -> None:
        self._steps += other._steps

    def undo(self) -> str | None:
        """Undo every step, newest first; what the steps said, joined (None when nothing)."""
        told = [said for step, _, _ in reversed(self._steps) if (said := step())]
        return "; ".join(told) or None

    def effects(self) -> list[Effect]:
        """What undoing every step now would replace of the person's."""
        found: list[Effect] = []
        for _, guard, _ in self._steps:
            if guard is not None:
                found += [e for e in guard() if e is not None]
        return found

    @property
    def size(self) -> int:
        return ENTRY_OVERHEAD + sum(size for _, _, size in self._steps)

    def __bool__(self) -> bool:
        return bool(self._steps)

    def __enter__(self) -> Changes:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        if error is not None:
            self.undo()


def require_changes(undo: object) -> Changes:
    """``undo`` itself when it is :class:`Changes`, the one way to record undo; else TypeError
    (a bare function says neither what it keeps alive nor what undoing it now would replace)."""
    if not isinstance(undo, Changes):
        raise TypeError(f"undo is recorded as Changes, not {type(undo).__name__}: changes.add(step) instead")
    return undo


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
