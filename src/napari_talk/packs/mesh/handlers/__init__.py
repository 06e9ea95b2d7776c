"""Handlers of the mesh pack, one module per job: the model (spawn, import, describe), its
segments, materials, export, ComfyUI concepts, and the pack's context for the LLM.

The model lives in the pack's state (:class:`~..state.MeshPackState`) as an immutable
:class:`~..state.ModelState`; every change goes through :func:`.common.commit`.
"""

from __future__ import annotations

from . import concepts, export, materials, model, segments  # noqa: F401  (each binds its handlers)
from .common import HANDLERS
from .context import describe_context

__all__ = ["HANDLERS", "describe_context"]
