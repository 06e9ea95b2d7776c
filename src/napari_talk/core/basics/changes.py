"""What a command changed, as steps that undo it: the one way a handler makes a change undoable.

Each step says what undoing it costs in memory (``size``) and what undoing it *now* would
overwrite (``guard``), so an undo is judged fresh against what is there, like any command. The
session records a Result's ``Changes`` in its history (:mod:`napari_talk.core.running.history`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from types import TracebackType
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..safety.risk import Effect

Step = Callable[[], "str | None"]
"""Undoes one change; may return a sentence for what that did beyond the view."""
Guard = Callable[[], "Iterable[Effect | None]"]
"""What undoing a step now would replace of the person's (nothing: an empty iterable)."""

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
