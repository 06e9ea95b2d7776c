"""Long work (the ComfyUI flows) off the GUI thread, its outcome applied back on it.

A :class:`BackgroundTask` (minutes long, so the person keeps working meanwhile; unlike a
handler's :class:`napari_talk.result.Job`, which the turn waits for) runs ``work`` (HTTP only, no
viewer) through a *runner*, then ``finish`` with its outcome on the GUI thread, where the model
and layers change. Without a GUI (scripts, tests, ``napari-talk run``) the runner is
:func:`run_here`, so the command returns the final Result.

For the dock (or any host) the API is:

* ``set_runner(session, runner)``: ``runner(work, done)`` must call ``work()`` off the GUI thread
  and then ``done(outcome)`` on it with what ``work`` returned; ``work`` never raises (it returns
  an :class:`Outcome` holding the value or the exception).
  The mesh handlers install napari's ``create_worker`` themselves when the session has a window.
* ``add_listener(session, listener)``: ``listener(command, result)`` is called on the GUI thread
  when a background job ends, with the Result the command would have returned; the undo of a
  successful job is already in the session's history. Returns the function that removes it.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ...commands import Command
    from ...result import Result
    from ...session import Session

Work = Callable[[], Any]
Done = Callable[[Any], None]
Runner = Callable[[Work, Done], None]
Listener = Callable[["Command", "Result"], None]


def run_here(work: Work, done: Done) -> None:
    done(work())


@dataclass
class BackgroundTask:
    command: Command
    cancelled: threading.Event = field(default_factory=threading.Event)
    status: str = "starting"
    started: float = field(default_factory=time.monotonic)
    finished: bool = False
    handle: Any = None
    """Whatever the runner needs kept alive (a Qt worker)."""

    def progress(self, text: str) -> None:
        self.status = text

    @property
    def seconds(self) -> float:
        return time.monotonic() - self.started

    def describe(self) -> str:
        return f"{self.command.action} ({self.status}, {self.seconds:.0f} s)"


def set_runner(session: Session, runner: Runner | None) -> None:
    from .state import pack_state

    pack_state(session).runner = runner


def add_listener(session: Session, listener: Listener) -> Callable[[], None]:
    from .state import pack_state

    listeners = pack_state(session).listeners
    listeners.append(listener)

    def remove() -> None:
        if listener in listeners:
            listeners.remove(listener)

    return remove


@dataclass(frozen=True)
class Outcome:
    """What ``work`` gave: its value, or the exception it raised (never raised across threads:
    superqt's workers treat a returned exception as their own error)."""

    value: Any = None
    error: BaseException | None = None


def guarded(work: Callable[[], Any]) -> Work:
    """``work`` that returns an :class:`Outcome` instead of raising (runners need not catch)."""

    def run() -> Outcome:
        try:
            return Outcome(value=work())
        except BaseException as exc:
            return Outcome(error=exc)

    return run
