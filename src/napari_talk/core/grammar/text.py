"""Normalizing a typed line and finding where one request ends and the next begins."""

from __future__ import annotations

import re

_TRANSLATE = str.maketrans(
    {"‘": "'", "’": "'", "“": '"', "”": '"', "×": "x", "–": "-", "—": "-", "→": "->", "\u00a0": " "}
)
_POLITE_HEAD = re.compile(
    r"^(?:(?:hey|hi|hello|ok(?:ay)?|oops|whoops|sorry|hmm+|well|ah|so|now|then|also|and|actually|"
    r"right|alright|great|cool|thanks|please|pls|kindly|"
    r"just|quickly|go ahead and|"
    r"(?:can|could|would|will) you(?: please)?|i(?: would|'d)? (?:like|want|need) (?:you )?to|"
    r"i wanna|let'?s|let me|try to|napari)\b[\s,:]*)+",
    re.IGNORECASE,
)
_POLITE_TAIL = re.compile(
    r"(?:[\s,]*\b(?:please|pls|for me|now|thanks|thank you|thx|right now|again|instead|for a (?:sec|second|"
    r"moment|bit|minute)|for now|if possible|if you can|real quick|quickly)\b)+[\s.!?]*$"
    r"|[\s.!?]+$",
    re.IGNORECASE,
)
_SEPARATORS = re.compile(
    r"\s*;\s*|,?\s+(?:and\s+)?then\s+|,\s*and\s+|\s+and\s+|,\s+(?=[^\W\d])|\s*\.\s+(?=[^\W\d])",
    re.IGNORECASE,
)
_QUOTED = re.compile(r"""'[^']*'|"[^"]*\"""")


def normalize(text: str) -> str:
    """Fold typography, white space and polite wrapping, keeping the case of names."""
    text = " ".join(text.translate(_TRANSLATE).split())
    previous = None
    while previous != text:
        previous = text
        text = _POLITE_TAIL.sub("", text)
        text = _POLITE_HEAD.sub("", text)
    return text.strip()


def separators(text: str, limit: int = 12) -> list[tuple[int, int]]:
    """Where the line could split into two requests: (start, end) spans outside quotes."""
    quoted = [m.span() for m in _QUOTED.finditer(text)]
    spans = []
    for m in _SEPARATORS.finditer(text):
        if any(a <= m.start() < b for a, b in quoted):
            continue
        spans.append(m.span())
        if len(spans) >= limit:
            break
    return spans
