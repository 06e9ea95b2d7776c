"""The mesh pack's sample (File > Open Sample): a body model the pack takes up as its own on the
first mesh line, so "segment it" works on what the person sees, in the same layer."""

from __future__ import annotations

from typing import Any

SAMPLE_PRIMITIVE = "Body"
SAMPLE_KEY = "napari_talk_mesh_sample"
"""Metadata naming the primitive a sample layer shows."""


def body_sample() -> list[tuple[Any, dict[str, Any], str]]:
    """napari sample data: the Body primitive as a Surface layer, tagged for the pack."""
    from .display import MODEL_LAYER, ROLE, to_napari
    from .primitives import build

    mesh = build(SAMPLE_PRIMITIVE)
    metadata = {ROLE: "model", SAMPLE_KEY: SAMPLE_PRIMITIVE}
    kwargs = {"name": MODEL_LAYER, "shading": "smooth", "metadata": metadata, "blending": "translucent"}
    return [((to_napari(mesh.vertices), mesh.faces), kwargs, "surface")]


def sample_layer(viewer: Any) -> Any | None:
    """The sample's layer in the viewer, if it was opened and is still there."""
    if viewer is None:
        return None
    for layer in viewer.layers:
        if SAMPLE_KEY in getattr(layer, "metadata", {}):
            return layer
    return None
