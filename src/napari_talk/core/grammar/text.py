"""Normalizing a typed line and finding where one request ends and the next begins."""

from __future__ import annotations

import re

_TRANSLATE = str.maketrans(
    {"‘": "'", "’": "'", "“": '"', "”": '"', "×": "x", "–": "-", "—": "-", "→": "->", "\u00a0": " "}
)
_HEAD_WORDS = (
    r"hey|hi|hello|ok(?:ay)?|oops|whoops|sorry|hmm+|well|ah|so|now|then|also|and|actually|"
    r"right|alright|great|cool|thanks|please|pls|kindly|maybe|perhaps|"
    r"quickly|go ahead and|do me a favou?r and|"
    r"(?:can|could|would|will) you(?: please| kindly)?|(?:can|could|may) i (?:get|have)|"
    r"i(?: would|'d)? (?:like|want|need|love)(?: (?:you|u))?(?: to)?|"
    r"i wanna|let'?s|let me|try to|napari"
)
"""Polite openings dropped before rules are tried: "could you", "I'd like", "I want (to)", "please"."""
_POLITE_HEAD = re.compile(rf"^(?:(?:{_HEAD_WORDS}|just)\b[\s,:]*)+", re.IGNORECASE)
_POLITE_HEAD_BUT_JUST = re.compile(rf"^(?:(?:{_HEAD_WORDS})\b[\s,:]*)+", re.IGNORECASE)
"""The same, keeping "just": "just GFP" says "only GFP" once nothing else reads the line."""
_JUST = re.compile(r"\bjust\b", re.IGNORECASE)
_POLITE_TAIL = re.compile(
    r"(?:[\s,]*\b(?:please|pls|for me|now|thanks|thank you|thx|right now|again|instead|for a (?:sec|second|"
    r"moment|bit|minute)|for now|if possible|if you (?:can|could|would|don't mind)|real quick|quickly|"
    r"from now on|for good|going forward|from here on|when you (?:can|get a chance)|asap|at once)\b)+"
    r"[\s.!?]*$"
    r"|[\s.!?]+$",
    re.IGNORECASE,
)
_SEPARATORS = re.compile(
    r"\s*;\s*|,?\s+(?:and\s+)?then\s+|,\s*and\s+|\s+and\s+|,\s+(?=[^\W\d])|\s*\.\s+(?=[^\W\d])",
    re.IGNORECASE,
)
_QUOTED = re.compile(r"""'[^']*'|"[^"]*\"""")


def normalize(text: str, *, drop_just: bool = True) -> str:
    """Fold typography, white space and polite wrapping, keeping the case of names.

    ``drop_just=False`` keeps a leading "just", for a second reading of a line the first did not
    understand ("just GFP please" is "only GFP", while "just zoom in" is "zoom in")."""
    text = " ".join(text.translate(_TRANSLATE).split())
    head = _POLITE_HEAD if drop_just else _POLITE_HEAD_BUT_JUST
    previous = None
    while previous != text:
        previous = text
        text = _POLITE_TAIL.sub("", text)
        text = head.sub("", text)
    return text.strip()


def says_just(text: str) -> bool:
    return _JUST.search(text) is not None


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
