"""The read queries: ray_tracing_shapely's eight, the scene listed, an angle between two media. They read:
a query draws nothing but its highlight, and changes no scene."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ....core.basics.chart import chart
from ....core.basics.result import CommandError, Result
from .. import analysis, editing, lineage
from .. import commands as cmd
from ..edges import get_side_descriptions
from ..fresnel import fresnel_transmittances as fresnel
from ..scene import Glass
from ..simulation import Segments
from ..state import RaysState
from .current import HANDLERS, Ctx, edited, highlight, scene_now, with_trace
from .questions import facts_line, medium_index, object_facts, point

TABLE_ROWS = 8
MAX_RECORDS = 500
"""Matches listed in a Result's data; the count is always complete."""


def glass_named(state: RaysState, name: str) -> Glass:
    from ....core.rules.names import describe_miss, resolve_name

    names = state.scene.names
    match = resolve_name(name, names)
    if match.found is None:
        raise CommandError(describe_miss(match, "glass", names))
    return next(glass for glass in state.scene.glasses if glass.name == match.found)


def _table(found: Segments) -> str:
    """The segments found, in columns narrow enough for the dock's default width (about 46
    characters of its fixed-width font): each row's end point goes on a line of its own, under
    its start point, so no column is cut off or scrolled to."""
    shown = found.take(slice(0, TABLE_ROWS))
    dop = shown.degree_of_polarization
    starts = [point(p) for p in shown.p1]
    ends = [point(p) for p in shown.p2]
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


MAX_CHART_BARS = 120
"""A ray list's chart shows at most this many segments' energies (a bar is then 2 pixels wide)."""


def _answer(ctx: Ctx, state: RaysState, found: Segments, what: str) -> Result:
    highlight(ctx, state, found, what)
    total = len(state.result.segments)
    message = f"{len(found)} of {total} ray segments {what}."
    if len(found):
        message += f"\n{_table(found)}"
    if edited(ctx, state):
        message += '\nThe glasses were edited since the last trace: type "retrace" to update the rays.'
    data = {
        "count": len(found),
        "total": total,
        "rays": found.records(MAX_RECORDS),
        "truncated": len(found) > MAX_RECORDS,
    }
    if not len(found):
        return Result.success(message, data, matched=0)
    energies = found.total[:MAX_CHART_BARS]
    said = "" if len(found) <= MAX_CHART_BARS else f", the first {MAX_CHART_BARS}"
    caption = f"energy of each segment listed{said} (largest {float(energies.max()):.4g})"
    return Result.success(message, data, matched=len(found), chart=chart(energies.tolist(), caption))


def _checked(call: Any, *args: Any) -> Any:
    try:
        return call(*args)
    except ValueError as exc:
        raise CommandError(str(exc)) from None


@HANDLERS.on(cmd.FindRaysInsideGlass)
def find_rays_inside_glass(command: cmd.FindRaysInsideGlass, ctx: Ctx) -> Any:
    def answer(state: RaysState) -> Result:
        glass = glass_named(state, command.glass_name)
        found = analysis.find_rays_inside_glass(state.result.segments, glass)
        return _answer(ctx, state, found, f"are inside {glass.name}")

    return with_trace(ctx, answer)


@HANDLERS.on(cmd.FindRaysCrossingEdge)
def find_rays_crossing_edge(command: cmd.FindRaysCrossingEdge, ctx: Ctx) -> Any:
    def answer(state: RaysState) -> Result:
        glass = glass_named(state, command.glass_name)
        found = _checked(analysis.find_rays_crossing_edge, state.result.segments, glass, command.edge_label)
        return _answer(ctx, state, found, f"cross or touch edge {command.edge_label} of {glass.name}")

    return with_trace(ctx, answer)


@HANDLERS.on(cmd.FindRaysByAngleToEdge)
def find_rays_by_angle_to_edge(command: cmd.FindRaysByAngleToEdge, ctx: Ctx) -> Any:
    def answer(state: RaysState) -> Result:
        glass = glass_named(state, command.glass_name)
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

    return with_trace(ctx, answer)


@HANDLERS.on(cmd.FindRaysByPolarization)
def find_rays_by_polarization(command: cmd.FindRaysByPolarization, ctx: Ctx) -> Any:
    def answer(state: RaysState) -> Result:
        found = analysis.find_rays_by_polarization(state.result.segments, command.min_dop, command.max_dop)
        window = f"{command.min_dop:g}–{command.max_dop:g}"
        return _answer(ctx, state, found, f"have a degree of polarization of {window}")

    return with_trace(ctx, answer)


def _path_rows(paths: list[dict[str, Any]], state: RaysState) -> list[str]:
    """Two lines a path: rank, energy, where it ends and its last segment's id; then its steps.
    Paths of a symmetric scene often carry the same energy by the same steps: where they end
    tells them apart."""
    segments = state.result.segments
    rows = ["  rank  energy  s/p          ends at (leaf id)"]
    for rank, path in enumerate(paths[:TABLE_ROWS], start=1):
        leaf = path["id"]
        ratio = f"{path['energy_s']:.3f}/{path['energy_p']:.3f}"
        rows.append(f"  {rank:4d}  {path['energy']:.4f}  {ratio:11s}  {point(segments.p2[leaf])} (#{leaf})")
        rows.append(f"        {' → '.join(path['path_types'])}")
    if len(paths) > TABLE_ROWS:
        rows.append(f"  … and {len(paths) - TABLE_ROWS} more")
    return rows


@HANDLERS.on(cmd.RankPathsByEnergy)
def rank_paths_by_energy(command: cmd.RankPathsByEnergy, ctx: Ctx) -> Any:
    def answer(state: RaysState) -> Result:
        paths = lineage.rank_paths_by_energy(state.result.lineage, command.top_n)
        on_paths = np.unique(np.concatenate([p["path_ids"] for p in paths])) if paths else np.zeros(0, int)
        highlight(ctx, state, state.result.segments.by_ids(on_paths), f"top {len(paths)} paths")
        head = f"The {len(paths)} brightest of {len(state.result.lineage.leaves())} paths:"
        energies = [float(p["energy"]) for p in paths]
        shown = chart(
            energies, f"energy of each path, brightest first (largest {max(energies, default=0):.4g})"
        )
        return Result.success(
            "\n".join([head, *_path_rows(paths, state)]), paths, matched=len(paths), chart=shown
        )

    return with_trace(ctx, answer)


@HANDLERS.on(cmd.CheckEnergyConservation)
def check_energy_conservation(command: cmd.CheckEnergyConservation, ctx: Ctx) -> Any:
    def answer(state: RaysState) -> Result:
        report = lineage.check_energy_conservation(state.result.lineage)
        checks = report["total_checks"]
        if report["is_valid"]:
            verdict = f"Energy is conserved at all {checks} interactions"
        else:
            verdict = f"Energy is NOT conserved at {report['violation_count']} of {checks} interactions"
        message = (
            f"{verdict} (largest children/parent ratio {report['max_excess_ratio']:.9f}, largest imbalance "
            f"{report['max_imbalance']:.1e}).\n"
            f"Sources emitted {report['source_energy']:.4f}; {report['escaped_energy']:.4f} left the scene "
            f"and {report['truncated_energy']:.4f} was truncated "
            f"(balance error {report['balance_error']:.1e})."
        )
        if not report["is_valid"]:
            parents = np.array([v["parent_id"] for v in report["violations"]], int)
            highlight(ctx, state, state.result.segments.by_ids(parents), "energy violations")
        return Result.success(message, report)

    return with_trace(ctx, answer)


@HANDLERS.on(cmd.FresnelTransmittances)
def fresnel_transmittances(command: cmd.FresnelTransmittances, ctx: Ctx) -> Result:
    (n1, first), (n2, second) = medium_index(ctx, command.n1), medium_index(ctx, command.n2)
    values = _checked(fresnel, n1, n2, command.theta_i_deg)
    head = f"{_n(1, first)} → {_n(2, second)} at {command.theta_i_deg:g}°: "
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


def _n(which: int, said: str) -> str:
    """ "n1 = 1.5" for a number, "Main Prism (n = 1.5)" for a glass of the scene."""
    return f"n{which}{said[1:]}" if said.startswith("n = ") else said


@HANDLERS.on(cmd.OpticsAngle)
def optics_angle(command: cmd.OpticsAngle, ctx: Ctx) -> Result:
    (n1, first), (n2, second) = medium_index(ctx, command.n1), medium_index(ctx, command.n2)
    media = f"from {_n(1, first)} to {_n(2, second)}"
    if command.kind == "brewster":
        angle = math.degrees(math.atan2(n2, n1))
        return Result.success(
            f"Brewster's angle {media}: {angle:.4f}° (p-polarized light is not reflected there).",
            {"kind": "brewster", "n1": n1, "n2": n2, "angle_deg": angle},
        )
    if n1 <= n2:
        return Result.success(
            f"There is no critical angle {media}: light going into a medium of equal or higher index is "
            "never totally reflected (swap them: from the denser medium).",
            {"kind": "critical", "n1": n1, "n2": n2, "angle_deg": None},
        )
    angle = math.degrees(math.asin(n2 / n1))
    return Result.success(
        f"Critical angle {media}: {angle:.4f}° (beyond it, total internal reflection).",
        {"kind": "critical", "n1": n1, "n2": n2, "angle_deg": angle},
    )


@HANDLERS.on(cmd.DescribeGlassEdges)
def describe_glass_edges(command: cmd.DescribeGlassEdges, ctx: Ctx) -> Result:
    scene, _ = scene_now(ctx)
    names = scene.names
    from ....core.rules.names import describe_miss, resolve_name

    match = resolve_name(command.glass_name, names)
    if match.found is None:
        raise CommandError(describe_miss(match, "glass", names))
    glass = next(glass for glass in scene.glasses if glass.name == match.found)
    edges = [edge.to_dict() for edge in get_side_descriptions(glass)]
    data = {"glass": glass.name, "ref_index": glass.ref_index, "edges": edges}
    return Result.success(analysis.describe_glass_edges(glass), data)


@HANDLERS.on(cmd.DescribeScene)
def describe_scene(command: cmd.DescribeScene, ctx: Ctx) -> Result:
    scene, _ = scene_now(ctx)
    listed = editing.objects(scene)
    data = [object_facts(found) for found in listed]
    rows = [f"  {facts['name']}: {facts_line(facts)}" for facts in data]
    sources = sum(found.group == "sources" for found in listed)
    head = f"{scene.name}: {len(listed)} objects, {sources} of them light sources (positions x, y; y up)."
    warnings = [f"Warning: {w}" for w in scene.warnings]
    return Result.success("\n".join([head, *rows, *warnings]), {"scene": scene.name, "objects": data})
