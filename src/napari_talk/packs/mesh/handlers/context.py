"""The pack's context for the LLM and the parser: what model there is, its parts and materials."""

from __future__ import annotations

from ....core.contract.pack import Context
from ..state import MeshPackState


def describe_context(ctx: Context[MeshPackState]) -> list[str]:
    state = ctx.state.model
    mesh = state.mesh
    if mesh is None:
        return ["Mesh: no model (spawn_primitive makes one)."]
    count = state.segment_count
    line = f"Mesh: {mesh.name} ({state.source}), {count} {'part' if count == 1 else 'parts'}"
    if state.labels is None:
        line += " (not segmented)"
    elif any(state.names):
        line += " named " + ", ".join(f"{i + 1} {n}" for i, n in enumerate(state.names) if n)
        line += " (segment_id takes the name or the number)"
    if state.selected:
        line += f", segment {state.selected} selected"
    if state.materials:
        line += ", materials: " + "; ".join(f"{k}: {v.name}" for k, v in sorted(state.materials.items()))
    if state.concepts:
        line += f", {len(state.concepts)} concepts waiting (select_concept 1-3)"
    return [line + "."]
