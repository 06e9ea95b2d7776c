"""LLM settings: which model on which server, how to reach it, and where the settings live.

The API key is never stored: it is read from the environment variable the settings name, or typed
for the current session only (held in memory, never logged, never shown).
"""

from __future__ import annotations

import json
import os
from ipaddress import ip_address
from pathlib import Path
from typing import Literal, Protocol
from urllib.parse import urlparse

from pydantic import BaseModel, ConfigDict, Field, ValidationError

OPENAI_BASE_URL = "https://api.openai.com/v1"
PLUGIN_NAME = "napari-talk"


class LLMSettings(BaseModel):
    model_config = ConfigDict(extra="ignore", validate_assignment=True)

    model: str = Field("", description="Model name (gpt-4o-mini, llama3.1, qwen2.5, ...); empty: no LLM.")
    base_url: str = Field(
        OPENAI_BASE_URL,
        description="Chat Completions endpoint: OpenAI, or a local server such as "
        "http://localhost:11434/v1 (Ollama).",
    )
    api_key_env: str = Field("OPENAI_API_KEY", description="Environment variable holding the API key.")
    mode: Literal["tools", "json"] = Field(
        "tools", description="Function tools, or JSON mode for servers without tool calling."
    )
    timeout: float = Field(30.0, gt=0, le=600, description="Seconds to wait for one reply.")
    max_retries: int = Field(1, ge=0, le=5, description="Retries of a failed request (429, 5xx).")
    allow_destructive: bool = Field(
        False, description="Run destructive commands the model asks for without confirmation."
    )

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


class SettingsStore(Protocol):
    def load(self) -> LLMSettings: ...

    def save(self, settings: LLMSettings) -> None: ...


class FileStore:
    """Settings as JSON in the user's config folder (or a path given for tests)."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path or default_config_dir() / "settings.json"

    def load(self) -> LLMSettings:
        try:
            return LLMSettings.model_validate(json.loads(self.path.read_text()).get("llm", {}))
        except (OSError, ValueError, ValidationError, AttributeError):
            return LLMSettings()

    def save(self, settings: LLMSettings) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_suffix(".tmp")
        tmp.write_text(json.dumps({"llm": settings.model_dump()}, indent=2))
        tmp.replace(self.path)


class NapariPluginStore:
    """napari ≥ 0.9 plugin settings (Preferences page, auto-saved), declared in napari.yaml."""

    def __init__(self) -> None:
        from napari.settings import get_plugin_settings

        self._section = get_plugin_settings(PLUGIN_NAME).llm

    def load(self) -> LLMSettings:
        return LLMSettings.model_validate(
            {name: getattr(self._section, name) for name in LLMSettings.model_fields}
        )

    def save(self, settings: LLMSettings) -> None:
        for name, value in settings.model_dump().items():
            setattr(self._section, name, value)


def default_config_dir() -> Path:
    base = os.environ.get("XDG_CONFIG_HOME") or (os.environ.get("APPDATA") if os.name == "nt" else None)
    return Path(base or Path.home() / ".config") / PLUGIN_NAME


def default_store() -> SettingsStore:
    """``$NAPARI_TALK_CONFIG`` (a file) when set, else napari's plugin settings, else a file."""
    forced = os.environ.get("NAPARI_TALK_CONFIG")
    if forced:
        return FileStore(Path(forced))
    try:
        return NapariPluginStore()
    except Exception:  # napari < 0.9, napari absent, or the manifest not installed
        return FileStore()
