"""The plugin's settings and where they live: napari's plugin settings (napari ≥ 0.9: the
Preferences page, auto-saved) or a JSON file in the user's config folder. The core's sections (the
language model, the workspace, the network) stand beside one section per installed pack that
declares a settings model (``Pack(..., settings=Model)``). No secret is stored: the LLM key is read
from an environment variable, and a section whose model has ``stored()`` saves only what that
returns (a password in a database URL serves the session and is left out)."""

from __future__ import annotations

import json
import os
from functools import cache
from pathlib import Path
from typing import Any, Protocol

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from ..chat.settings import LLMSettings
from ..contract.registry import installed_packs
from ..safety.workspace import default_workspace

PLUGIN_NAME = "napari-talk"


class WorkspaceSettings(BaseModel):
    model_config = ConfigDict(extra="ignore", validate_assignment=True)

    root: str = Field(
        "",
        title="Workspace folder",
        description="Where commands read and write files (screenshots, exports, the catalogue); empty: "
        "$NAPARI_TALK_WORKSPACE, else ~/napari-talk.",
    )

    def path(self) -> Path:
        return Path(self.root).expanduser() if self.root.strip() else default_workspace()


class NetworkSettings(BaseModel):
    model_config = ConfigDict(extra="ignore", validate_assignment=True)

    allowed_hosts: str = Field(
        "",
        title="Allowed hosts",
        description="Hosts on this machine or a private network that URLs may be fetched from (names or "
        "addresses, comma-separated: localhost, 192.168.1.20); public hosts need no entry.",
    )


@cache
def pack_sections() -> dict[str, tuple[type[BaseModel], str]]:
    """Each installed pack's section of the settings: its name, its model and its title."""
    return {pack.name: (pack.settings, pack.settings_title) for pack in installed_packs() if pack.settings}


class Settings(BaseModel):
    """The core's sections as fields; each pack's section beside them (``settings.section("atlas")``),
    validated by the pack's model; keys that are no section are dropped."""

    model_config = ConfigDict(extra="allow")

    llm: LLMSettings = Field(default_factory=lambda: LLMSettings(), title="Language model")
    workspace: WorkspaceSettings = Field(default_factory=lambda: WorkspaceSettings(), title="Workspace")
    network: NetworkSettings = Field(default_factory=lambda: NetworkSettings(), title="Network")

    @model_validator(mode="after")
    def _pack_sections_validated(self) -> Settings:
        given = dict(self.__pydantic_extra__ or {})
        sections = {}
        for name, (model, _) in pack_sections().items():
            value = given.get(name)
            sections[name] = value if isinstance(value, model) else model.model_validate(value or {})
        self.__pydantic_extra__ = sections
        return self

    def section(self, name: str) -> Any:
        """One section: a core one (``"llm"``) or a pack's (``"atlas"``)."""
        return getattr(self, name)

    @classmethod
    def sections(cls) -> dict[str, tuple[type[BaseModel], str | None]]:
        """Every section's name, model and title: the core's, then each pack's."""
        core = {name: (_model(field.annotation), field.title) for name, field in cls.model_fields.items()}
        return {**core, **pack_sections()}

    def stored(self) -> Settings:
        """What may be saved: these settings without any secret (a section's own ``stored()``)."""
        kept = {name: self.section(name) for name in self.sections()}
        return self.model_copy(
            update={name: value.stored() for name, value in kept.items() if hasattr(value, "stored")}
        )

    @classmethod
    def from_sections(cls, sections: dict[str, Any]) -> Settings:
        """Settings from saved sections; a section that no longer validates (edited by hand, or
        saved by another version) falls back to its defaults, the others are kept."""
        try:
            return cls.model_validate(sections)
        except ValidationError:
            kept = {}
            for name, (model, _) in cls.sections().items():
                try:
                    kept[name] = model.model_validate(sections.get(name, {}))
                except ValidationError:
                    continue
            return cls.model_validate(kept)


def manifest_configurations() -> dict[str, Any]:
    """The ``contributions.configurations`` of napari.yaml, as the settings models say they are
    (a test keeps the manifest equal to this, and prints the block to paste when they differ)."""
    sections: dict[str, Any] = {}
    for name, (model, title) in Settings.sections().items():
        schema = model.model_json_schema()
        properties = {}
        for key, spec in schema["properties"].items():
            entry = {k: spec[k] for k in ("title", "type", "enum", "default") if k in spec}
            entry.update({k: spec[k] for k in ("minimum", "maximum") if k in spec})
            entry["description"] = spec["description"]
            properties[key] = entry
        sections[name] = {"title": title, "properties": properties}
    return sections


class SettingsStore(Protocol):
    def load(self) -> Settings: ...

    def save(self, settings: Settings) -> None: ...


class FileStore:
    """Settings as JSON in the user's config folder (or a path given for tests)."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path or default_config_dir() / "settings.json"

    def load(self) -> Settings:
        try:
            sections = json.loads(self.path.read_text())
        except (OSError, ValueError, RecursionError):
            return Settings()
        return Settings.from_sections(sections) if isinstance(sections, dict) else Settings()

    def save(self, settings: Settings) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_suffix(".tmp")
        tmp.write_text(json.dumps(settings.stored().model_dump(), indent=2))
        tmp.replace(self.path)


class NapariPluginStore:
    """napari's plugin settings, declared under ``contributions.configurations`` in napari.yaml."""

    def __init__(self) -> None:
        from napari.settings import get_plugin_settings

        self._settings = get_plugin_settings(PLUGIN_NAME)

    def load(self) -> Settings:
        sections = {}
        for name, (model, _) in Settings.sections().items():
            section = getattr(self._settings, name)
            sections[name] = {key: getattr(section, key) for key in model.model_fields}
        return Settings.from_sections(sections)

    def save(self, settings: Settings) -> None:
        for name, values in settings.stored().model_dump().items():
            section = getattr(self._settings, name)
            for key, value in values.items():
                setattr(section, key, value)


def _model(annotation: Any) -> type[BaseModel]:
    assert isinstance(annotation, type) and issubclass(annotation, BaseModel)
    return annotation


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
