"""LLM settings: which model on which server, and how to reach it.

The API key is never stored: it is read from the environment variable the settings name, or typed
for the current session only (held in memory, never logged, never shown).
"""

from __future__ import annotations

import os
from ipaddress import ip_address
from typing import Literal, get_args
from urllib.parse import urlparse

from pydantic import BaseModel, ConfigDict, Field, field_validator

OPENAI_BASE_URL = "https://api.openai.com/v1"

SchemaForm = Literal["json_schema", "json_object"]
Mode = Literal["tools", "json", "schema", "steps", "canonical"]
SCHEMA_FORMS: tuple[SchemaForm, ...] = get_args(SchemaForm)


class LLMSettings(BaseModel):
    model_config = ConfigDict(extra="ignore", validate_assignment=True)

    model: str = Field(
        "",
        title="Model",
        description="Model name (gpt-4o-mini, llama3.1, qwen2.5, ...); empty: no LLM, the parser alone.",
    )
    base_url: str = Field(
        OPENAI_BASE_URL,
        title="Base URL",
        description="Chat Completions endpoint: OpenAI, or a local server such as "
        "http://localhost:11434/v1 (Ollama).",
    )
    api_key_env: str = Field(
        "OPENAI_API_KEY",
        title="API key variable",
        description="Environment variable holding the API key (the key itself is never stored).",
    )
    mode: Mode = Field(
        "tools",
        title="Mode",
        description="Function tools; JSON mode for servers without tool calling; schema: the reply held "
        "to the commands' JSON schema; or steps: two small schema-held questions, first which command "
        "(or none), then its parameters; or canonical: the model picks and fills the grammar's own phrasings "
        "nearest to the line, and the parser reads them (for small local models; 'Test connection' "
        "tells what a server honours).",
    )
    schema_form: SchemaForm = Field(
        "json_schema",
        title="Schema form",
        description="How schema mode asks: json_schema (OpenAI, vLLM, Ollama, LM Studio), json_object "
        "with a schema (llama.cpp, llama-cpp-python).",
    )
    shortlist: int = Field(
        10,
        ge=0,
        le=200,
        title="Commands per line",
        description="How many of the commands in play a model is offered for one line, the likeliest "
        "first (0: all of them); fewer is faster and clearer for a small local model.",
    )
    examples: int = Field(
        0,
        ge=0,
        le=5,
        title="Worked examples",
        description="How many of the project's example lines nearest to a typed line are shown to the "
        "model with the command each means (0: none).",
    )
    timeout: float = Field(
        30.0,
        ge=1,
        le=600,
        title="Timeout (s)",
        description="Seconds one typed line may take with the model, every request and wait included.",
    )
    max_retries: int = Field(
        1, ge=0, le=5, title="Retries", description="Retries of a failed request (429, 5xx)."
    )
    allow_destructive: bool = Field(
        False,
        title="Allow destructive commands",
        description="Run commands that change or remove data, asked for by a model or an MCP client, without "
        "confirmation (sending anything somewhere new always asks).",
    )

    @field_validator("schema_form", mode="before")
    @classmethod
    def _ollama_takes_json_schema(cls, value: object) -> object:
        """Settings saved when "format" was a choice: Ollama's /v1 endpoint reads the schema from
        ``response_format`` ``json_schema`` and ignores a ``format`` beside it."""
        return "json_schema" if value == "format" else value

    @property
    def configured(self) -> bool:
        return bool(self.model.strip())

    @property
    def local(self) -> bool:
        """A server on this machine, which usually needs no key."""
        host = urlparse(self.base_url).hostname or ""
        if host == "localhost":
            return True
        try:
            return ip_address(host).is_loopback
        except ValueError:
            return False


class MissingKeyError(Exception):
    pass


def resolve_key(settings: LLMSettings, session_key: str | None = None) -> str:
    """The key to send: typed for this session, else the environment; local servers need none."""
    if session_key:
        return session_key
    key = os.environ.get(settings.api_key_env, "")
    if key:
        return key
    if settings.local:
        return "not-needed"
    raise MissingKeyError(
        f"no API key: set {settings.api_key_env} in the environment before starting napari, "
        "type a key for this session in the LLM settings, or use a local server"
    )
