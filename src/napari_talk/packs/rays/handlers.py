"""Handlers of the rays pack: queries answered from the ctx's traced scene, shown in napari.

The ctx keeps one :class:`RaysState` (scene, trace, display options) under
``ctx.state["rays"]``. A scene reaches it by ``load_scene`` / ``load_sample_scene``, or from
the viewer: the glasses layer of the "Prism demo" sample carries its scene, and is read (with the
polygons as the person edited them) the first time a rays command needs it, and by ``trace_scene``.
Queries highlight what they find in a selection layer and reply with a count and a short table.
napari itself is never imported here: only the viewer's public methods are used.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np

from ...core.grammar.names import describe_miss, resolve_name
from ...core.history import Changes
from ...core.layers import has_layer, remove_layer, same_layer, set_attributes
from ...core.pack import Context, Handlers
from ...core.result import CommandError, Result
from . import agent, analysis, display, layers, lineage
from . import commands as cmd
from .edges import get_side_descriptions
from .fresnel import fresnel_transmittances as fresnel
from .samples import SAMPLES
from .scene import Glass, Scene
from .scene_json import SceneFormatError, scene_from_text
from .simulation import Segments, SimulationResult
from .state import RaysPackState, RaysState
from .tracer import trace

HANDLERS = Handlers[RaysPackState]()


SCENE_MAX_BYTES = 32 * 1024 * 1024
"""A scene file larger than this is refused before it is read."""
GLASS_SHAPES = display.GLASS_SHAPES
TABLE_ROWS = 8
MAX_RECORDS = 500
"""Matches listed in a Result's data; the count is always complete."""
NO_SCENE = (
    "No ray scene is loaded. Open one with File > Open Sample > napari-talk > Prism demo, or type "
    '"load the prism demo", or "load scene <file.json>" for a ray-optics scene (version 5) in the workspace.'
)


# -- where the scene comes from -------------------------------------------------------------------


def _current(ctx: Context[RaysPackState]) -> RaysState | None:
    """The ctx's scene; a glasses layer the ctx has not read yet (a sample just opened)
    takes over, traced."""
    state = ctx.state.current
    viewer = ctx.viewer
    if viewer is not None:
        layer = layers.glass_layer(viewer)
        if layer is not None and (state is None or not same_layer(state.glass_layer, layer)):
            scene = layers.scene_of(layer)
            state = RaysState(scene, _trace(scene), layer, state.color_by if state else "brightness")
            with Changes() as changes:  # taken over whole, or not at all
                _keep(ctx, state, changes)
                _draw(ctx, state, glasses=False, changes=changes)
    return state


def _state(ctx: Context[RaysPackState]) -> RaysState:
    state = _current(ctx)
    if state is None:
        raise CommandError(NO_SCENE)
    return state


def _trace(scene: Scene) -> SimulationResult:
    try:
        return trace(scene)
    except ValueError as exc:
        raise CommandError(f"cannot trace {scene.name!r}: {exc}") from None


def _keep(ctx: Context[RaysPackState], state: RaysState, changes: Changes | None = None) -> None:
    before = ctx.state.current
    ctx.state.current = state
    ctx.state.agent.set(state.scene, state.result.segments, state.result.lineage)
    agent.use(ctx.state.agent)  # the seed's module-level tools see what the viewer shows
    if changes is not None:
        changes.add(lambda: _keep(ctx, before) if before is not None else _forget(ctx))


def _forget(ctx: Context[RaysPackState]) -> None:
    ctx.state.current = None
    ctx.state.agent.clear()


# -- drawing ----------------------------------------------------------------------------------------


def _draw(
    ctx: Context[RaysPackState], state: RaysState, *, glasses: bool, changes: Changes | None = None
) -> RaysState:
    """Show the state's scene: all of it when ``glasses`` (a new scene); else the rays and edge
    labels, leaving the glasses layer as the person edited it (it is told the scene it now holds).
    ``changes`` gets each step, so a command that fails half-way takes them all back."""
    viewer = ctx.viewer
    if viewer is None:
        return state
    layers.remove(viewer, "selection", changes)
    layers.physics_up(viewer, changes)
    if glasses or state.glass_layer is None or not has_layer(viewer.layers, state.glass_layer):
        layer = layers.put(viewer, display.glass_layer(state.scene), "glasses", changes)
        state = replace(state, glass_layer=layer)
        _keep(ctx, state, changes)
    else:
        layers.sync_glass_layer(state.glass_layer, state.scene, changes)
    layers.put(viewer, display.edge_label_layer(state.scene), "edge labels", changes)
    layers.put(viewer, display.ray_layer(state.scene, state.result, state.color_by), "rays", changes)
    layers.put(viewer, display.source_layer(state.scene), "sources", changes)
    return state


def _edited(ctx: Context[RaysPackState], state: RaysState) -> bool:
    """Whether the glasses in the viewer differ from the traced ones."""
    viewer = ctx.viewer
    layer = state.glass_layer
    if viewer is None or layer is None or not has_layer(viewer.layers, layer):
        return False
    polygons = [
        np.asarray(d)[:, -2:][:, ::-1]
        for d, kind in zip(layer.data, layer.shape_type, strict=True)
        if kind in GLASS_SHAPES
    ]
    traced = [glass.vertices for glass in state.scene.glasses]
    if len(polygons) != len(traced):
        return True
    return any(p.shape != t.shape or not np.allclose(p, t) for p, t in zip(polygons, traced, strict=True))


def _highlight(ctx: Context[RaysPackState], state: RaysState, found: Segments, title: str) -> None:
    viewer = ctx.viewer
    if viewer is None:
        return
    if len(found):
        layers.put(viewer, display.selection_layer(state.scene, found, title), "selection")
    else:
        layers.remove(viewer, "selection")


# -- replies ----------------------------------------------------------------------------------------


def _glass(state: RaysState, name: str) -> Glass:
    names = state.scene.names
    match = resolve_name(name, names)
    if match.found is None:
        raise CommandError(describe_miss(match, "glass", names))
    return next(glass for glass in state.scene.glasses if glass.name == match.found)


def _point(xy: np.ndarray) -> str:
    return f"({xy[0]:.1f}, {xy[1]:.1f})"


def _table(found: Segments) -> str:
    """The segments found, in columns narrow enough for the dock's default width (about 46
    characters of its fixed-width font): each row's end point goes on a line of its own, under
    its start point, so no column is cut off or scrolled to."""
    shown = found.take(slice(0, TABLE_ROWS))
    dop = shown.degree_of_polarization
    starts = [_point(p) for p in shown.p1]
    ends = [_point(p) for p in shown.p2]
    id_width = max([2, *(len(str(i)) for i in shown.ids)])
    lead = 2 + id_width + 2 + 7 + 2 + 6 + 2 + 5 + 2  # where the start point's column begins
    rows = [f"  {'id':>{id_width}}  {'kind':<7s}  {'bright':>6s}  {'DoP':>5s}  from → to"]
    for i, name in enumerate(shown.interaction_names()):
        rows.append(
            f"  {shown.ids[i]:{id_width}d}  {name:<7s}  {shown.total[i]:6.4f}  {dop[i]:5.3f}  {starts[i]}"
        )
        rows.append(" " * (lead - 2) + f"→ {ends[i]}")
    if len(found) > TABLE_ROWS:
        rows.append(f"  … and {len(found) - TABLE_ROWS} more")
    return "\n".join(rows)


def _answer(ctx: Context[RaysPackState], state: RaysState, found: Segments, what: str) -> Result:
    _highlight(ctx, state, found, what)
    total = len(state.result.segments)
    message = f"{len(found)} of {total} ray segments {what}."
    if len(found):
        message += f"\n{_table(found)}"
    if _edited(ctx, state):
        message += '\nThe glasses were edited since the last trace: type "retrace" to update the rays.'
    data = {
        "count": len(found),
        "total": total,
        "rays": found.records(MAX_RECORDS),
        "truncated": len(found) > MAX_RECORDS,
    }
    return Result.success(message, data, matched=len(found))


def _checked(call: Any, *args: Any) -> Any:
    try:
        return call(*args)
    except ValueError as exc:
        raise CommandError(str(exc)) from None


# -- the queries ------------------------------------------------------------------------------------


@HANDLERS.on(cmd.FindRaysInsideGlass)
def find_rays_inside_glass(command: cmd.FindRaysInsideGlass, ctx: Context[RaysPackState]) -> Result:
    state = _state(ctx)
    glass = _glass(state, command.glass_name)
    found = analysis.find_rays_inside_glass(state.result.segments, glass)
    return _answer(ctx, state, found, f"are inside {glass.name}")


@HANDLERS.on(cmd.FindRaysCrossingEdge)
def find_rays_crossing_edge(command: cmd.FindRaysCrossingEdge, ctx: Context[RaysPackState]) -> Result:
    state = _state(ctx)
    glass = _glass(state, command.glass_name)
    found = _checked(analysis.find_rays_crossing_edge, state.result.segments, glass, command.edge_label)
    return _answer(ctx, state, found, f"cross or touch edge {command.edge_label} of {glass.name}")


@HANDLERS.on(cmd.FindRaysByAngleToEdge)
def find_rays_by_angle_to_edge(command: cmd.FindRaysByAngleToEdge, ctx: Context[RaysPackState]) -> Result:
    state = _state(ctx)
    glass = _glass(state, command.glass_name)
    found = _checked(
        analysis.find_rays_by_angle_to_edge,
        state.result.segments,
        glass,
        command.edge_label,
        command.min_angle,
        command.max_angle,
    )
    window = f"{command.min_angle:g}°–{command.max_angle:g}°"
    return _answer(
        ctx, state, found, f"are at {window} to the normal of edge {command.edge_label} of {glass.name}"
    )


@HANDLERS.on(cmd.FindRaysByPolarization)
def find_rays_by_polarization(command: cmd.FindRaysByPolarization, ctx: Context[RaysPackState]) -> Result:
    state = _state(ctx)
    found = analysis.find_rays_by_polarization(state.result.segments, command.min_dop, command.max_dop)
    return _answer(
        ctx, state, found, f"have a degree of polarization of {command.min_dop:g}–{command.max_dop:g}"
    )


@HANDLERS.on(cmd.RankPathsByEnergy)
def rank_paths_by_energy(command: cmd.RankPathsByEnergy, ctx: Context[RaysPackState]) -> Result:
    state = _state(ctx)
    paths = lineage.rank_paths_by_energy(state.result.lineage, command.top_n)
    on_paths = np.unique(np.concatenate([p["path_ids"] for p in paths])) if paths else np.zeros(0, int)
    _highlight(ctx, state, state.result.segments.by_ids(on_paths), f"top {len(paths)} paths")
    rows = ["  rank  energy    s        p        path"]
    for rank, path in enumerate(paths[:TABLE_ROWS], start=1):
        steps = " → ".join(path["path_types"])
        rows.append(
            f"  {rank:4d}  {path['energy']:.4f}  {path['energy_s']:.4f}  {path['energy_p']:.4f}  {steps}"
        )
    if len(paths) > TABLE_ROWS:
        rows.append(f"  … and {len(paths) - TABLE_ROWS} more")
    message = f"The {len(paths)} brightest of {len(state.result.lineage.leaves())} paths:\n" + "\n".join(rows)
    return Result.success(message, paths, matched=len(paths))


@HANDLERS.on(cmd.CheckEnergyConservation)
def check_energy_conservation(command: cmd.CheckEnergyConservation, ctx: Context[RaysPackState]) -> Result:
    state = _state(ctx)
    report = lineage.check_energy_conservation(state.result.lineage)
    checks = report["total_checks"]
    if report["is_valid"]:
        verdict = f"Energy is conserved at all {checks} interactions"
    else:
        verdict = f"Energy is NOT conserved at {report['violation_count']} of {checks} interactions"
    message = (
        f"{verdict} (largest children/parent ratio {report['max_excess_ratio']:.9f}, largest imbalance "
        f"{report['max_imbalance']:.1e}).\n"
        f"Sources emitted {report['source_energy']:.4f}; {report['escaped_energy']:.4f} left the scene and "
        f"{report['truncated_energy']:.4f} was truncated (balance error {report['balance_error']:.1e})."
    )
    if not report["is_valid"]:
        bad = state.result.segments.by_ids(np.array([v["parent_id"] for v in report["violations"]], int))
        _highlight(ctx, state, bad, "energy violations")
    return Result.success(message, report)


@HANDLERS.on(cmd.FresnelTransmittances)
def fresnel_transmittances(command: cmd.FresnelTransmittances, ctx: Context[RaysPackState]) -> Result:
    values = _checked(fresnel, command.n1, command.n2, command.theta_i_deg)
    head = f"n1 = {command.n1:g} → n2 = {command.n2:g} at {command.theta_i_deg:g}°: "
    if values["tir"]:
        body = "total internal reflection (R_s = R_p = 1)"
    else:
        body = (
            f"R_s = {values['R_s']:.6f}, R_p = {values['R_p']:.6f}, T_s = {values['T_s']:.6f}, "
            f"T_p = {values['T_p']:.6f}, refracted at {values['theta_t_deg']:.4f}°"
        )
    critical = values["critical_angle_deg"]
    angles = f"Brewster angle {values['brewster_angle_deg']:.4f}°; " + (
        f"critical angle {critical:.4f}°" if critical is not None else "no critical angle (n1 ≤ n2)"
    )
    return Result.success(f"{head}{body}.\n{angles}.", values)


@HANDLERS.on(cmd.DescribeGlassEdges)
def describe_glass_edges(command: cmd.DescribeGlassEdges, ctx: Context[RaysPackState]) -> Result:
    state = _state(ctx)
    glass = _glass(state, command.glass_name)
    edges = [edge.to_dict() for edge in get_side_descriptions(glass)]
    data = {"glass": glass.name, "ref_index": glass.ref_index, "edges": edges}
    return Result.success(analysis.describe_glass_edges(glass), data)


# -- scene and display -----------------------------------------------------------------------------


def _summary_line(state: RaysState) -> str:
    summary = state.result.summary
    glasses = ", ".join(state.scene.names) or "no glasses"
    line = (
        f"{state.scene.name}: {glasses}; {len(state.scene.sources)} light source(s); "
        f"{summary['segments']} segments traced in {summary['trace_seconds'] * 1000:.1f} ms"
    )
    return "\n".join([line, *(f"Warning: {w}" for w in summary["warnings"])])


def _restorer(ctx: Context[RaysPackState], before: RaysState | None) -> Any:
    def undo() -> None:
        if before is None:
            ctx.state.current = None
            ctx.state.agent.clear()
            if ctx.viewer is not None:
                for role in ("selection", "sources", "rays", "edge labels", "glasses"):
                    layers.remove(ctx.viewer, role)
        else:
            _keep(ctx, before)
            _draw(ctx, before, glasses=True)

    return undo


def _show_new(ctx: Context[RaysPackState], scene: Scene, source: str) -> Result:
    before = _current(ctx) if ctx.viewer is not None else ctx.state.current
    oriented = layers.orientation(ctx.viewer) if ctx.viewer is not None else None
    state = RaysState(scene, _trace(scene), color_by=before.color_by if before else "brightness")
    with Changes() as changes:  # all of the scene, or nothing of it
        _keep(ctx, state, changes)
        state = _draw(ctx, state, glasses=True, changes=changes)
        if ctx.viewer is not None:
            from ...core.viewer import camera

            view = camera(ctx.viewer)
            set_attributes(view, changes, center=view.center, zoom=view.zoom)
            ctx.viewer.reset_view()
    restore = _restorer(ctx, before)

    def undo() -> None:
        restore()
        if ctx.viewer is not None and before is None:
            layers.set_orientation(ctx.viewer, oriented)

    return Result.success(f"Loaded {source}. {_summary_line(state)}", state.result.summary, undo=undo)


@HANDLERS.on(cmd.LoadScene)
def load_scene(command: cmd.LoadScene, ctx: Context[RaysPackState]) -> Result:
    text = ctx.workspace.read_text(command.path, limit=SCENE_MAX_BYTES, what="scene files")
    try:
        scene = scene_from_text(text, command.path.rsplit("/", 1)[-1])
    except (SceneFormatError, ValueError) as exc:
        raise CommandError(f"cannot load {command.path!r}: {exc}") from None
    return _show_new(ctx, scene, f"{command.path!r}")


@HANDLERS.on(cmd.LoadSampleScene)
def load_sample_scene(command: cmd.LoadSampleScene, ctx: Context[RaysPackState]) -> Result:
    return _show_new(ctx, SAMPLES[command.name](), f"the {command.name} sample")


@HANDLERS.on(cmd.TraceScene)
def trace_scene(command: cmd.TraceScene, ctx: Context[RaysPackState]) -> Result:
    before = _state(ctx)
    scene = before.scene
    viewer = ctx.viewer
    if viewer is not None and before.glass_layer is not None and has_layer(viewer.layers, before.glass_layer):
        scene = layers.scene_of(before.glass_layer)
    state = RaysState(scene, _trace(scene), before.glass_layer, before.color_by)
    with Changes() as changes:
        _keep(ctx, state, changes)
        state = _draw(ctx, state, glasses=False, changes=changes)
    return Result.success(
        f"Traced again. {_summary_line(state)}", state.result.summary, undo=_restorer(ctx, before)
    )


@HANDLERS.on(cmd.ColorRays)
def color_rays(command: cmd.ColorRays, ctx: Context[RaysPackState]) -> Result:
    before = _state(ctx)
    state = replace(before, color_by=command.by)
    with Changes() as changes:
        _keep(ctx, state, changes)
        if ctx.viewer is not None:
            layers.put(
                ctx.viewer, display.ray_layer(state.scene, state.result, state.color_by), "rays", changes
            )

    def undo() -> None:
        _keep(ctx, before)
        if ctx.viewer is not None:
            layers.put(ctx.viewer, display.ray_layer(before.scene, before.result, before.color_by), "rays")

    shown = (
        "degree of polarization (yellow: none, magenta: full)"
        if command.by == "polarization"
        else "brightness"
    )
    return Result.success(f"Rays are coloured by {shown}; their opacity follows brightness.", undo=undo)


@HANDLERS.on(cmd.ClearRaySelection)
def clear_ray_selection(command: cmd.ClearRaySelection, ctx: Context[RaysPackState]) -> Result:
    viewer = ctx.viewer
    removed = layers.layers_with(viewer, "selection") if viewer is not None else []
    if not removed:
        return Result.success("No rays are highlighted.")
    with Changes() as changes:
        for layer in removed:
            remove_layer(viewer, layer, changes)
    return Result.success("Cleared the ray highlight.", undo=changes.undo)


# -- what the parser and a language model are told ----------------------------------------------------


def known_names(ctx: Context[RaysPackState]) -> dict[str, list[str]]:
    """Glass names, without tracing: from the ctx's scene or a glasses layer not read yet."""
    state = ctx.state.current
    viewer = ctx.viewer
    if viewer is not None:
        layer = layers.glass_layer(viewer)
        if layer is not None and (state is None or not same_layer(state.glass_layer, layer)):
            names = layer.features.get("name", [])
            return {"glasses": [str(n) for n in names if isinstance(n, str) and n]}
    return {"glasses": state.scene.names} if state is not None else {}


def describe_context(ctx: Context[RaysPackState]) -> list[str]:
    state = ctx.state.current
    if state is None:
        names = known_names(ctx).get("glasses")
        return [f"Ray scene in the viewer (not traced yet), glasses: {', '.join(names)}"] if names else []
    lines = [f"Ray scene {_summary_line(state)}"]
    for glass in state.scene.glasses:
        labels = ", ".join(edge.short_label for edge in get_side_descriptions(glass))
        lines.append(f"  glass {glass.name!r}: n = {glass.ref_index:g}, edges {labels}")
    return lines
