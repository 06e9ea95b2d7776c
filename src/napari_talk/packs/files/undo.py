"""Earlier file contents kept for undo, within a per-session memory budget.

The shared history keeps up to 200 changes; holding every overwritten file in memory could take
gigabytes, so the oldest snapshots are released first once the budget is reached, and undoing
such a change says so instead of guessing.
"""

from __future__ import annotations

import threading
from collections import deque
from dataclasses import dataclass

from ...core.safety.workspace import human_size
from .errors import FilesError


@dataclass(eq=False)
class Snapshot:
    relative: str
    data: bytes | None
    budget: int

    def take(self) -> bytes:
        if self.data is None:
            raise FilesError(
                f"cannot undo: the earlier content of {self.relative} was released to keep undo memory "
                f"under {human_size(self.budget)}",
                "UndoReleased",
            )
        return self.data


class Snapshots:
    def __init__(self, budget: int) -> None:
        self.budget = budget
        self._kept: deque[Snapshot] = deque()
        self._size = 0
        self._lock = threading.Lock()

    @property
    def size(self) -> int:
        return self._size

    def keep(self, relative: str, data: bytes) -> Snapshot | None:
        """A snapshot of ``data``, or None when it alone is over the budget."""
        if len(data) > self.budget:
            return None
        with self._lock:
            while self._kept and self._size + len(data) > self.budget:
                old = self._kept.popleft()
                self._size -= len(old.data or b"")
                old.data = None
            snapshot = Snapshot(relative, data, self.budget)
            self._kept.append(snapshot)
            self._size += len(data)
        return snapshot
