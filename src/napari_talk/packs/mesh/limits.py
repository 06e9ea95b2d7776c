"""How big a model file may be before it is believed: sizes declared in a file are checked
against these limits before anything is allocated for them.

The limits are the ``mesh`` section of the settings (:class:`MeshSettings`, with defaults that fit a
desktop); the environment variable named beside each raises it for one session, e.g.
``NAPARI_TALK_MESH_MAX_FACES=5000000``.
"""

from __future__ import annotations

import os

from pydantic import ConfigDict

from .settings import MeshSettings, mesh_variable

CONCEPT_MAX_BYTES = 64 * 1024 * 1024
"""The largest concept image read back from the workspace (a render is a few MB)."""


class MeshLimits(MeshSettings):
    model_config = ConfigDict(extra="ignore", frozen=True, validate_assignment=False)

    @classmethod
    def current(cls, settings: MeshSettings | None = None) -> MeshLimits:
        """``settings`` (else the defaults), with any ``NAPARI_TALK_MESH_<NAME>`` environment
        variable applied."""
        values = (settings or MeshSettings()).model_dump()
        for name in cls.model_fields:
            raw = os.environ.get(variable(name), "").replace("_", "").strip()
            if raw.isdigit() and int(raw) >= 1:
                values[name] = int(raw)
        return cls(**values)

    def refusal(self, what: str, declared: int, name: str) -> str:
        """Why a file is refused, the limit it passes and how to raise it."""
        limit = getattr(self, name)
        return (
            f"it declares {declared:,} {what}, over the limit of {limit:,} ({name}); to import it anyway, "
            f"raise it in the settings (Mesh import limits) or start napari with "
            f"{variable(name)}={max(declared, limit + 1)}"
        )


variable = mesh_variable
