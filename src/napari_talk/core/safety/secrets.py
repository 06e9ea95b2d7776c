"""Keeping keys out of what people read: one redaction for every message that could carry one.

A server may echo a key, whole or in part ("Bearer sk-test-7f3a…", split over lines), in an error
body that the SDK puts into its exception; whatever repeats such a message (the LLM road, the
atlas's embeddings) hides the key with :func:`redact` before showing or shortening it.
"""

from __future__ import annotations

PIECE = 6
"""Every stretch of the key this long or longer is hidden."""


def redact(text: str, key: str, *, keep: int = 400) -> str:
    """``text`` with the key, and every piece of it of 6 or more characters, replaced; then cut.

    Every run of text that matches a stretch of the key is hidden before the text is shortened,
    so a cut never leaves half a key showing.
    """
    if len(key) >= 4:
        text = _hide_pieces(text, key)
    return text if len(text) <= keep else text[:keep] + "…"


def _hide_pieces(text: str, key: str, piece: int = PIECE) -> str:
    piece = min(piece, len(key))
    pieces = {key[i : i + piece] for i in range(len(key) - piece + 1)}
    hidden = [False] * len(text)
    for start in range(len(text) - piece + 1):
        if text[start : start + piece] in pieces:
            for at in range(start, start + piece):
                hidden[at] = True
    out: list[str] = []
    for index, char in enumerate(text):
        if not hidden[index]:
            out.append(char)
        elif index == 0 or not hidden[index - 1]:
            out.append("***")
    return "".join(out)
