"""What the command line prints is text, never instructions to the terminal.

A model's reply, a file name or a catalogue entry may hold escape sequences: OSC 52 writes the
clipboard, SGR 8 hides text, a carriage return or a bidi override makes a line read as another.
The command line writes through :func:`printable_output`, one filter on stdout and stderr that
drops every escape sequence and control character but the newline and the tab (and a carriage
return that starts a write: the progress line's redraw, which is ours).
"""

from __future__ import annotations

import contextlib
import re
import sys
from collections.abc import Iterator
from typing import Any, TextIO

_ESCAPES = re.compile(
    r"""
    \x1b\[[0-?]*[\x20-/]*[@-~]?              # CSI: colours, hidden text, cursor moves
    | \x1b\][^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)?   # OSC: title, clipboard (52), hyperlinks
    | \x1b[PX^_][^\x1b\x9c]*(?:\x1b\\|\x9c)?  # DCS, SOS, PM, APC strings
    | \x1b[\x20-/]*[\x30-~]?                 # any other escape
    | \x9b[0-?]*[\x20-/]*[@-~]?              # the same, as 8-bit C1 controls
    | \x9d[^\x07\x9c]*(?:\x07|\x9c)?
    | [\x90\x98\x9e\x9f][^\x9c]*\x9c?
    | [\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]   # other controls, bidi overrides
    """,
    re.VERBOSE,
)


def printable(text: str) -> str:
    """``text`` without escape sequences or control characters (newlines and tabs kept)."""
    return _ESCAPES.sub("", text)


class PrintableStream:
    """A text stream that writes only :func:`printable` text to ``stream``."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        redraw = text.startswith("\r")
        self._stream.write(("\r" if redraw else "") + printable(text))
        return len(text)

    def __getattr__(self, name: str) -> Any:  # flush, isatty, fileno, encoding, buffer, ...
        return getattr(self._stream, name)


@contextlib.contextmanager
def printable_output() -> Iterator[None]:
    """stdout and stderr filtered by :func:`printable` until the block ends."""
    saved = sys.stdout, sys.stderr
    sys.stdout = PrintableStream(saved[0])
    sys.stderr = PrintableStream(saved[1])
    try:
        yield
    finally:
        sys.stdout, sys.stderr = saved
