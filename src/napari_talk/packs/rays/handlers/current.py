"""Where the rays handlers find the scene, how they trace it (off the GUI thread), keep it and draw it.

The session's :class:`RaysState` is the one place a scene lives. A scene reaches it by a command
(load, sample, edit, retrace) or from the viewer: the glasses layer of the "Prism demo" sample
carries its scene, and is read (with the polygons as the person edited them) when a rays command
needs it. Tracing runs in a :class:`Job` (off the GUI thread when there is one); only ``finish``
touches the viewer. A read query that meets a scene not traced yet traces it and keeps the trace,
and draws nothing but its own highlight.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import cast

import numpy as np

from ....core.basics.jobs import Job, Progress, Stopped
from ....core.basics.result import CommandError, Result
from ....core.basics.viewer_protocols import Layer, ShapesLayer, Viewer
from ....core.contract.pack import Context, Handlers
from ....core.running.history import Changes
from ....core.viewer.layers import has_layer, same_layer, set_attributes
from .. import display, layers, roles
from ..engine import trace
from ..scene import Scene
from ..simulation import Segments, SimulationResult
from ..state import RaysPackState, RaysState
from .names import remember

Ctx = Context[RaysPackState]
HANDLERS = Handlers[RaysPackState]()
"""The pack's handler table; each module of this package binds its own."""
NO_SCENE = (
    "No ray scene is loaded. Open one with File > Open Sample > napari-talk > Prism demo, or type "
    '"load the prism demo", or "load scene <file.json>" for a ray-optics scene (version 5) in the workspace.'
)


def traced(scene: Scene, progress: Progress | None = None) -> SimulationResult:
    """``scene`` traced; ``progress`` (the job's) is checked between steps: Stop ends the trace."""
    try:
        return trace(scene, stop=None if progress is None else progress.check)
    except Stopped as exc:
        raise Stopped(f"tracing {scene.name!r}: {exc}") from None
    except ValueError as exc:
        raise CommandError(f"cannot trace {scene.name!r}: {exc}") from None


def _untaken_layer(ctx: Ctx) -> ShapesLayer | None:
    """A glasses layer in the viewer that the session's scene did not come from (a sample just
    opened), or None."""
    viewer = ctx.viewer
    if viewer is None:
        return None
    layer = layers.glass_layer(viewer)
    state = ctx.state.current
    if layer is not None and (state is None or not same_layer(state.glass_layer, layer)):
        return layer
    return None


def scene_now(ctx: Ctx) -> tuple[Scene, ShapesLayer | None]:
    """The scene as it stands, without tracing, and its glasses layer: the glasses as the person
    may have reshaped them in the viewer."""
    layer = _untaken_layer(ctx)
    if layer is not None:
        return layers.scene_of(layer), layer
    state = ctx.state.current
    if state is None:
        raise CommandError(NO_SCENE)
    if edited(ctx, state):
        return layers.scene_of(state.glass_layer), state.glass_layer
    return state.scene, state.glass_layer


def with_trace(ctx: Ctx, answer: Callable[[RaysState], Result]) -> Result | Job:
    """``answer`` given the traced scene: at once when the session has it, else after tracing
    the viewer's scene in a job (the trace is kept: a cache of what the viewer shows)."""
    layer = _untaken_layer(ctx)
    state = ctx.state.current
    if layer is None:
        if state is None:
            raise CommandError(NO_SCENE)
        return answer(state)
    scene = layers.scene_of(layer)
    color_by = state.color_by if state is not None else "brightness"

    def finish(result: SimulationResult) -> Result:
        fresh = RaysState(scene, result, layer, color_by)
        ctx.state.current = fresh
        return answer(fresh)

    return Job(f"tracing {scene.name}", lambda progress: traced(scene, progress), finish)


def keep(ctx: Ctx, state: RaysState | None, changes: Changes) -> None:
    before = ctx.state.current
    ctx.state.current = state
    changes.add(lambda: setattr(ctx.state, "current", before))


def _clear_highlight(ctx: Ctx, viewer: Viewer) -> None:
    """Undoing a drawing (steps undone last to first, so the scene is already the one before):
    a later query's highlight is emptied while a scene is left, and goes with the last scene."""
    if ctx.state.current is None:
        layers.remove(viewer, "selection")
    else:
        layers.empty(viewer, "selection")


def show(
    ctx: Ctx,
    state: RaysState,
    changes: Changes,
    *,
    glasses: bool,
    made: tuple[display.LayerData, Layer] | None = None,
) -> RaysState:
    """Keep the state and draw it: all of it when ``glasses`` (a new or edited scene); else the
    rays, edge labels and sources, leaving the glasses layer as the person edited it (it is told
    the scene it now holds). Every step goes into ``changes``. ``made``: the glasses layer
    already made off the GUI thread, with its data."""
    viewer = ctx.viewer
    if viewer is not None:
        layers.empty(viewer, "selection", changes)
        changes.add(lambda: _clear_highlight(ctx, viewer))  # undone: a later query's highlight goes too
        roles.physics_up(viewer, changes)
        if glasses or state.glass_layer is None or not has_layer(viewer.layers, state.glass_layer):
            layer_data, layer = made if made is not None else (display.glass_layer(state.scene), None)
            if layer is not None:
                remember(layer, state.scene)
            layer = layers.put(viewer, layer_data, "glasses", changes, made=layer)
            state = replace(state, glass_layer=cast("ShapesLayer", layer))
        else:
            layers.sync_glass_layer(state.glass_layer, state.scene, changes)
        layers.put(viewer, display.edge_label_layer(state.scene), "edge labels", changes)
        layers.put(viewer, display.ray_layer(state.scene, state.result, state.color_by), "rays", changes)
        layers.put(viewer, display.source_layer(state.scene), "sources", changes)
    keep(ctx, state, changes)
    return state


def retrace(
    ctx: Ctx,
    scene: Scene | Callable[[], Scene],
    said: Callable[[RaysState], str],
    *,
    glasses: bool = True,
    glass_layer: ShapesLayer | None = None,
    frame: bool = False,
    before: Callable[[Changes], None] | None = None,
) -> Job:
    """A job that traces ``scene`` off the GUI thread, then shows it as the session's scene, all
    of it undoable as one change (``before(changes)`` runs first, for steps of the command's own);
    ``frame`` fits the view to the scene. ``scene`` may be a function that reads it (a scene file
    of thousands of glasses takes seconds to check): it is called off the GUI thread too."""
    color_by = ctx.state.current.color_by if ctx.state.current is not None else "brightness"
    read: list[Scene] = [scene] if isinstance(scene, Scene) else []
    made: list[tuple[display.LayerData, Layer]] = []
    drawn = glasses and ctx.viewer is not None

    def work(progress: Progress) -> SimulationResult:
        if not read:
            progress.report("reading the scene")
            read.append(cast(Callable[[], Scene], scene)())
        progress.report(f"tracing {read[0].name}")
        result = traced(read[0], progress)
        if drawn and len(read[0].glasses) >= layers.MADE_OFF_THREAD:
            progress.report(f"drawing {len(read[0].glasses):,} glasses")
            layer_data = display.glass_layer(read[0])
            made.append((layer_data, layers.made_off_thread(layer_data)))
        return result

    def finish(result: SimulationResult) -> Result:
        state = RaysState(read[0], result, glass_layer, color_by)
        with Changes() as changes:  # all of it, or nothing
            if before is not None:
                before(changes)
            state = show(ctx, state, changes, glasses=glasses, made=made[0] if made else None)
            if frame and ctx.viewer is not None:
                from ....core.viewer.access import camera

                view = camera(ctx.viewer)
                set_attributes(view, changes, center=view.center, zoom=view.zoom)
                ctx.viewer.reset_view()
        return Result.success(said(state), state.result.summary, undo=changes)

    return Job(f"tracing {scene.name}" if isinstance(scene, Scene) else "reading a scene", work, finish)


NAMED_IN_REPLY = 40
"""Glasses a reply names; a larger scene's reply counts the rest (describe_scene lists them all)."""


def summary_line(state: RaysState) -> str:
    summary = state.result.summary
    names = state.scene.names
    glasses = ", ".join(names[:NAMED_IN_REPLY]) or "no glasses"
    if len(names) > NAMED_IN_REPLY:
        glasses += f" and {len(names) - NAMED_IN_REPLY:,} more ({len(names):,} glasses)"
    line = (
        f"{state.scene.name}: {glasses}; {len(state.scene.sources)} light source(s); "
        f"{summary['segments']} segments traced in {summary['trace_seconds'] * 1000:.1f} ms"
    )
    note = display.labels_note(state.scene)
    return "\n".join(
        [
            line,
            *(f"Warning: {w}" for w in summary["warnings"]),
            *(f"Note: {n}" for n in summary["notes"]),
            *([note] if note else []),
        ]
    )


def edited(ctx: Ctx, state: RaysState) -> bool:
    """Whether the glasses in the viewer differ from the traced ones."""
    viewer = ctx.viewer
    layer = state.glass_layer
    if viewer is None or layer is None or not has_layer(viewer.layers, layer):
        return False
    polygons = [
        np.asarray(d)[:, -2:][:, ::-1]
        for d, kind in zip(layer.data, layer.shape_type, strict=True)
        if kind in display.GLASS_SHAPES
    ]
    traced_ = [glass.vertices for glass in state.scene.glasses]
    if len(polygons) != len(traced_):
        return True
    return any(p.shape != t.shape or not np.allclose(p, t) for p, t in zip(polygons, traced_, strict=True))


def highlight(ctx: Ctx, state: RaysState, found: Segments, title: str) -> None:
    """A query's answer in the viewer: its segments glow in the selection layer (the only layer a
    query touches; "clear the ray selection" takes it away)."""
    viewer = ctx.viewer
    if viewer is None:
        return
    if len(found):
        layers.put(viewer, display.selection_layer(state.scene, found, title), "selection")
    else:
        layers.empty(viewer, "selection")
