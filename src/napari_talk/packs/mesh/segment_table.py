"""The segments of a model as a table for the transcript, each with a swatch of its colour."""

from __future__ import annotations

from typing import Any

from .appearance import display_rgba, segment_materials
from .state import ModelState


def segment_table(state: ModelState) -> dict[str, Any] | None:
    """``meta["table"]`` for a segmented model (None before it is): id, part, share of the
    surface and material, with the colour each segment is shown in as its swatch."""
    if state.mesh is None or state.labels is None:
        return None
    rows, swatches = [], []
    for part, material in zip(state.segments(), segment_materials(state), strict=True):
        rows.append([part["id"], part["name"] or "", f"{part['area_share']:.0%}", part["material"] or ""])
        red, green, blue, _ = display_rgba(material)
        swatches.append(f"#{round(red * 255):02x}{round(green * 255):02x}{round(blue * 255):02x}")
    return {"columns": ["", "segment", "part", "share", "material"], "rows": rows, "swatches": swatches}
