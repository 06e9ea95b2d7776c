"""One undo/redo history for every pack (napari itself has none beyond Labels painting)."""

from __future__ import annotations

import itertools
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from types import TracebackType
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .commands import Command
    from .risk import Risk


@dataclass(frozen=True)
class Entry:
    command: Command
    undo: Callable[[], str | None]
    risk: Risk = "view"
    """The risk of the change; undoing or redoing it costs the same."""
    said: str = ""
    """What the person was told when it was done ("GFP contrast limits set to 0–4000.")."""
    serial: int = field(default_factory=itertools.count().__next__, compare=False)
    """Which change this is, for as long as the session lives (an agreement to undo it names it)."""


class History:
    def __init__(self, limit: int = 200) -> None:
        self._done: deque[Entry] = deque(maxlen=limit)
        self._undone: list[Entry] = []

    def record(
        self,
        command: Command,
        undo: Callable[[], str | None],
        *,
        risk: Risk = "view",
        said: str = "",
        redoing: bool = False,
    ) -> None:
        """A new change; it forgets what was undone, unless it is that very change redone."""
        self._done.append(Entry(command, undo, risk, said or command.summary()))
        if not redoing:
            self._undone.clear()

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

    def clear(self) -> None:
        self._done.clear()
        self._undone.clear()


class Changes:
    """The undo steps of one command, as it makes its changes: all or nothing.

    ``with Changes() as changes: ... changes.add(undo_step)``; if the command fails half-way, the
    steps made so far are undone (newest first) before the error goes on, so no change is left
    without an entry. ``changes.undo`` undoes them all later.
    """

    def __init__(self) -> None:
        self._steps: list[Callable[[], None]] = []

    def add(self, step: Callable[[], None]) -> None:
        self._steps.append(step)

    def undo(self) -> None:
        for step in reversed(self._steps):
            step()

    def __bool__(self) -> bool:
        return bool(self._steps)

    def __enter__(self) -> Changes:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        if error is not None:
            self.undo()
