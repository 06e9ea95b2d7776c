"""A Chat Completions body read defensively: whatever shape a server sends (one JSON object, or a
stream of server-sent events), a :class:`ChatReply` or one clear :class:`~.errors.LLMError`."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from .errors import LLMError
from .settings import LLMSettings

MAX_REPLY_CHARS = 2_000_000
"""A reply body larger than this is refused as it arrives (a model's answer is a few kB)."""


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
