"""The one outcome type every command execution returns, whoever asked for it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

Status = Literal["success", "error"]


@dataclass
class Result:
    """What happened: a line for the person, data for agents, meta for both.

    ``meta`` always carries ``execution_time`` (seconds) once the session has run the command.
    """

    status: Status
    message: str
    data: Any = None
    meta: dict[str, Any] = field(default_factory=dict)
    undo: Callable[[], str | None] | None = field(default=None, repr=False, compare=False)
    """Set by a handler whose command changed state: calling it puts the state back, and may
    return a sentence for what that does beyond the view (a file deleted)."""

    @property
    def ok(self) -> bool:
        return self.status == "success"

    @classmethod
    def success(
        cls,
        message: str,
        data: Any = None,
        *,
        undo: Callable[[], str | None] | None = None,
        **meta: Any,
    ) -> Result:
        return cls("success", message, data, dict(meta), undo)

    @classmethod
    def error(cls, message: str, data: Any = None, **meta: Any) -> Result:
        return cls("error", message, data, dict(meta))

    def to_dict(self) -> dict[str, Any]:
        """The seed's envelope: ``{"status", "data", "meta"}`` plus the message."""
        return {
            "status": self.status,
            "message": self.message,
            "data": self.data,
            "meta": self.meta,
        }


class CommandError(Exception):
    """A failure whose message is meant for the person (no stack trace is shown).

    A subclass may name its ``kind`` ("SecurityError", ...): it travels in ``meta["error"]``.
    """

    kind: str | None = None
