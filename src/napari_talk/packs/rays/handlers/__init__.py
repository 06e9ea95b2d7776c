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

__all__ = ["HANDLERS", "describe_context", "known_names"]


def known_names(ctx: Context[RaysPackState]) -> dict[str, list[str]]:
    """Glass and object names, without tracing: from the session's scene or a glasses layer not read yet."""
    from .. import editing, layers
    from .current import _untaken_layer

    layer = _untaken_layer(ctx)
    state = ctx.state.current
    if layer is not None:
        try:
            scene = layers.scene_of(layer)
        except Exception:
            names = layer.features.get("name", [])
            return {"glasses": [str(n) for n in names if isinstance(n, str) and n]}
    elif state is not None:
        scene = state.scene if not edited(ctx, state) else layers.scene_of(state.glass_layer)
    else:
        return {}
    listed = editing.objects(scene)
    return {
        "glasses": scene.names,
        "scene_objects": [found.name for found in listed],
        "scene_object_words": editing.name_words(listed),
    }


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
