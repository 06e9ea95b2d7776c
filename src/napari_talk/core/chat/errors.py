"""What goes wrong talking to a model, said in one line with the cause and the fix, never the key."""

from __future__ import annotations

from .settings import LLMSettings


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


def mentions_reply_format(detail: str) -> bool:
    """Whether a server's error names the reply's shape: the request form it cannot take."""
    folded = detail.casefold()
    return any(word in folded for word in ("response_format", "json_schema", "json_object", "schema"))


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
