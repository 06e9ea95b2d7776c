"""The one outcome type every command execution returns, whoever asked for it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from ..errors import CommandError as CommandError  # where handlers have always found it
from .changes import Changes, require_changes

if TYPE_CHECKING:
    from ..safety.risk import Approval

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
    undo: Changes | None = field(default=None, repr=False, compare=False)
    """Set by a handler whose command changed state: what it changed, to be undone."""
    approval: Approval | None = field(default=None, repr=False, compare=False)
    """Set when nothing ran because the person must agree first (see :mod:`napari_talk.core.safety.risk`)."""

    def __post_init__(self) -> None:
        if self.undo is not None:
            require_changes(self.undo)

    @property
    def ok(self) -> bool:
        return self.status == "success"

    @classmethod
    def success(
        cls,
        message: str,
        data: Any = None,
        *,
        undo: Changes | None = None,
        **meta: Any,
    ) -> Result:
        return cls("success", message, data, dict(meta), undo)

    @classmethod
    def error(cls, message: str, data: Any = None, **meta: Any) -> Result:
        return cls("error", message, data, dict(meta))

    @classmethod
    def refused(cls, approval: Approval) -> Result:
        """Nothing ran: the person must agree first. ``meta["approval"]`` is what to show them."""
        message = f"{approval.question} was not confirmed by the person, so nothing ran"
        return cls("error", message, None, {"error": "needs_approval", "approval": approval.to_dict()},
                   approval=approval)  # fmt: skip

    def to_dict(self) -> dict[str, Any]:
        """The seed's envelope: ``{"status", "data", "meta"}`` plus the message."""
        return {
            "status": self.status,
            "message": self.message,
            "data": self.data,
            "meta": self.meta,
        }
