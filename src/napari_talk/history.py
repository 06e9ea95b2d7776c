"""One undo/redo history for every pack (napari itself has none beyond Labels painting)."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .commands import Command


@dataclass(frozen=True)
class Entry:
    command: Command
    undo: Callable[[], None]


class History:
    def __init__(self, limit: int = 200) -> None:
        self._done: deque[Entry] = deque(maxlen=limit)
        self._undone: list[Entry] = []

    def record(self, command: Command, undo: Callable[[], None], *, redoing: bool = False) -> None:
        """A new change; it forgets what was undone, unless it is that very change redone."""
        self._done.append(Entry(command, undo))
        if not redoing:
            self._undone.clear()

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
