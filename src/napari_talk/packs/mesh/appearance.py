"""How a model state looks: segment colours, materials per face, the highlight of the selection."""

from __future__ import annotations

import numpy as np

from .materials import Material, hex_to_linear, linear_to_srgb
from .render import Surface
from .state import ModelState

PALETTE = (
    "#4E79A7", "#F28E2B", "#E15759", "#76B7B2", "#59A14F", "#EDC948",
    "#B07AA1", "#FF9DA7", "#9C755F", "#BAB0AC", "#86BCB6", "#D4A6C8",
)  # fmt: skip
"""Tableau 10 and two more: distinct, and none mistaken for a material."""
UNSEGMENTED = "#B4B7BF"
DEFAULT_MATERIAL = Material("default grey", hex_to_linear(UNSEGMENTED), 0.0, 0.6)
HIGHLIGHT = 0.45
"""How far the selected segment's colour moves towards white."""


def segment_colour(segment_id: int) -> tuple[float, float, float]:
    """Linear RGB of a segment without a material."""
    return hex_to_linear(PALETTE[(segment_id - 1) % len(PALETTE)])


def segment_materials(state: ModelState) -> list[Material]:
    """Per segment (index 0 = segment 1): its material, or a plain one in its display colour."""
    materials = []
    for segment in range(1, state.segment_count + 1):
        if segment in state.materials:
            materials.append(state.materials[segment])
        elif state.labels is None:
            materials.append(DEFAULT_MATERIAL)
        else:
            materials.append(Material(f"segment {segment}", segment_colour(segment), 0.0, 0.6))
    return materials


def face_surface(state: ModelState) -> Surface:
    """Per-face appearance of the model for the software renderer."""
    labels = state.face_labels()
    materials = segment_materials(state)
    base = np.array([m.base_color for m in materials])[labels]
    metallic = np.array([m.metallic for m in materials])[labels]
    roughness = np.array([m.roughness for m in materials])[labels]
    emissive = np.array([np.asarray(m.emissive) * m.emissive_strength for m in materials])[labels]
    return Surface(base, metallic, roughness, emissive)


def display_rgba(material: Material, selected: bool = False) -> np.ndarray:
    """The sRGB colour napari shows for a material (with its glow, and the selection highlight),
    and its opacity: glass shows what is behind it."""
    linear = (
        np.asarray(material.base_color)
        + np.asarray(material.emissive) * min(material.emissive_strength, 2) * 0.5
    )
    srgb = np.array([linear_to_srgb(c) for c in linear])
    if selected:
        srgb = srgb + (1.0 - srgb) * HIGHLIGHT
    return np.array([*np.clip(srgb, 0, 1), material.alpha])


def segment_rgba(state: ModelState) -> np.ndarray:
    """(segments, 4) display colours, the selected segment highlighted."""
    return np.array(
        [display_rgba(m, selected=(i + 1 == state.selected)) for i, m in enumerate(segment_materials(state))]
    )
