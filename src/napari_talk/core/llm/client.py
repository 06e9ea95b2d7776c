"""The Chat Completions client (the openai SDK, imported on first use) and errors that say
what went wrong and how to fix it, without ever repeating the key."""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from typing import Any, cast

from ..secrets import redact as redact  # the core's one redaction, importable here as before
from .settings import LLMSettings, MissingKeyError, SchemaForm, resolve_key


class LLMError(Exception):
    """One line for the person: the cause and the fix."""


@dataclass
class ChatReply:
    content: str | None
    tool_calls: list[dict[str, Any]] = field(default_factory=list)
    model: str = ""

    def as_message(self) -> dict[str, Any]:
        message: dict[str, Any] = {"role": "assistant", "content": self.content or ""}
        if self.tool_calls:
            message["tool_calls"] = self.tool_calls
        return message


RETRYABLE = (408, 409, 429, 500, 502, 503, 504)
MAX_REPLY_CHARS = 2_000_000
"""A reply body larger than this is refused unread (a model's answer is a few kB)."""


class ChatClient:
    """Chat Completions over the openai SDK's transport; the reply is read here, defensively.

    The SDK sends the request (``base_url``, key, timeout); its own retries are off, so every wait
    (a 429's Retry-After, a 5xx back-off) is ours and stays within the settings' timeout. The body
    is parsed by :func:`read_completion`, which turns any shape a server may send into a reply or
    one clear :class:`LLMError`.
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
    ) -> ChatReply:
        """``reply_format``: request options that shape the reply (:func:`json_reply`,
        :func:`constrained_reply`)."""
        options: dict[str, Any] = dict(reply_format or {})
        if tools:
            options["tools"] = tools
        if self.settings.local:
            options["max_tokens"] = LOCAL_REPLY_TOKENS
        deadline = time.monotonic() + self.settings.timeout
        attempt = 0
        while True:
            remaining = deadline - time.monotonic()
            try:
                raw = self._client.chat.completions.with_raw_response.create(
                    model=self.settings.model,
                    messages=cast(Any, messages),
                    timeout=max(remaining, 0.05),
                    **options,
                )
                text = raw.text
            except self._openai.APIStatusError as exc:
                wait = self._retry_wait(exc, attempt, deadline)
                if wait is None:
                    raise LLMError(redact(explain(exc, self.settings), self._key)) from None
                time.sleep(wait)
                attempt += 1
                continue
            except self._openai.OpenAIError as exc:
                raise LLMError(redact(explain(exc, self.settings), self._key)) from None
            try:
                return read_completion(text, self.settings)
            except LLMError as exc:
                raise LLMError(redact(str(exc), self._key)) from None

    def _retry_wait(self, exc: Any, attempt: int, deadline: float) -> float | None:
        """How long to wait before trying again, or None to give up now."""
        if exc.status_code not in RETRYABLE or attempt >= self.settings.max_retries:
            return None
        wait = retry_after(exc.response.headers) if exc.response is not None else None
        wait = wait if wait is not None else 0.5 * 2**attempt
        return wait if time.monotonic() + wait < deadline else None

    def close(self) -> None:
        self._client.close()


LOCAL_REPLY_TOKENS = 1024
"""A reply's length at most on a server on this machine: a small model held to a schema can run on
to its context limit (thousands of tokens, minutes of CPU that later requests queue behind, since
such a server goes on generating after the client has given up). Hosted servers are not capped:
OpenAI's reasoning models refuse ``max_tokens``."""


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
    return ChatReply(content if isinstance(content, str) else None, calls, model or settings.model)


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
    if isinstance(exc, openai.BadRequestError):
        detail = str(getattr(exc, "message", "") or exc)
        return (
            f"{url} rejected the request (400: {detail}); if this server has no tool calling, "
            "set the mode to JSON in the LLM settings"
        )
    if isinstance(exc, openai.APIStatusError):
        return f"{url} failed ({exc.status_code}); try again later"
    return f"the request to {url} failed: {type(exc).__name__}"
