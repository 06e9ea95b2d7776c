"""The Chat Completions client (the openai SDK, imported on first use) and errors that say
what went wrong and how to fix it, without ever repeating the key.

Replies are streamed: the body is read piece by piece, so the cap on its size applies while
reading (a server cannot make us hold 600 MB), the turn's one deadline is checked between pieces
(a server trickling a byte a second is cut off when the turn's time is up), and giving up closes
the connection, which is how a local server learns to stop generating for a line nobody waits for.
"""

from __future__ import annotations

import json
import threading
import time
from dataclasses import dataclass, field
from typing import Any, cast

from ..safety.secrets import redact as redact  # the core's one redaction, importable here as before
from .settings import LLMSettings, MissingKeyError, SchemaForm, resolve_key


class LLMError(Exception):
    """One line for the person: the cause and the fix."""

    def __init__(self, message: str, *, status: int | None = None, detail: str = "") -> None:
        super().__init__(message)
        self.status = status
        """The HTTP status the server answered with, when it answered with an error."""
        self.detail = detail
        """The server's own words about the error (redacted), for deciding what to try next."""


class DeadlineError(LLMError):
    """The turn's total time ran out."""


class Cancelled(LLMError):
    """The person stopped the line."""


@dataclass
class ChatReply:
    content: str | None
    tool_calls: list[dict[str, Any]] = field(default_factory=list)
    model: str = ""
    prompt_tokens: int | None = None
    """What the server says it read (``usage.prompt_tokens``), when it says."""
    completion_tokens: int | None = None

    def as_message(self) -> dict[str, Any]:
        message: dict[str, Any] = {"role": "assistant", "content": self.content or ""}
        if self.tool_calls:
            message["tool_calls"] = self.tool_calls
        return message


RETRYABLE = (408, 409, 429, 500, 502, 503, 504)
MAX_REPLY_CHARS = 2_000_000
"""A reply body larger than this is refused as it arrives (a model's answer is a few kB)."""


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


def mentions_reply_format(detail: str) -> bool:
    """Whether a server's error names the reply's shape: the request form it cannot take."""
    folded = detail.casefold()
    return any(word in folded for word in ("response_format", "json_schema", "json_object", "schema"))


def read_events(text: str, settings: LLMSettings) -> ChatReply:
    """A streamed reply (server-sent events of ``chat.completion.chunk``) put back together."""
    content: list[str] = []
    calls: dict[int, dict[str, Any]] = {}
    model = ""
    usage: dict[str, Any] = {}
    seen = False
    for line in text.splitlines():
        line = line.strip()
        if not line.startswith("data:"):
            continue
        data = line[5:].strip()
        if data == "[DONE]":
            break
        try:
            event = json.loads(data)
        except (ValueError, RecursionError):
            continue
        if not isinstance(event, dict):
            continue
        if isinstance(event.get("error"), dict | str):
            error = event["error"]
            detail = error.get("message") if isinstance(error, dict) else error
            raise LLMError(f"{settings.base_url} answered without a reply: {str(detail)[:200]}")
        seen = True
        if isinstance(event.get("model"), str):
            model = event["model"]
        if isinstance(event.get("usage"), dict):
            usage = event["usage"]
        for choice in event.get("choices") or []:
            delta = choice.get("delta") if isinstance(choice, dict) else None
            if not isinstance(delta, dict):
                continue
            if isinstance(delta.get("content"), str):
                content.append(delta["content"])
            for part in delta.get("tool_calls") or []:
                if not isinstance(part, dict):
                    continue
                index: int = part["index"] if isinstance(part.get("index"), int) else len(calls)
                call = calls.setdefault(index, {"id": None, "name": "", "arguments": ""})
                call["id"] = part.get("id") or call["id"]
                function = part.get("function") or {}
                if isinstance(function.get("name"), str):
                    call["name"] += function["name"]
                arguments = function.get("arguments")
                if isinstance(arguments, str):
                    call["arguments"] += arguments
                elif arguments is not None:
                    call["arguments"] += json.dumps(arguments)
    if not seen:
        shown = " ".join(text[:80].split())
        raise LLMError(f"{settings.base_url} sent a stream with no reply in it ({shown!r}…)")
    message = {
        "content": "".join(content) if content else None,
        "tool_calls": [
            {"id": c["id"], "function": {"name": c["name"], "arguments": c["arguments"] or "{}"}}
            for _, c in sorted(calls.items())
            if c["name"]
        ],
    }
    body = {"model": model, "choices": [{"message": message}], "usage": usage}
    return read_completion(json.dumps(body), settings)


LOCAL_REPLY_TOKENS = 384
"""A reply's length at most on a server on this machine (each step may ask for less): a small model
held to a schema can run on to its context limit (thousands of tokens, minutes of CPU). Hosted
servers are not capped: OpenAI's reasoning models refuse ``max_tokens``."""


def json_reply() -> dict[str, Any]:
    """JSON mode: any JSON object."""
    return {"response_format": {"type": "json_object"}}


def constrained_reply(schema: dict[str, Any], form: SchemaForm) -> dict[str, Any]:
    """A reply held to ``schema``, in the form each server documents on its Chat Completions
    endpoint: ``response_format`` ``json_schema`` (OpenAI, vLLM, Ollama's /v1, LM Studio), with
    ``strict`` where OpenAI's strict mode accepts the schema (:func:`strict_legal`); or a ``schema``
    on ``json_object`` (llama.cpp's server, llama-cpp-python)."""
    if form == "json_schema":
        shape: dict[str, Any] = {"name": "reply", "schema": schema}
        if strict_legal(schema):
            shape["strict"] = True
        return {"response_format": {"type": "json_schema", "json_schema": shape}}
    return {"response_format": {"type": "json_object", "schema": schema}}


STRICT_KEYWORDS = frozenset(
    {
        "type", "properties", "required", "additionalProperties", "items", "anyOf", "enum", "const",
        "description", "$ref", "$defs", "pattern", "format", "minimum", "maximum", "exclusiveMinimum",
        "exclusiveMaximum", "multipleOf", "minItems", "maxItems",
    }
)  # fmt: skip
"""The JSON Schema keywords OpenAI's strict mode accepts (``default``, ``minLength``, ``title``, ...
make it refuse the request)."""
STRICT_LIMITS = {"properties": 5000, "enum_values": 1000, "depth": 10}


def strict_legal(schema: dict[str, Any]) -> bool:
    """Whether OpenAI's strict mode accepts ``schema``: an object at the root (not an ``anyOf``),
    every object closed (``additionalProperties: false``) with every property required, only the
    keywords it supports, and within its limits (properties, enum values, nesting)."""
    if schema.get("type") != "object" or "anyOf" in schema:
        return False
    counts = {"properties": 0, "enum_values": 0}

    def legal(node: Any, depth: int) -> bool:
        if not isinstance(node, dict) or depth > STRICT_LIMITS["depth"] or not set(node) <= STRICT_KEYWORDS:
            return False
        counts["enum_values"] += len(node.get("enum", ()))
        properties = node.get("properties")
        kinds = node.get("type")
        if properties is not None or kinds == "object" or (isinstance(kinds, list) and "object" in kinds):
            properties = properties or {}
            if node.get("additionalProperties") is not False or set(node.get("required", ())) != set(
                properties
            ):
                return False
            counts["properties"] += len(properties)
        children = [*(properties or {}).values(), *node.get("anyOf", ()), *node.get("$defs", {}).values()]
        if "items" in node:
            children.append(node["items"])
        return all(legal(child, depth + 1) for child in children)

    return legal(schema, 1) and all(counts[k] <= STRICT_LIMITS[k] for k in counts)


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


def read_completion(text: str, settings: LLMSettings) -> ChatReply:
    """A Chat Completions body, whatever the server put in it, as a reply or one clear error."""
    url = settings.base_url
    if len(text) > MAX_REPLY_CHARS:
        raise LLMError(f"{url} sent a reply of {len(text):,} characters; that is not a model's answer")
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        shown = " ".join(text[:80].split())
        raise LLMError(
            f"{url} did not answer in JSON ({shown!r}…): is the base URL the server's /v1 endpoint?"
        ) from None
    choices = data.get("choices") if isinstance(data, dict) else None
    first = choices[0] if isinstance(choices, list) and choices else None
    message = first.get("message") if isinstance(first, dict) else None
    if not isinstance(message, dict):
        error = data.get("error") if isinstance(data, dict) else None
        detail = error.get("message") if isinstance(error, dict) else error
        why = f": {str(detail)[:200]}" if detail else " (no message in its choices)"
        raise LLMError(f"{url} answered without a reply{why}")
    content = message.get("content")
    if isinstance(content, list):  # content parts
        content = "".join(
            p.get("text", "") for p in content if isinstance(p, dict) and isinstance(p.get("text"), str)
        )
    calls: list[dict[str, Any]] = []
    for call in message.get("tool_calls") or []:
        function = call.get("function") if isinstance(call, dict) else None
        if not isinstance(function, dict) or not isinstance(function.get("name"), str):
            continue
        arguments = function.get("arguments")
        if not isinstance(arguments, str):
            arguments = json.dumps(arguments if arguments is not None else {})
        calls.append(
            {
                "id": str(call.get("id") or f"call_{len(calls)}"),
                "type": "function",
                "function": {"name": function["name"], "arguments": arguments},
            }
        )
    model = data.get("model") if isinstance(data.get("model"), str) else ""
    usage = data.get("usage") if isinstance(data.get("usage"), dict) else {}
    counts = [
        usage.get(k) if isinstance(usage.get(k), int) else None
        for k in ("prompt_tokens", "completion_tokens")
    ]
    reply = ChatReply(content if isinstance(content, str) else None, calls, model or settings.model)
    reply.prompt_tokens, reply.completion_tokens = counts
    return reply


def explain(exc: Exception, settings: LLMSettings) -> str:
    """The openai SDK's exceptions as one line with the cause and the fix."""
    import openai

    url, model = settings.base_url, settings.model
    if isinstance(exc, openai.APITimeoutError):
        return (
            f"the model did not answer within {settings.timeout:g} s ({url}); try again, raise the "
            "timeout in the LLM settings, or choose a smaller model"
        )
    if isinstance(exc, openai.APIConnectionError):
        return (
            f"cannot reach {url}: is the server running and the base URL right? "
            "(Ollama: `ollama serve`, then http://localhost:11434/v1)"
        )
    if isinstance(exc, openai.AuthenticationError | openai.PermissionDeniedError):
        return (
            f"{url} refused the API key ({exc.status_code}): check {settings.api_key_env} "
            "or the key typed for this session"
        )
    if isinstance(exc, openai.NotFoundError):
        return f"{url} has no model {model!r} (404): check the model name in the LLM settings"
    if isinstance(exc, openai.RateLimitError):
        return (
            f"{url} is rate limiting (429), and waiting as it asks would outlast the {settings.timeout:g} s "
            "timeout or the retries: wait a moment and try again, or check the plan's limits"
        )
    if isinstance(exc, openai.BadRequestError) and not mentions_reply_format(str(exc)):
        detail = str(getattr(exc, "message", "") or exc)
        return (
            f"{url} rejected the request (400: {detail}); if this server has no tool calling, "
            "set the mode to JSON in the LLM settings"
        )
    if isinstance(exc, openai.APIStatusError):
        if mentions_reply_format(str(getattr(exc, "message", "") or "")):
            return (
                f"{url} cannot hold a reply to a schema in the form asked ({exc.status_code}); "
                "choose another schema form or the JSON mode in the LLM settings"
            )
        return f"{url} failed ({exc.status_code}); try again later"
    return f"the request to {url} failed: {type(exc).__name__}"
