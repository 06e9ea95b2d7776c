"""Midjourney style-reference (sref) codes: one spelling for what people type and store.

``--sref 123``, ``sref: 123``, `` 123 ``, ``123::2`` (a weight) all mean code ``123``; a prompt's
``--sref 123 456`` names two codes. Codes are kept lower-case, in order, without repeats.
"""

from __future__ import annotations

import re

_PREFIX = re.compile(r"^\s*(?:--?\s*)?(?:sref|style\s*ref(?:erence)?)(?:\s*code)?\s*[:=#]?\s*", re.IGNORECASE)
_FLAG = re.compile(r"--\s*sref\b", re.IGNORECASE)
_WEIGHT = re.compile(r"::-?\d+(?:\.\d+)?$")
_SPLIT = re.compile(r"[\s,;]+")
_NEXT_FLAG = re.compile(r"\s--?[a-z]")
MAX_CODE = 300


def normalize_codes(text: str) -> list[str]:
    """Every code in ``text``: ``"--sref 123 456::2"`` → ``["123", "456"]``."""
    text = (text or "").strip()
    flag = _FLAG.search(text)
    if flag is not None:  # a whole prompt: the codes follow --sref, up to the next --flag
        text = text[flag.end() :]
        cut = _NEXT_FLAG.search(" " + text)
        text = text[: cut.start()] if cut else text
    else:
        text = _PREFIX.sub("", text, count=1)
    codes: list[str] = []
    for part in _SPLIT.split(text):
        code = _WEIGHT.sub("", part.strip().strip("'\"")).casefold()
        if code and len(code) <= MAX_CODE and code not in codes:
            codes.append(code)
    return codes


def normalize(text: str) -> str:
    """The stored form: the codes joined by single spaces (empty when there are none)."""
    return " ".join(normalize_codes(text))
