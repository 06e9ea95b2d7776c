"""Editing the scene by typing: add a light source, move, turn, re-index or remove an object, more
rays. Each edit makes a new scene, traces it off the GUI thread, draws it, and is one undoable
change (the core's ``Changes``)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields, is_dataclass, replace
from typing import Any

from ....core.basics.jobs import Job
from ....core.basics.result import CommandError
from .. import commands as cmd
from .. import editing
from ..scene import IdealLens, Scene
from .current import HANDLERS, Ctx, retrace, scene_now, summary_line

MAX_RAYS_PER_SOURCE = 100_000
""""More rays" stops here: a source asking for more is refused with a line, not traced."""


def _edit(ctx: Ctx, change: Callable[[Scene], tuple[Scene, str]]) -> Job:
    """``change(scene)`` gives the edited scene and what was done (a ValueError: why it cannot
    be, and nothing changes); the job traces it and shows it."""
    scene, layer = scene_now(ctx)
    try:
        edited, what = change(scene)
    except ValueError as exc:
        raise CommandError(f"{exc}; the scene is unchanged") from None
    return retrace(ctx, edited, lambda state: f"{what}. {summary_line(state)}", glass_layer=layer)


def _xy(values: Any) -> str:
    return f"({values[0]:g}, {values[1]:g})"


@HANDLERS.on(cmd.AddLightSource)
def add_light_source(command: cmd.AddLightSource, ctx: Ctx) -> Job:
    def change(scene: Scene) -> tuple[Scene, str]:
        source = editing.light_source(
            command.kind,
            (command.at[0], command.at[1]),
            command.direction_deg,
            command.width,
            command.brightness,
        )
        grown, added = editing.add_source(scene, source)
        where = f"at {_xy(command.at)}"
        if command.kind != "point":
            where += f", shining at {command.direction_deg:g}°"
        return grown, f"Added {added.name} {where}"

    return _edit(ctx, change)


@HANDLERS.on(cmd.AddSceneElement)
def add_scene_element(command: cmd.AddSceneElement, ctx: Ctx) -> Job:
    def change(scene: Scene) -> tuple[Scene, str]:
        element = editing.line_element(
            command.kind,
            (command.start[0], command.start[1]),
            (command.end[0], command.end[1]) if command.end is not None else None,
            length=command.length,
            angle_deg=command.angle_deg,
            focal_length=command.focal_length,
        )
        grown, added = editing.add_element(scene, element)
        detail = f", f = {element.focal_length:g}" if isinstance(element, IdealLens) else ""
        return grown, f"Added {added.name} from {_xy(element.p1)} to {_xy(element.p2)}{detail}"

    return _edit(ctx, change)


@HANDLERS.on(cmd.MoveSceneObject)
def move_scene_object(command: cmd.MoveSceneObject, ctx: Ctx) -> Job:
    to = (command.to[0], command.to[1]) if command.to is not None else None
    by = (command.by[0], command.by[1]) if command.by is not None else None

    def change(scene: Scene) -> tuple[Scene, str]:
        moved, found, shift = editing.move(scene, command.name, to=to, by=by)
        return moved, f"Moved {found.name} " + (f"to {_xy(to)}" if to is not None else f"by {_xy(shift)}")

    return _edit(ctx, change)


@HANDLERS.on(cmd.RotateSceneObject)
def rotate_scene_object(command: cmd.RotateSceneObject, ctx: Ctx) -> Job:
    def change(scene: Scene) -> tuple[Scene, str]:
        turned, found = editing.rotate(scene, command.name, command.degrees)
        turn = "counter-clockwise" if command.degrees >= 0 else "clockwise"
        return turned, f"Turned {found.name} {abs(command.degrees):g}° {turn} about its centre"

    return _edit(ctx, change)


@HANDLERS.on(cmd.SetRefractiveIndex)
def set_refractive_index(command: cmd.SetRefractiveIndex, ctx: Ctx) -> Job:
    def change(scene: Scene) -> tuple[Scene, str]:
        changed, found, before = editing.set_index(scene, command.name, command.index)
        return changed, f"{found.name}: refractive index {before:g} → {command.index:g}"

    return _edit(ctx, change)


@HANDLERS.on(cmd.RemoveSceneObject)
def remove_scene_object(command: cmd.RemoveSceneObject, ctx: Ctx) -> Job:
    def change(scene: Scene) -> tuple[Scene, str]:
        smaller, found = editing.remove(scene, command.name)
        return smaller, f"Removed {found.name} ({found.kind})"

    return _edit(ctx, change)


def _more_rays(scene: Scene, factor: float) -> Scene:
    """Every source's ray count times ``factor`` (a beam's rays closer together, its width kept)."""
    sources = []
    for source in scene.sources:
        if not is_dataclass(source) or not any(spec.name == "n_rays" for spec in fields(source)):
            sources.append(source)
            continue
        count = int(getattr(source, "n_rays"))  # noqa: B009
        n_rays = max(1, round(count * factor))
        if n_rays > MAX_RAYS_PER_SOURCE:
            raise ValueError(f"that makes {n_rays:,} rays from one source, more than {MAX_RAYS_PER_SOURCE:,}")
        changes: dict[str, Any] = {"n_rays": n_rays}
        spacing = getattr(source, "ray_spacing", None)
        if spacing is not None:
            changes["ray_spacing"] = spacing * count / n_rays if count else spacing / factor
        sources.append(replace(source, **changes))
    return replace(scene, sources=tuple(sources))


@HANDLERS.on(cmd.MoreRays)
def more_rays(command: cmd.MoreRays, ctx: Ctx) -> Job:
    def change(scene: Scene) -> tuple[Scene, str]:
        if not scene.sources:
            raise ValueError('the scene has no light source: add one first ("add a point source at 0, 0")')
        word = "more" if command.factor >= 1 else "fewer"
        return _more_rays(scene, command.factor), f"{command.factor:g}× the rays ({word})"

    return _edit(ctx, change)
