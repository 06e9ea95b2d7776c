"""Scenes in and out: load a ray-optics file or a sample, trace again, save as a ray-optics file."""

from __future__ import annotations

from collections.abc import Callable

from ....core.basics.jobs import Job
from ....core.basics.result import CommandError, Result
from ....core.running.history import Changes
from .. import commands as cmd
from .. import editing
from ..limits import MAX_FILE_BYTES
from ..samples import SAMPLES
from ..scene import Scene
from ..scene_json import SceneFormatError, scene_from_text
from ..state import RaysState
from ..writer import NotSavable, scene_text
from .current import HANDLERS, Ctx, retrace, scene_now, summary_line

SCENE_MAX_BYTES = MAX_FILE_BYTES
"""A scene file larger than this is refused before it is read (the limit of every door)."""
UNDO_KEEP_BYTES = 32 * 1024 * 1024
"""A saved scene over an existing file keeps the old bytes for undo up to this size."""


def _show_new(ctx: Ctx, scene: Scene | Callable[[], Scene], source: str) -> Job:
    """A new scene (or a function reading it): read and traced off the GUI thread, then drawn
    whole and framed, as one change."""

    def said(state: RaysState) -> str:
        return f"Loaded {source}. {summary_line(state)}"

    return retrace(ctx, scene, said, frame=True)


@HANDLERS.on(cmd.LoadScene)
def load_scene(command: cmd.LoadScene, ctx: Ctx) -> Job:
    text = ctx.workspace.read_text(command.path, limit=SCENE_MAX_BYTES, what="scene files")

    def read() -> Scene:
        try:
            return scene_from_text(text, command.path.rsplit("/", 1)[-1])
        except (SceneFormatError, ValueError) as exc:
            raise CommandError(f"cannot load {command.path!r}: {exc}") from None

    return _show_new(ctx, read, repr(command.path))


@HANDLERS.on(cmd.LoadSampleScene)
def load_sample_scene(command: cmd.LoadSampleScene, ctx: Ctx) -> Job:
    return _show_new(ctx, SAMPLES[command.name](), f"the {command.name} sample")


@HANDLERS.on(cmd.TraceScene)
def trace_scene(command: cmd.TraceScene, ctx: Ctx) -> Job:
    scene, layer = scene_now(ctx)
    return retrace(
        ctx, scene, lambda state: f"Traced again. {summary_line(state)}", glasses=False, glass_layer=layer
    )


def target(path: str) -> str:
    path = path.strip()
    return path if path.casefold().endswith(".json") else f"{path}.json"


@HANDLERS.on(cmd.SaveScene)
def save_scene(command: cmd.SaveScene, ctx: Ctx) -> Result:
    scene, _ = scene_now(ctx)
    try:
        text = scene_text(scene)
    except NotSavable as exc:
        raise CommandError(f"cannot save {scene.name!r}: {exc}") from None
    relative = target(command.path)
    workspace = ctx.workspace
    before = workspace.read_bytes(relative, limit=UNDO_KEEP_BYTES) if workspace.exists(relative) else None
    parent = relative.rsplit("/", 1)[0] if "/" in relative else ""
    with Changes() as changes:
        if parent and not workspace.exists(parent):
            workspace.mkdir(parent)
        data = text.encode("utf-8")
        workspace.write_bytes(relative, data)
        ours = workspace.written(relative, data)
        changes.add(lambda: workspace.take_back(ours, before))
    replaced = " (the earlier file is kept for undo)" if before is not None else ""
    objects = len(editing.objects(scene))
    return Result.success(
        f"Saved {scene.name!r} ({objects} objects) as a ray-optics scene: "
        f"{workspace.resolve(relative)}{replaced}.",
        {"path": str(workspace.resolve(relative)), "objects": objects},
        undo=changes,
    )
