"""What the files pack keeps for a session."""

from __future__ import annotations

from dataclasses import dataclass, field

from . import limits
from .undo import Snapshots


@dataclass
class FilesState:
    snapshots: Snapshots = field(default_factory=lambda: Snapshots(limits.UNDO_BUDGET_BYTES))
    """Earlier contents of files this session changed, for undo."""
