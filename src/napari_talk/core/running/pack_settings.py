"""The sections of the settings that packs read: the atlas's catalogue database and the mesh
pack's import limits. They live in the core so the settings (and napari's Preferences page, built
from the manifest) hold them beside the others; each keeps its environment variable, which wins
for the session it is set in.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit

from pydantic import BaseModel, ConfigDict, Field, field_validator

from ..safety.secrets import url_masked, url_without_secrets

DATABASE_ENV = "NAPARI_TALK_ATLAS_DATABASE"
MODEL_URL_ENV = "NAPARI_TALK_MODEL_URL"
MESH_ENV_PREFIX = "NAPARI_TALK_MESH_"


def is_database_url(text: str) -> bool:
    return urlsplit(text.strip()).scheme.lower() in ("postgresql", "postgres")


class AtlasSettings(BaseModel):
    model_config = ConfigDict(extra="ignore", validate_assignment=True)

    database: str = Field(
        "",
        title="Catalogue database",
        description="Where the catalogue lives: empty for the workspace's SQLite file "
        "(atlas/catalogue.sqlite), or a postgresql:// URL for a catalogue shared on PostgreSQL with "
        "pgvector. A password in the URL serves this session only and is never saved (libpq reads "
        f"$PGPASSWORD or ~/.pgpass); no message shows it. ${DATABASE_ENV} overrides it for a session.",
    )

    model_url: str = Field(
        "",
        title="Sentence model location",
        description="Where the atlas's sentence model (all-MiniLM-L6-v2) is downloaded from on first use, "
        "when no installed package carries it: empty for Hugging Face at a pinned revision, else a base URL "
        "(a mirror) or a folder holding model.safetensors and tokenizer.json. Every file is checked against "
        f"its pinned sha256. ${MODEL_URL_ENV} overrides it for a session.",
    )

    @field_validator("model_url")
    @classmethod
    def _stripped(cls, value: str) -> str:
        return value.strip()

    @field_validator("database")
    @classmethod
    def _a_database_url(cls, value: str) -> str:
        value = value.strip()
        if value and not is_database_url(value):
            raise ValueError("the catalogue database is a postgresql:// URL, or empty for the SQLite file")
        return value

    def resolved(self) -> AtlasSettings:
        """These settings with ``$NAPARI_TALK_ATLAS_DATABASE`` applied when it is set."""
        url = os.environ.get(DATABASE_ENV, "").strip()
        return self.model_copy(update={"database": url}) if url else self

    def __repr_args__(self) -> Iterator[tuple[str | None, Any]]:
        """The settings as a log or a traceback shows them: the database's password masked."""
        for name, value in super().__repr_args__():
            yield name, url_masked(value) if name == "database" else value

    def stored(self) -> AtlasSettings:
        """What may be written to a settings file: the URL without a password, in its user part
        or as ``?password=`` (like the LLM key, a secret is never stored)."""
        return self.model_copy(update={"database": url_without_secrets(self.database)})


class MeshSettings(BaseModel):
    """How big a model file may be before it is believed (a 2-million-face model takes about
    0.5 GB while it is imported, segmented and shown)."""

    model_config = ConfigDict(extra="ignore", validate_assignment=True)

    max_file_mb: int = Field(
        256,
        ge=1,
        title="Largest model file (MB)",
        description="Model files larger than this are not read "
        f"(${MESH_ENV_PREFIX}MAX_FILE_MB overrides it).",
    )
    max_faces: int = Field(
        2_000_000,
        ge=1,
        title="Most faces in a model",
        description="Triangles a model file may declare, counting every instance of a repeated part "
        f"(${MESH_ENV_PREFIX}MAX_FACES overrides it).",
    )
    max_vertices: int = Field(
        3_000_000,
        ge=1,
        title="Most vertices in a model",
        description="Vertices a model file may declare, counting every instance of a repeated part "
        f"(${MESH_ENV_PREFIX}MAX_VERTICES overrides it).",
    )
    max_nodes: int = Field(
        100_000,
        ge=1,
        title="Most scene nodes in a glTF",
        description="Nodes a glTF scene may visit, a node used by several parents counting each time "
        f"(${MESH_ENV_PREFIX}MAX_NODES overrides it).",
    )


def mesh_variable(name: str) -> str:
    return f"{MESH_ENV_PREFIX}{name.upper()}"
