"""The mesh pack's section of the person's settings: how big a model file may be before it is
believed. Each limit keeps its environment variable, which wins for the session it is set in."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

MESH_ENV_PREFIX = "NAPARI_TALK_MESH_"


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
