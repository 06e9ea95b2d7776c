"""The atlas's section of the person's settings: where its catalogue lives and where its sentence
model is fetched from. Each keeps its environment variable, which wins for the session it is set in."""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit

from pydantic import BaseModel, ConfigDict, Field, field_validator

from ...core.safety.secrets import url_masked, url_without_secrets

DATABASE_ENV = "NAPARI_TALK_ATLAS_DATABASE"
MODEL_URL_ENV = "NAPARI_TALK_MODEL_URL"
"""The sentence model's own variable (``core.sentences.minilm_files.LOCATION_ENV``), named here
without importing the model's modules (numpy) when the pack registers."""


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
        json_schema_extra={"placeholder": "empty: the workspace's SQLite file; or postgresql://user@host/db"},
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
