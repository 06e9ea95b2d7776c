"""Questions about the scene in words: how many rays, one object's index, place or size, and the
indices of the scene's glasses where an angle or Fresnel question names one. They read: nothing
is drawn, nothing changes."""

from __future__ import annotations

from typing import Any

import numpy as np

from ....core.basics.result import CommandError, Result
from .. import commands as cmd
from .. import editing
from ..state import RaysState
from .current import HANDLERS, Ctx, scene_now, with_trace


def point(xy: Any) -> str:
    return f"({xy[0]:.1f}, {xy[1]:.1f})"


def object_facts(found: editing.SceneObject) -> dict[str, Any]:
    """What ``describe_scene`` and a question about one object say of it."""
    try:
        centre: Any = editing.centre_of(found.value)
    except ValueError:
        centre = None
    width, height = editing.size_of(found.value)
    rays = getattr(found.value, "n_rays", None)
    return {
        "name": found.name,
        "kind": found.kind,
        "position": None if centre is None else [float(centre[0]), float(centre[1])],
        "size": [width, height],
        "ref_index": editing.index_of(found.value),
        "light_source": found.group == "sources",
        **({"rays": int(rays)} if isinstance(rays, (int, np.integer)) else {}),
    }


def facts_line(facts: dict[str, Any]) -> str:
    """ "glass, at (x, y), w × h, n = 1.5": the facts in the order ``describe_scene`` lists them."""
    said = [facts["kind"]]
    if facts["position"] is not None:
        said.append(f"at {point(facts['position'])}")
    width, height = facts["size"]
    if width or height:
        said.append(f"{width:.4g} × {height:.4g}")
    if facts["ref_index"] is not None:
        said.append(f"n = {facts['ref_index']:g}")
    if "rays" in facts:
        said.append(f"{facts['rays']:,} rays")
    return ", ".join(said)


@HANDLERS.on(cmd.DescribeSceneObject)
def describe_scene_object(command: cmd.DescribeSceneObject, ctx: Ctx) -> Result:
    scene, _ = scene_now(ctx)
    try:
        found = editing.find(scene, command.name)
    except ValueError as exc:
        raise CommandError(str(exc)) from None
    facts = object_facts(found)
    name = found.name
    if command.what == "index":
        if facts["ref_index"] is None:
            raise CommandError(f"{name} is a {found.kind}: it has no refractive index")
        message = f"{name}: refractive index n = {facts['ref_index']:g}."
    elif command.what == "position":
        if facts["position"] is None:
            raise CommandError(f"{name} is a {found.kind} with no position")
        message = f"{name} is at {point(facts['position'])} (x, y; y up)."
    elif command.what == "size":
        width, height = facts["size"]
        message = f"{name} is {width:.4g} wide and {height:.4g} high."
    else:
        message = f"{name}: {facts_line(facts)} (positions x, y; y up)."
    return Result.success(message, facts)


@HANDLERS.on(cmd.CountRays)
def count_rays(command: cmd.CountRays, ctx: Ctx) -> Any:
    def answer(state: RaysState) -> Result:
        segments = state.result.segments
        emitted = {id(item): count for item, count in state.result.emitted()}
        listed = editing.objects(state.scene)
        counts = {
            o.name: emitted.get(id(o.value), 0)
            for o in listed
            if o.group == "sources" or id(o.value) in emitted
        }
        each = "; ".join(f"{name}: {count:,}" for name, count in counts.items())
        total = int((segments.parent < 0).sum())
        message = (
            f"{total:,} rays leave the light sources" + (f" ({each})" if each else "") + "; "
            f"the trace has {len(segments):,} segments (each reflection or refraction starts a new one)."
        )
        data = {"rays": total, "segments": len(segments), "per_source": counts}
        return Result.success(message, data)

    return with_trace(ctx, answer)


def medium_index(ctx: Ctx, medium: float | str) -> tuple[float, str]:
    """A refractive index as a question gives it: a number, or a glass of the scene (its index);
    with how the reply names it ("n = 1.5", "Main Prism (n = 1.5)")."""
    if not isinstance(medium, str):
        return float(medium), f"n = {medium:g}"
    try:
        scene, _ = scene_now(ctx)
    except CommandError:
        raise CommandError(
            f"there is no ray scene to take the index of {medium!r} from: give the index "
            '("critical angle from 1.5 to air") or load a scene'
        ) from None
    try:
        found = editing.find(scene, medium)
    except ValueError as exc:
        raise CommandError(str(exc)) from None
    index = editing.index_of(found.value)
    if index is None:
        raise CommandError(f"{found.name} is a {found.kind}: it has no refractive index")
    return index, f"{found.name} (n = {index:g})"
