"""The model's parts: segment it, select, isolate, show whole."""

from __future__ import annotations

import time
from dataclasses import replace
from typing import TYPE_CHECKING

import numpy as np

from ....core.basics.jobs import Job, Progress
from ....core.basics.result import CommandError, Result
from ....core.contract.pack import Context
from .. import commands as cmd
from .. import display
from ..mesh import TriMesh
from ..naming import part_names
from ..segment_table import segment_table
from ..state import MeshPackState, ModelState, carry_materials
from .common import HANDLERS, commit, model_of, resolve

if TYPE_CHECKING:
    from ..segmentation import Segmentation

LISTED = 8
"""Parts named in the reply; the rest are counted."""


@HANDLERS.on(cmd.RequestSegmentation)
def request_segmentation(command: cmd.RequestSegmentation, ctx: Context[MeshPackState]) -> Job:
    """Segmented, named and made ready to show off the GUI thread; the reply gives the time the
    person waited, from the line to the parts on screen."""
    from ..segmentation import segment
    from ..thickness import CrowdedMeshError

    pack, state, mesh = model_of(ctx)
    asked = time.perf_counter()

    def work(_progress: Progress) -> tuple[Segmentation, ModelState, display.Prepared]:
        try:
            result = segment(mesh)
        except CrowdedMeshError as exc:
            raise CommandError(f"The {mesh.name} cannot be segmented: {exc}.") from None
        names = part_names(mesh, result.labels)
        new = replace(state, labels=result.labels, names=names, selected=None, isolated=None)
        new = new.with_materials(carry_materials(state, result.labels))
        return result, new, display.prepare_state(new)

    def finish(done: tuple[Segmentation, ModelState, display.Prepared]) -> Result:
        result, new, prepared = done
        display.remember(pack, prepared)
        plural = "part" if result.count == 1 else "parts"
        new = new.logged("request_segmentation", f"segmented into {result.count} {plural}")
        parts = new.segments()
        outcome = commit(ctx, new, "")
        seconds = time.perf_counter() - asked
        if result.count == 1:
            message = f"The {mesh.name} is one part: {_why_one_part(mesh, result)} ({seconds:.2f} s). "
            message += "Materials apply to it whole."
        else:
            listed = ", ".join(
                f"{p['id']}{' ' + p['name'] if p['name'] else ''} ({p['area_share']:.0%})"
                for p in parts[:LISTED]
            )
            more = f" and {len(parts) - LISTED} more" if len(parts) > LISTED else ""
            merged = (
                f"; {result.merged_pieces} small detached pieces joined the part they sit on"
                if result.merged_pieces
                else ""
            )
            message = (
                f"Segmented the {mesh.name} into {result.count} parts in {seconds:.2f} s: {listed}{more} "
                f'(share of the surface){merged}. Click a part, or say "select segment 2".'
            )
        outcome.message = message
        outcome.data = {"segments": result.count, "parts": parts, "seconds": round(seconds, 3)}
        table = segment_table(new) if result.count > 1 else None
        if table is not None:
            outcome.meta["table"] = table  # each segment with a swatch of its colour
        return outcome

    return Job(f"segmenting the {mesh.name}", work, finish)


def _why_one_part(mesh: TriMesh, result: Segmentation) -> str:
    """What the segmentation saw, in words: it looks at thickness, narrowings and concave creases."""
    if np.all(np.isnan(result.thickness)):
        return "it is an open sheet with no inside to measure, and no concave crease divides it"
    if result.flush_parts:
        return (
            "it is a machined solid, and the pieces its concave creases or changes of thickness"
            " mark off do not stand out from it as a table's legs do"
        )
    why = "its thickness is even and no concave crease or narrowing goes round a part of it"
    if not mesh.is_watertight:
        why += " (an open surface: rays that left through its holes were not counted)"
    return why


@HANDLERS.on(cmd.SelectSegment)
def select_segment(command: cmd.SelectSegment, ctx: Context[MeshPackState]) -> Result:
    _, state, _ = model_of(ctx)
    if command.segment_id in (cmd.ALL, cmd.SELECTED):
        raise CommandError('Select one segment: its number or its name ("select segment 2").')
    found = resolve(ctx, state, str(command.segment_id), whole_if_none=False)
    if len(found) > 1:
        raise CommandError(f"Select one of them: {', '.join(state.named(i) for i in found)}.")
    (segment,) = found
    new = replace(state, selected=segment)
    said = new.named(segment)
    return commit(ctx, new, f"{said[0].upper()}{said[1:]} selected.", {"selected": segment})


@HANDLERS.on(cmd.IsolateSegment)
def isolate_segment(command: cmd.IsolateSegment, ctx: Context[MeshPackState]) -> Result:
    _, state, _ = model_of(ctx)
    if state.labels is None:
        raise CommandError('The model is not segmented yet: say "segment it" first.')
    if command.segment_id == cmd.ALL:
        raise CommandError('Isolate one segment: its number, or the selected one ("isolate segment 2").')
    found = resolve(ctx, state, command.segment_id, whole_if_none=False)
    if len(found) > 1:
        raise CommandError(f"Isolate one of them: {', '.join(state.named(i) for i in found)}.")
    (segment,) = found
    new = replace(state, isolated=segment, selected=segment).logged(
        "isolate_segment", f"isolated segment {segment}"
    )
    part = display.isolated_mesh(new, segment)
    message = (
        f"{new.named(segment).capitalize()} isolated ({part.n_faces:,} faces) as its own layer, centred; "
        'the rest is dimmed. "show the whole model" ends it.'
    )
    return commit(ctx, new, message, {"segment": segment, "faces": part.n_faces}, reframe=part)


@HANDLERS.on(cmd.ShowWholeModel)
def show_whole_model(command: cmd.ShowWholeModel, ctx: Context[MeshPackState]) -> Result:
    _, state, mesh = model_of(ctx)
    if not state.isolated:
        return Result.success("Nothing is isolated: the whole model is shown.")
    new = replace(state, isolated=None).logged("show_whole_model", "ended the isolation")
    message = f"The whole model is shown again (segment {state.isolated} is back in place)."
    return commit(ctx, new, message, reframe=mesh)
