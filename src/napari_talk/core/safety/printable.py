"""Whether a name shows as it is: no controls, bidi overrides, zero-width or line-breaking characters."""

from __future__ import annotations

import unicodedata

_UNPRINTABLE = frozenset({"Cc", "Cf", "Zl", "Zp", "Cs"})
"""Unicode categories no name may hold: controls (C0 and C1), format characters (bidi overrides,
zero-width spaces and joiners, the byte-order mark), line and paragraph separators, lone surrogates.
Each would make a name show other than it is: text reversed, split over lines, or two names alike."""


def unprintable(text: str) -> str:
    """The first character of ``text`` that is not printable, described ("U+202E RIGHT-TO-LEFT
    OVERRIDE"), or "" when every one is."""
    if text.isprintable():
        return ""
    for char in text:
        if unicodedata.category(char) in _UNPRINTABLE:
            name = unicodedata.name(char, "")
            return f"an invisible or control character (U+{ord(char):04X}{' ' + name if name else ''})"
    return ""
