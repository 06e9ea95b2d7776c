"""The Chat Completions client (the openai SDK, imported on first use): sending a request, waiting
and retrying within the turn's deadline, and streaming the reply's body.

Replies are streamed: the body is read piece by piece, so the cap on its size applies while
reading (a server cannot make us hold 600 MB), the turn's one deadline is checked between pieces
(a server trickling a byte a second is cut off when the turn's time is up), and giving up closes
the connection, which is how a local server learns to stop generating for a line nobody waits for.

The body is parsed in :mod:`.reply_body`, the reply's shape requested with :mod:`.reply_format`,
and errors said by :mod:`.errors`; their names are importable from here as before.
"""

from __future__ import annotations

import threading
import time
from typing import Any, cast

from ..safety.secrets import redact as redact  # the core's one redaction, importable here as before
from .errors import Cancelled, DeadlineError, LLMError, explain, mentions_reply_format
from .reply_body import MAX_REPLY_CHARS, ChatReply, read_completion, read_events
from .reply_format import constrained_reply, json_reply, strict_legal
from .settings import LLMSettings, MissingKeyError, resolve_key

__all__ = [
    "LOCAL_REPLY_TOKENS",
    "MAX_REPLY_CHARS",
    "Cancelled",
    "ChatClient",
    "ChatReply",
    "DeadlineError",
    "LLMError",
    "constrained_reply",
    "explain",
    "json_reply",
    "mentions_reply_format",
    "read_completion",
    "read_events",
    "read_stream",
    "redact",
    "retry_after",
    "strict_legal",
]

RETRYABLE = (408, 409, 429, 500, 502, 503, 504)

LOCAL_REPLY_TOKENS = 384
"""A reply's length at most on a server on this machine (each step may ask for less): a small model
held to a schema can run on to its context limit (thousands of tokens, minutes of CPU). Hosted
servers are not capped: OpenAI's reasoning models refuse ``max_tokens``."""


class ChatClient:
    """Chat Completions over the openai SDK's transport; the reply is read here, defensively.

    The SDK sends the request (``base_url``, key); its own retries are off, so every wait (a 429's
    Retry-After, a 5xx back-off) is ours and stays within the turn's deadline. The body is read as
    a stream (:func:`read_stream`) and parsed by :func:`read_completion` or :func:`read_events`,
    which turn any shape a server may send into a reply or one clear :class:`LLMError`.
    """

    def __init__(self, settings: LLMSettings, session_key: str | None = None) -> None:
        self.settings = settings
        try:
            self._key = resolve_key(settings, session_key)
        except MissingKeyError as exc:
            raise LLMError(str(exc)) from None
        import openai

        self._openai = openai
        self._client = openai.OpenAI(
            base_url=settings.base_url,
            api_key=self._key,
            timeout=settings.timeout,
            max_retries=0,
        )

    def complete(
        self,
        messages: list[dict[str, Any]],
        tools: list[dict[str, Any]] | None = None,
        reply_format: dict[str, Any] | None = None,
        *,
        max_tokens: int | None = None,
        deadline: float | None = None,
        cancelled: threading.Event | None = None,
    ) -> ChatReply:
        """``reply_format``: request options that shape the reply (:func:`json_reply`,
        :func:`constrained_reply`); ``max_tokens``: the reply's length at most on a local server
        (default :data:`LOCAL_REPLY_TOKENS`); ``deadline`` (``time.monotonic()``): when the whole
        turn's time is up (default: the settings' timeout from now)."""
        options: dict[str, Any] = dict(reply_format or {})
        if tools:
            options["tools"] = tools
            # without it llama-cpp-python's function-calling format builds a prompt with no tools
            options.setdefault("tool_choice", "auto")
        if self.settings.local:
            options["max_tokens"] = max_tokens or LOCAL_REPLY_TOKENS
        deadline = deadline if deadline is not None else time.monotonic() + self.settings.timeout
        attempt = 0
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise self._deadline()
            try:
                with self._client.chat.completions.with_streaming_response.create(
                    model=self.settings.model,
                    messages=cast(Any, messages),
                    timeout=max(remaining, 0.05),
                    stream=True,
                    **options,
                ) as response:
                    kind = response.headers.get("content-type", "")
                    body = self._read(response, deadline, cancelled)
                    if body is None:
                        raise (
                            self._deadline()
                            if not (cancelled and cancelled.is_set())
                            else Cancelled("stopped")
                        )
            except self._openai.APIStatusError as exc:
                wait = self._retry_wait(exc, attempt, deadline)
                if wait is None:
                    raise self._status_error(exc) from None
                time.sleep(wait)
                attempt += 1
                continue
            except self._openai.APITimeoutError:
                raise self._deadline() from None
            except self._openai.OpenAIError as exc:
                raise LLMError(redact(explain(exc, self.settings), self._key)) from None
            try:
                if "event-stream" in kind or body.lstrip().startswith("data:"):
                    return read_events(body, self.settings)
                return read_completion(body, self.settings)
            except LLMError as exc:
                raise LLMError(redact(str(exc), self._key)) from None

    def _read(self, response: Any, deadline: float, cancelled: threading.Event | None) -> str | None:
        """The streamed body; the HTTP library's own errors while reading (the SDK wraps only
        those before the reply starts) said as the road says them."""
        try:
            return read_stream(response.iter_bytes(), deadline, cancelled, self.settings)
        except LLMError:
            raise
        except Exception as exc:
            if "timeout" in type(exc).__name__.casefold():  # its read timeout is the turn's deadline
                raise self._deadline() from None
            raise LLMError(
                f"{self.settings.base_url} broke off its reply ({type(exc).__name__}); nothing ran. "
                "Try again; if it keeps happening, check the server's log"
            ) from None

    def _deadline(self) -> DeadlineError:
        return DeadlineError(
            f"the model did not answer within {self.settings.timeout:g} s, the limit for one line "
            f"({self.settings.base_url}); nothing ran. Try again, raise the timeout in the LLM settings, "
            "or choose a smaller model"
        )

    def _status_error(self, exc: Any) -> LLMError:
        detail = ""
        try:
            detail = str(getattr(exc, "message", "") or "")
            if exc.response is not None:
                detail += " " + exc.response.text[:2000]
        except Exception:  # an unreadable error body says nothing more
            pass
        return LLMError(
            redact(explain(exc, self.settings), self._key),
            status=exc.status_code,
            detail=redact(detail, self._key),
        )

    def _retry_wait(self, exc: Any, attempt: int, deadline: float) -> float | None:
        """How long to wait before trying again, or None to give up now."""
        if exc.status_code not in RETRYABLE or attempt >= self.settings.max_retries:
            return None
        if mentions_reply_format(str(getattr(exc, "message", "") or "")):
            return None  # a request the server cannot take: retrying it is pointless
        wait = retry_after(exc.response.headers) if exc.response is not None else None
        wait = wait if wait is not None else 0.5 * 2**attempt
        return wait if time.monotonic() + wait < deadline else None

    def close(self) -> None:
        self._client.close()


def read_stream(
    chunks: Any, deadline: float, cancelled: threading.Event | None, settings: LLMSettings
) -> str | None:
    """A body read piece by piece, or None when the deadline passed or the person stopped first;
    refused past :data:`MAX_REPLY_CHARS` as soon as it gets there. The caller's ``with`` closes
    the connection either way."""
    received = bytearray()
    for chunk in chunks:
        received += chunk
        if len(received) > MAX_REPLY_CHARS:
            raise LLMError(
                f"{settings.base_url} sent a reply of more than {MAX_REPLY_CHARS:,} bytes; that is not "
                "a model's answer, so it was not read further"
            )
        if time.monotonic() > deadline or (cancelled is not None and cancelled.is_set()):
            return None
    return received.decode("utf-8", errors="replace")


def retry_after(headers: Any) -> float | None:
    """Seconds a server asks to wait (``Retry-After``: seconds or an HTTP date, or ``retry-after-ms``)."""
    try:
        if headers.get("retry-after-ms"):
            return max(float(headers["retry-after-ms"]) / 1000, 0.0)
        value = headers.get("retry-after")
        if not value:
            return None
        try:
            return max(float(value), 0.0)
        except ValueError:
            from email.utils import parsedate_to_datetime

            return max(parsedate_to_datetime(value).timestamp() - time.time(), 0.0)
    except (TypeError, ValueError, OverflowError):
        return None
