"""The core's two errors: the one meant for the person, and the one meant for a pack's
author. The bottom of the core, importing nothing."""

from __future__ import annotations


class CommandError(Exception):
    """A failure whose message is meant for the person (no stack trace is shown).

    A subclass may name its ``kind`` ("SecurityError", ...): it travels in ``meta["error"]``.
    """

    kind: str | None = None


class ContractError(ValueError):
    """A pack that lacks a part of the contract; the message names the pack, command and part."""
