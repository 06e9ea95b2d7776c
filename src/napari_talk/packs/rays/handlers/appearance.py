"""How the scene looks: ray colours, the query highlight, a detector's irradiance plot."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ....core.basics.chart import chart
from ....core.basics.result import CommandError, Result
from ....core.running.history import Changes
from ....core.viewer.layers import remove_layer
from .. import analysis, display, editing, layers
from .. import commands as cmd
from ..state import RaysState
from .current import HANDLERS, Ctx, keep, with_trace


@HANDLERS.on(cmd.ColorRays)
def color_rays(command: cmd.ColorRays, ctx: Ctx) -> Any:
    def recolor(before: RaysState) -> Result:
        state = replace(before, color_by=command.by)
        with Changes() as changes:
            keep(ctx, state, changes)
            if ctx.viewer is not None:
                layer = display.ray_layer(state.scene, state.result, state.color_by)
                layers.put(ctx.viewer, layer, "rays", changes)
        shown = (
            "degree of polarization (yellow: none, magenta: full)"
            if command.by == "polarization"
            else "brightness"
        )
        return Result.success(
            f"Rays are coloured by {shown}; their opacity follows brightness.", undo=changes
        )

    return with_trace(ctx, recolor)


@HANDLERS.on(cmd.ClearRaySelection)
def clear_ray_selection(command: cmd.ClearRaySelection, ctx: Ctx) -> Result:
    viewer = ctx.viewer
    removed = layers.layers_with(viewer, "selection") if viewer is not None else []
    if viewer is None or not removed:
        return Result.success("No rays are highlighted.")
    with Changes() as changes:
        for layer in removed:
            remove_layer(viewer, layer, changes)
    return Result.success("Cleared the ray highlight.", undo=changes)


def _detector(state: RaysState, name: str | None) -> editing.SceneObject:
    found = [o for o in editing.objects(state.scene) if "detector" in o.kind]
    if name is not None:
        try:
            chosen = editing.find(state.scene, name)
        except ValueError as exc:
            raise CommandError(str(exc)) from None
        if "detector" not in chosen.kind:
            raise CommandError(f"{chosen.name} is a {chosen.kind}, not a detector")
        return chosen
    if not found:
        raise CommandError(
            "the scene has no detector: a ray-optics Detector (a line that measures the light crossing it) "
            "must be in the scene file"
        )
    if len(found) > 1:
        raise CommandError(
            f"the scene has {len(found)} detectors: say which ({', '.join(o.name for o in found)})"
        )
    return found[0]


@HANDLERS.on(cmd.DetectorReadings)
def detector_readings(command: cmd.DetectorReadings, ctx: Ctx) -> Any:
    def answer(state: RaysState) -> Result:
        detector = _detector(state, command.name)
        reading = state.result.readings.get(detector.value)
        if reading is None:
            raise CommandError(f"{detector.name} was not traced: trace the scene again")
        if ctx.viewer is not None:
            layers.put(
                ctx.viewer, display.irradiance_layer(state.scene, detector.value, reading), "irradiance"
            )
        peak = max(reading.irradiance, default=0.0)
        message = (
            f"{detector.name}: power {reading.power:.4g} over {len(reading.irradiance)} bins of "
            f"{reading.bin_size:g}; peak irradiance {peak:.4g}. The plot is drawn beside the detector "
            '(layer "rays: irradiance").'
        )
        if command.table:
            # asked for a table: the bins as rows (the dock's table), and as ray-optics' CSV text
            message += "\n" + analysis.reading_table(reading)
            rows = [list(row) for row in analysis.reading_rows(reading)]
            table = {"columns": ["Position", "Irradiance"], "rows": rows}
            return Result.success(message, reading.to_dict(), table=table)
        caption = f"irradiance along {detector.name}, {len(reading.irradiance)} bins (peak {peak:.4g})"
        shown = chart(list(reading.irradiance), caption, filled=True)
        return Result.success(message, reading.to_dict(), chart=shown)

    return with_trace(ctx, answer)
