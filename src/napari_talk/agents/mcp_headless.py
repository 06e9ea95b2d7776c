"""``napari-talk mcp`` without a display: the commands served on napari's ``ViewerModel``, no Qt.

Calls run one at a time (the MCP SDK hands each to a thread of its own). There is nobody to ask,
so a call the session's policy says needs the person is refused, as with ``--hidden``.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TYPE_CHECKING

from ..headless import model_viewer, open_sample

if TYPE_CHECKING:
    from ..core.basics.result import Result
    from .mcp_server import Bridge


def one_at_a_time() -> Callable[[Callable[[], Result], str, float], Result]:
    """A ``within`` that runs calls in turn; one that waits past its timeout is refused."""
    lock = threading.Lock()

    def within(work: Callable[[], Result], action: str, timeout: float) -> Result:
        from ..core.basics.result import Result

        if not lock.acquire(timeout=timeout):
            return Result.error(f"{action} waited {timeout:g} s for the calls before it; nothing ran")
        try:
            return work()
        finally:
            lock.release()

    return within


def headless_bridge(sample: str | None) -> Bridge:
    from ..core.running.opening import open_session
    from .mcp_server import Bridge

    viewer = model_viewer()
    if sample:
        open_sample(viewer, sample)
    return Bridge(open_session(viewer), one_at_a_time())
