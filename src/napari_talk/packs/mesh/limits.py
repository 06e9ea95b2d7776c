"""How big a model file may be before it is believed: sizes declared in a file are checked
against these limits before anything is allocated for them.

Each limit is a setting with a default that fits a desktop (a 2-million-face model takes about
0.5 GB while it is imported, segmented and shown); it is raised for one session with the
environment variable named beside it, e.g. ``NAPARI_TALK_MESH_MAX_FACES=5000000``.
"""

from __future__ import annotations

import os

from pydantic import BaseModel, ConfigDict, Field

ENV_PREFIX = "NAPARI_TALK_MESH_"


class MeshLimits(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True)

    max_file_mb: int = Field(
        256, ge=1, title="Largest model file (MB)", description="Model files larger than this are not read."
    )
    max_faces: int = Field(
        2_000_000,
        ge=1,
        title="Most faces in a model",
        description="Triangles a model file may declare, counting every instance of a repeated part.",
    )
    max_vertices: int = Field(
        3_000_000,
        ge=1,
        title="Most vertices in a model",
        description="Vertices a model file may declare, counting every instance of a repeated part.",
    )
    max_nodes: int = Field(
        100_000,
        ge=1,
        title="Most scene nodes in a glTF",
        description="Nodes a glTF scene may visit (a node used by several parents counts each time).",
    )

    @classmethod
    def current(cls) -> MeshLimits:
        """The defaults, with any ``NAPARI_TALK_MESH_<NAME>`` environment variable applied."""
        values = {}
        for name in cls.model_fields:
            raw = os.environ.get(variable(name), "").replace("_", "").strip()
            if raw.isdigit():
                values[name] = int(raw)
        return cls(**values)

    def refusal(self, what: str, declared: int, name: str) -> str:
        """Why a file is refused, the limit it passes and how to raise it."""
        limit = getattr(self, name)
        return (
            f"it declares {declared:,} {what}, over the limit of {limit:,} ({name}); to import it anyway, "
            f"start napari with {variable(name)}={max(declared, limit + 1)}"
        )


def variable(name: str) -> str:
    return f"{ENV_PREFIX}{name.upper()}"
