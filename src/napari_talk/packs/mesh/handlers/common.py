"""What every mesh handler shares: the pack's model, showing a new state, undo, segment references."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from ....core.basics.result import CommandError, Result
from ....core.contract.pack import Context, Handlers
from ....core.running.history import Changes
from .. import commands as cmd
from .. import display, primitives, samples
from ..mesh import TriMesh, pick_face
from ..state import MeshPackState, ModelState

if TYPE_CHECKING:
    from ....core.safety.workspace import Workspace

HANDLERS = Handlers[MeshPackState]()

NO_MODEL = (
    'There is no model yet: "spawn a sphere" (or a cube, a head, a body, ...) or "import <file>" '
    "(.stl, .ply, .off, .obj, .glb or .gltf)."
)


def pack_of(ctx: Context[MeshPackState]) -> MeshPackState:
    pack = ctx.state
    if pack.model.mesh is None:
        _adopt_sample(ctx, pack)
    return pack


def _adopt_sample(ctx: Context[MeshPackState], pack: MeshPackState) -> None:
    """The sample opened from the File menu becomes the model, shown in its own layer, in 3-D."""
    layer = samples.sample_layer(ctx.viewer)
    if layer is None or ctx.viewer is None:
        return
    name = layer.metadata[samples.SAMPLE_KEY]
    if name not in primitives.builders():
        return
    mesh = primitives.build(name)
    pack.model = ModelState(mesh=mesh, source=f"primitive {name} (the sample)").logged(
        "spawn_primitive", f"opened the {name} sample"
    )
    pack.view["model"] = layer
    if ctx.viewer.dims.ndisplay == 2:  # a sample opens in the 2-D view napari starts in
        display.frame(ctx.viewer, mesh)


def model_of(ctx: Context[MeshPackState]) -> tuple[MeshPackState, ModelState, TriMesh]:
    pack = pack_of(ctx)
    if pack.model.mesh is None:
        raise CommandError(NO_MODEL)
    return pack, pack.model, pack.model.mesh


def show(ctx: Context[MeshPackState], changes: Changes | None = None) -> None:
    """Make the viewer and ``mesh/state.json`` agree with the pack's state (``changes`` gets the
    viewer's steps; the file is written last)."""
    pack = pack_of(ctx)
    viewer = ctx.viewer
    if viewer is not None:
        display.sync(viewer, pack, changes)
        if pack.model.mesh is not None:
            display.install_picking(viewer, pack, lambda ray: pick(ctx, *ray))
    pack.file.write(pack.model)


def commit(
    ctx: Context[MeshPackState],
    state: ModelState,
    message: str,
    data: Any = None,
    *,
    reframe: TriMesh | np.ndarray | None = None,
    angles: tuple[float, float] = (30.0, 15.0),
) -> Result:
    """Show ``state``, all of it or none; the Result's undo puts the state before back (the
    states are immutable, so the undo keeps references, never copies) and the camera if it moved."""
    pack = pack_of(ctx)
    before = pack.model
    viewer = ctx.viewer
    view = display.view_state(viewer) if viewer is not None and reframe is not None else None

    def put_back() -> None:
        pack.model = before
        show(ctx)

    undo = Changes()
    undo.add(put_back)
    if viewer is not None and view is not None:
        undo.add(lambda: display.restore_view(viewer, view))

    with Changes() as changes:  # the layers, state.json and the camera show all of it, or none
        pack.model = state
        changes.add(lambda: setattr(pack, "model", before))
        show(ctx, changes)
        changes.add(lambda: pack.file.write(before))
        if viewer is not None and view is not None and reframe is not None:
            changes.add(lambda: display.restore_view(viewer, view))
            display.frame(viewer, reframe, *angles)
    if before.mesh is not None and before.mesh is not state.mesh:
        before.mesh.forget_derived()  # the undo entry keeps the model's arrays, not what they gave
    return Result.success(message, data, undo=undo)


def resolve(ctx: Context[MeshPackState], state: ModelState, ref: str, *, whole_if_none: bool) -> list[int]:
    """The segment ids a ``segment_id`` means: a number, all of them, or the selected one."""
    count = state.segment_count
    if ref == cmd.ALL:
        return list(range(1, count + 1))
    if ref.isdigit():
        number = int(ref)
        if not 1 <= number <= count:
            raise CommandError(no_segment(number, state))
        return [number]
    if ref != cmd.SELECTED:
        return by_name(state, ref)
    selected = pack_of(ctx).file.external_selection(state) or state.selected
    if selected is not None and 1 <= selected <= count:
        return [selected]
    if count == 1 or whole_if_none:
        return list(range(1, count + 1))
    raise CommandError(
        f'No segment is selected: click one in the viewer, or say "select segment 2" (1 to {count}).'
    )


def by_name(state: ModelState, ref: str) -> list[int]:
    """The segments a part's name means ("head", "the legs"); a name that fits several parts, or
    none, is answered with the parts there are, in one line."""
    found, every = state.segments_called(ref)
    said = ref.strip().removeprefix("the ")
    if len(found) == 1 or (found and every):
        return found
    if found:
        which = " or ".join(state.named(i) for i in found)
        raise CommandError(f"Which {said}: {which}?")
    parts = ", ".join(f"{p['id']} {p['name']}".strip() for p in state.segments())
    if state.labels is None:
        raise CommandError(f'No part {said!r}: the model is not segmented yet ("segment it").')
    raise CommandError(f"No part {said!r}; parts are: {parts}.")


def no_segment(number: int, state: ModelState) -> str:
    if state.labels is None:
        return f'There is no segment {number}: the model is not segmented yet ("segment it").'
    if state.segment_count == 1:
        return f"There is no segment {number}: the model is one part (segment 1)."
    return f"There is no segment {number}: the model has segments 1 to {state.segment_count}."


def pick(ctx: Context[MeshPackState], origin: np.ndarray, direction: np.ndarray) -> int | None:
    """A click in the viewer: select the segment under the cursor (not an undoable action)."""
    pack = pack_of(ctx)
    mesh = pack.model.mesh
    if mesh is None:
        return None
    face = pick_face(mesh, origin, direction)
    if face is None:
        return None
    segment = int(pack.model.face_labels()[face]) + 1
    pack.model = replace(pack.model, selected=segment)
    show(ctx)
    if ctx.viewer is not None:
        ctx.viewer.status = f"segment {segment} selected"
    return segment


def relative(workspace: Workspace, path: Path) -> str:
    """A workspace file as the path a command would name it by."""
    try:
        return workspace.relative(path)
    except ValueError:
        return str(path)


def drawn(picture: np.ndarray) -> bool:
    """Whether a screenshot shows anything (a hidden canvas gives a blank one)."""
    return bool(np.asarray(picture).std() > 0)


def parts_phrase(count: int) -> str:
    return f"{count} part" if count == 1 else f"{count} parts"


COMFY_JOB = "ComfyUI:"
"""How the pack's background ComfyUI jobs are labelled (one runs at a time)."""
