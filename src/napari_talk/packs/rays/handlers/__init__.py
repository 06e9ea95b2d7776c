"""Handlers of the rays pack, by job: ``queries`` (read: the seed's queries, the scene listed, angles),
``questions`` (ray count, one object, the scene's indices in angle questions), ``edits`` (the scene
changed by typing), ``scene_io`` (load, sample, retrace, save), ``appearance``
(colours, highlight, irradiance plot); ``current`` holds the scene's way in and out of the session
and the viewer. The session's state is the only place a scene lives."""

from __future__ import annotations

from ....core.contract.pack import Context
from ..edges import get_side_descriptions
from ..state import RaysPackState
from . import appearance, edits, queries, questions, scene_io  # noqa: F401  (each binds its handlers)
from .current import HANDLERS, edited, summary_line
from .names import names_in_layer, names_of

__all__ = ["HANDLERS", "describe_context", "known_names"]


def known_names(ctx: Context[RaysPackState]) -> dict[str, list[str]]:
    """Glass and object names, without tracing: from the session's scene or a glasses layer not read yet."""
    from .current import _untaken_layer

    layer = _untaken_layer(ctx)
    state = ctx.state.current
    if layer is not None:
        try:
            return names_in_layer(layer)
        except Exception:
            names = layer.features.get("name", [])
            return {"glasses": [str(n) for n in names if isinstance(n, str) and n]}
    if state is None:
        return {}
    return names_in_layer(state.glass_layer) if edited(ctx, state) else names_of(state.scene)


def describe_context(ctx: Context[RaysPackState]) -> list[str]:
    state = ctx.state.current
    if state is None:
        names = known_names(ctx).get("glasses")
        return [f"Ray scene in the viewer (not traced yet), glasses: {', '.join(names)}"] if names else []
    from .. import editing

    lines = [f"Ray scene {summary_line(state)}"]
    for glass in state.scene.glasses:
        labels = ", ".join(edge.short_label for edge in get_side_descriptions(glass))
        lines.append(f"  glass {glass.name!r}: n = {glass.ref_index:g}, edges {labels}")
    others = [o.name for o in editing.objects(state.scene) if o.kind not in ("glass", "circle glass")]
    if others:
        lines.append(f"  other objects: {', '.join(others)}")
    return lines
