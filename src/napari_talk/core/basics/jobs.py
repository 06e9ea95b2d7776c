"""Slow work, for every pack: one mechanism, off the GUI thread when there is a GUI.

A handler hands back a :class:`Job` instead of a Result. ``work(progress)`` runs off the GUI
thread and touches no viewer; ``finish(value)`` runs on the GUI thread and gives the Result (with
its undo). A *waited* job is the turn's answer (the dock shows a busy bar and Stop); a
*background* job (minutes of work on a server) answers "started" at once and reports its Result
later, through :class:`Jobs`' listeners. Only the session records undo history, in both cases.
Without a GUI, both kinds simply run in turn.

Work that can run long calls ``progress.check()`` between bounded steps: it raises :class:`Stopped`
once the person pressed Stop, the caller went away, or the call's deadline passed (an MCP call's,
set around the call with :func:`call_limits`), so a job ends within a step of being told to.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable, Iterator
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .result import CommandError, Result

if TYPE_CHECKING:
    from .commands import Command

Work = Callable[[], Any]
Done = Callable[[Any], None]
Runner = Callable[[Work, Done], Any]
"""``runner(work, done)`` calls ``work()`` off the GUI thread, then ``done(value)`` on it;
returns whatever must be kept alive meanwhile (a Qt worker)."""
Listener = Callable[["Command", Result], None]


class Stopped(CommandError):
    """A job's work ended before its end: stopped, its caller gone, or its deadline passed."""


@dataclass(frozen=True)
class CallLimits:
    """What bounds the work of one call: ``seconds`` from its start, and ``gone`` (an event set
    when its caller no longer waits)."""

    seconds: float | None = None
    gone: threading.Event | None = None


_limits: ContextVar[CallLimits | None] = ContextVar("napari_talk_call_limits", default=None)


@contextlib.contextmanager
def call_limits(seconds: float | None, gone: threading.Event | None = None) -> Iterator[None]:
    """Jobs waited for inside this block (in this thread) stop ``seconds`` after they start, or
    once ``gone`` is set: an agent's call never holds the session longer than its deadline."""
    token = _limits.set(CallLimits(seconds, gone))
    try:
        yield
    finally:
        _limits.reset(token)


class Progress(threading.Event):
    """What a job's work watches and tells: set it to cancel; ``report`` says how far it is;
    ``check()`` raises :class:`Stopped` when the work must end (cancelled, its caller gone, past
    its deadline). A new Progress takes the limits of the call it is made in (:func:`call_limits`)."""

    def __init__(self, listener: Callable[[str, float | None], None] | None = None) -> None:
        super().__init__()
        self.status = ""
        self.fraction: float | None = None
        self._listener = listener
        limits = _limits.get() or CallLimits()
        self.seconds = limits.seconds
        self.deadline = None if limits.seconds is None else time.monotonic() + limits.seconds
        self._gone = limits.gone

    def check(self) -> None:
        """Raise :class:`Stopped` if the work must end now; cheap enough to call between steps."""
        if self.cancelled:
            raise Stopped("stopped")
        if self.deadline is not None and time.monotonic() > self.deadline:
            raise Stopped(f"stopped after {self.seconds:g} s, the time a call may take")

    def report(self, status: str, fraction: float | None = None) -> None:
        self.status, self.fraction = status, fraction
        if self._listener is not None:
            self._listener(status, fraction)

    def counting(self, what: str) -> Callable[[int, int], None]:
        """A callback ``(done, total)`` for work done in steps: it reports "what: 3 of 56"."""

        def count(done: int, total: int) -> None:
            self.report(f"{what}: {done} of {total}", done / total if total else None)

        return count

    @property
    def cancelled(self) -> bool:
        return self.is_set() or (self._gone is not None and self._gone.is_set())


@dataclass
class Job:
    label: str
    work: Callable[[Progress], Any]
    finish: Callable[[Any], Result]
    background: bool = False
    """Minutes of work the person keeps working past; its Result arrives later."""

    def run_here(self, progress: Progress | None = None) -> Result:
        return self.finish(self.work(progress or Progress()))

    def settle(self, outcome: Outcome | None, progress: Progress) -> Result:
        """A waited job's Result, once its work ran elsewhere (a GUI's thread): stopped when the
        person cancelled it (or it never ended), its error raised for the session to tell, else
        its finish."""
        if progress.cancelled or outcome is None:
            return Result.error(f"{self.label}: stopped")
        if outcome.error is not None:
            raise outcome.error
        return self.finish(outcome.value)


@dataclass(frozen=True)
class Outcome:
    """What ``work`` gave: its value, or the exception it raised (never raised across threads)."""

    value: Any = None
    error: BaseException | None = None


def guarded(work: Callable[[], Any]) -> Work:
    def run() -> Outcome:
        try:
            return Outcome(value=work())
        except BaseException as exc:
            return Outcome(error=exc)

    return run


def run_in_place(work: Work, done: Done) -> None:
    done(work())


@dataclass
class Running:
    """A background job under way."""

    job: Job
    command: Command
    progress: Progress = field(default_factory=Progress)
    started: float = field(default_factory=time.monotonic)
    handle: Any = None

    def describe(self) -> str:
        status = f"{self.progress.status}, " if self.progress.status else ""
        return f"{self.job.label} ({status}{time.monotonic() - self.started:.0f} s)"


class Jobs:
    """The session's slow work: how waited jobs run, background jobs under way, who hears of them."""

    def __init__(self, record: Callable[[Command, Result], None]) -> None:
        self.wait: Callable[[Job], Result] = Job.run_here
        """How a waited job runs: here, in turn, unless a GUI sets a way that keeps it responsive."""
        self.runner: Runner = run_in_place
        """How a background job runs: in place (scripts, tests) unless a GUI sets a thread pool."""
        self.running: list[Running] = []
        self._listeners: list[Listener] = []
        self._record = record

    def listen(self, listener: Listener) -> Callable[[], None]:
        """``listener(command, result)`` hears every background job's end; returns its removal."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener) if listener in self._listeners else None

    def under_way(self, label_prefix: str = "") -> Running | None:
        return next((r for r in self.running if r.job.label.startswith(label_prefix)), None)

    def start(self, job: Job, command: Command) -> Result:
        """A background job: its Result now if it ran in place, else "started"."""
        running = Running(job, command)
        self.running.append(running)
        answer: dict[str, Result] = {}

        def done(outcome: Outcome) -> None:
            if running in self.running:
                self.running.remove(running)
            result = self._finish(running, outcome)
            answer["result"] = result
            if in_place:
                return
            self._record(command, result)
            for listener in list(self._listeners):
                listener(command, result)

        in_place = self.runner is run_in_place
        running.handle = self.runner(guarded(lambda: job.work(running.progress)), done)
        if in_place:
            return answer["result"]
        return Result.success(
            f"{job.label[:1].upper()}{job.label[1:]} runs in the background; I will say when it is done.",
            {"job": command.action, "background": True},
        )

    @staticmethod
    def _finish(running: Running, outcome: Outcome) -> Result:
        if running.progress.cancelled:
            return Result.error(f"{running.job.label}: cancelled; nothing changed.")
        if outcome.error is not None:
            if isinstance(outcome.error, CommandError):
                return Result.error(str(outcome.error))
            return Result.error(f"{running.job.label} failed: {outcome.error}")
        try:
            return running.job.finish(outcome.value)
        except CommandError as exc:
            return Result.error(str(exc))
