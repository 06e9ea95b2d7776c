"""Background set-up that gives way to the person's lines.

The dock gets packs ready in threads (a ray tracer compiled, the canonical stage's phrasings
embedded): seconds of CPU on a machine that may have two cores. A line typed meanwhile must not
share them with work it does not need, so that work waits, between its steps, while a line's slow
work runs and for a moment after it (a line's next job often follows at once). Qt-free: the dock
tells it when a line begins and when its slow work runs.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Iterator

GRACE = 0.3
"""Seconds after a line's last slow work ends (or after it is typed) before set-up goes on."""
LONGEST = 120.0
"""The longest a step of set-up waits: past it, it goes on beside the person's work (a batch of
recipes may run for minutes, and the set-up would otherwise never come)."""


class GiveWay:
    """Where the person's lines and the background set-up meet. A line's slow work runs inside
    :meth:`line`; set-up calls :meth:`wait` between its steps."""

    def __init__(self, grace: float = GRACE, longest: float = LONGEST) -> None:
        self._grace = grace
        self._longest = longest
        self._changed = threading.Condition()
        self._lines = 0
        self._since = -grace
        """When a line was last typed or its slow work last ended (``time.monotonic``)."""
        self._stopped = False

    def typed(self) -> None:
        """A line was typed: set-up waits a moment (its slow work, if any, comes next)."""
        with self._changed:
            self._since = time.monotonic()

    @contextlib.contextmanager
    def line(self) -> Iterator[None]:
        """Around a line's slow work (from the GUI thread): set-up waits until it ends."""
        with self._changed:
            self._lines += 1
        try:
            yield
        finally:
            with self._changed:
                self._lines -= 1
                self._since = time.monotonic()
                self._changed.notify_all()

    @property
    def clear(self) -> bool:
        """No line's slow work runs and none ended a moment ago."""
        with self._changed:
            return not self._lines and time.monotonic() - self._since >= self._grace

    def wait(self) -> bool:
        """Block (in a set-up thread) while a line's slow work runs or just ran; False once the
        dock is gone (:meth:`stop`): the set-up then ends."""
        give_up = time.monotonic() + self._longest
        with self._changed:
            while not self._stopped:
                now = time.monotonic()
                left = max(self._since + self._grace - now, 0.0) if not self._lines else self._longest
                if left <= 0 or now >= give_up:
                    return True
                self._changed.wait(min(left, give_up - now))
            return False

    def stop(self) -> None:
        """The dock is gone: set-up still to come is not done (a process that ends does not wait
        for it)."""
        with self._changed:
            self._stopped = True
            self._changed.notify_all()
