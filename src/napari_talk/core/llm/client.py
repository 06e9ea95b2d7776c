"""The Chat Completions client (the openai SDK, imported on first use) and errors that say
what went wrong and how to fix it, without ever repeating the key."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .settings import LLMSettings, MissingKeyError, resolve_key


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


class ChatClient:
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
            max_retries=settings.max_retries,
        )

    def complete(
        self,
        messages: list[dict[str, Any]],
        tools: list[dict[str, Any]] | None = None,
        json_mode: bool = False,
    ) -> ChatReply:
        options: dict[str, Any] = {}
        if tools:
            options["tools"] = tools
        if json_mode:
            options["response_format"] = {"type": "json_object"}
        try:
            completion = self._client.chat.completions.create(
                model=self.settings.model, messages=messages, **options
            )
        except self._openai.OpenAIError as exc:
            raise LLMError(self._redact(explain(exc, self.settings))) from None
        if not completion.choices:
            raise LLMError(f"{self.settings.base_url} answered without a reply (no choices)")
        message = completion.choices[0].message
        calls = [
            {
                "id": call.id,
                "type": "function",
                "function": {"name": call.function.name, "arguments": call.function.arguments},
            }
            for call in (message.tool_calls or [])
            if getattr(call, "function", None) is not None
        ]
        return ChatReply(message.content, calls, completion.model or self.settings.model)

    def close(self) -> None:
        self._client.close()

    def _redact(self, text: str) -> str:
        return text.replace(self._key, "***") if len(self._key) >= 4 else text


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
            f"{url} is rate limiting (429), still after {settings.max_retries} retries: wait a "
            "moment and try again, or check the plan's limits"
        )
    if isinstance(exc, openai.BadRequestError):
        detail = str(getattr(exc, "message", "") or exc)[:200]
        return (
            f"{url} rejected the request (400: {detail}); if this server has no tool calling, "
            "set the mode to JSON in the LLM settings"
        )
    if isinstance(exc, openai.APIStatusError):
        return f"{url} failed ({exc.status_code}); try again later"
    return f"the request to {url} failed: {type(exc).__name__}"
