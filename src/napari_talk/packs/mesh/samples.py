"""The mesh pack's sample (File > Open Sample): a body model the pack takes up as its own on the
first mesh line, so "segment it" works on what the person sees, in the same layer."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ...core.basics.viewer_protocols import Layer, Viewer

SAMPLE_PRIMITIVE = "Body"
SAMPLE_KEY = "napari_talk_mesh_sample"
"""Metadata naming the primitive a sample layer shows."""


def body_sample() -> list[tuple[Any, dict[str, Any], str]]:
    """napari sample data: the Body primitive as a Surface layer, tagged for the pack, shown as
    the pack shows a model (so taking it up on the first mesh line changes nothing in it)."""
    from .appearance import segment_rgba
    from .display import MODEL_LAYER, ROLE, display_mesh
    from .primitives import build
    from .state import ModelState

    state = ModelState(mesh=build(SAMPLE_PRIMITIVE))
    vertices, faces, segment_of_vertex = display_mesh(state)
    metadata = {ROLE: "model", SAMPLE_KEY: SAMPLE_PRIMITIVE}
    kwargs = {
        "name": MODEL_LAYER,
        "shading": "smooth",
        "metadata": metadata,
        "blending": "translucent",
        "vertex_colors": segment_rgba(state)[segment_of_vertex],
    }
    return [((vertices, faces), kwargs, "surface")]


def sample_layer(viewer: Viewer | None) -> Layer | None:
    """The sample's layer in the viewer, if it was opened and is still there."""
    if viewer is None:
        return None
    for layer in viewer.layers:
        if SAMPLE_KEY in getattr(layer, "metadata", {}):
            return layer
    return None
