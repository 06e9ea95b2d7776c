"""Keeping keys out of what people read: one redaction for every message that could carry one.

A server may echo a key, whole or in part ("Bearer sk-test-7f3a…", split over lines), in an error
body that the SDK puts into its exception; whatever repeats such a message (the LLM road, the
atlas's embeddings) hides the key with :func:`redact` before showing or shortening it.

A connection URL may carry a password in its user part or as ``?password=``: :func:`url_masked`
is how it may be shown, :func:`url_without_secrets` how it may be saved.
"""

from __future__ import annotations

from urllib.parse import parse_qsl, unquote, urlencode, urlsplit, urlunsplit

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


# -- connection strings ---------------------------------------------------------------------------

SECRET_PARAMETERS = frozenset({"password", "sslpassword"})
"""Query parameters of a connection URL that libpq reads as secrets (``?password=``)."""


def url_password(url: str) -> str:
    """The password a connection URL carries: in its user part, else as ``?password=``."""
    parts = urlsplit(url)
    if parts.password:
        return unquote(parts.password)
    return next((value for key, value in parse_qsl(parts.query) if key.lower() == "password"), "")


def url_masked(url: str) -> str:
    """The URL as it may be shown: every password in it replaced by ``***``."""
    return _url_with(url, "***")


def url_without_secrets(url: str) -> str:
    """The URL as it may be saved: no password in it at all."""
    return _url_with(url, None)


def _url_with(url: str, mask: str | None) -> str:
    parts = urlsplit(url)
    netloc = parts.netloc
    if parts.password is not None:
        host = netloc.rsplit("@", 1)[1]
        user = parts.username or ""
        netloc = f"{user}:{mask}@{host}" if mask is not None else (f"{user}@{host}" if user else host)
    pairs = parse_qsl(parts.query, keep_blank_values=True)
    if any(key.lower() in SECRET_PARAMETERS for key, _ in pairs):
        kept = [
            (key, mask if key.lower() in SECRET_PARAMETERS else value)
            for key, value in pairs
            if mask is not None or key.lower() not in SECRET_PARAMETERS
        ]
        query = urlencode(kept, safe="*")
    else:
        query = parts.query
    return urlunsplit(parts._replace(netloc=netloc, query=query))
