"""The error whose message is meant for the person: the bottom of the core, importing nothing."""

from __future__ import annotations


class CommandError(Exception):
    """A failure whose message is meant for the person (no stack trace is shown).

    A subclass may name its ``kind`` ("SecurityError", ...): it travels in ``meta["error"]``.
    """

    kind: str | None = None
