"""The model: spawn a primitive, import a file, describe what there is."""

from __future__ import annotations

import time

from ....core.basics.jobs import Job, Progress
from ....core.basics.result import CommandError, Result
from ....core.contract.pack import Context
from .. import commands as cmd
from .. import display, primitives
from ..importers import Imported, MeshFileError, import_bytes, kind_of
from ..limits import MeshLimits
from ..mesh import TriMesh
from ..state import MeshPackState, ModelState
from .common import COMFY_JOB, HANDLERS, NO_MODEL, commit, pack_of, relative


@HANDLERS.on(cmd.SpawnPrimitive)
def spawn_primitive(command: cmd.SpawnPrimitive, ctx: Context[MeshPackState]) -> Job:
    """Built, and made ready to show, off the GUI thread; only the layer is made on it."""
    kind = command.primitive_type
    pack = pack_of(ctx)
    asked = time.perf_counter()

    def work(_progress: Progress) -> tuple[ModelState, display.Prepared]:
        mesh = primitives.build(kind)
        state = ModelState(mesh=mesh, source=f"primitive {kind}", history=pack.model.history)
        return state, display.prepare_state(state)

    def finish(built: tuple[ModelState, display.Prepared]) -> Result:
        state, prepared = built
        mesh = state.mesh
        assert mesh is not None
        display.remember(pack, prepared)
        state = state.logged("spawn_primitive", f"spawned a {kind}")
        where = "; the view is 3-D and framed on it" if ctx.viewer is not None else ""
        result = commit(ctx, state, "", reframe=mesh)
        seconds = time.perf_counter() - asked
        result.message = f"Spawned a {kind} ({mesh.n_faces:,} faces) in {seconds:.2f} s{where}."
        result.data = {
            "primitive_type": kind,
            "vertices": len(mesh.vertices),
            "faces": mesh.n_faces,
            "watertight": mesh.is_watertight,
            "seconds": round(seconds, 3),
        }
        return result

    return Job(f"building a {kind}", work, finish)


@HANDLERS.on(cmd.ImportModel)
def import_model(command: cmd.ImportModel, ctx: Context[MeshPackState]) -> Job:
    """Read, checked against the limits, cleaned and made ready to show off the GUI thread."""
    path = command.path
    workspace = ctx.workspace
    if not workspace.exists(path):
        raise CommandError(f"There is no file {path!r} in the workspace.")
    try:
        kind_of(path)
    except MeshFileError as exc:
        raise CommandError(f"{path}: {exc}.") from None
    limits = MeshLimits.current(ctx.settings.section("mesh"))
    pack = pack_of(ctx)
    asked = time.perf_counter()

    def work(_progress: Progress) -> tuple[Imported, ModelState, display.Prepared]:
        try:
            data = workspace.read_bytes(path, limit=limits.max_file_mb * 1024 * 1024, what="models")
            imported = import_bytes(data, path.rsplit("/", 1)[-1], limits)
        except (MeshFileError, OSError) as exc:
            raise CommandError(f"{path}: {exc}.") from None
        state = ModelState(mesh=imported.mesh, source=f"file {path}", history=pack.model.history)
        return imported, state, display.prepare_state(state)

    def finish(done: tuple[Imported, ModelState, display.Prepared]) -> Result:
        imported, state, prepared = done
        mesh = imported.mesh
        display.remember(pack, prepared)
        state = state.logged("import_model", f"imported {path}")
        result = commit(ctx, state, "", reframe=mesh)
        seconds = time.perf_counter() - asked
        closed = "closed" if mesh.closed else "open"
        repaired = imported.repair.describe()
        result.message = (
            f"Imported {path} as the model ({mesh.n_faces:,} faces, {closed} surface) in {seconds:.2f} s"
            + (f"; cleaned on import: {repaired}." if repaired else ".")
        )
        result.data = {
            "faces": mesh.n_faces,
            "vertices": len(mesh.vertices),
            "closed": mesh.closed,
            "repair": imported.repair.as_dict(),
            "seconds": round(seconds, 3),
        }
        return result

    return Job(f"importing {path}", work, finish)


@HANDLERS.on(cmd.DescribeModel)
def describe_model(command: cmd.DescribeModel, ctx: Context[MeshPackState]) -> Result:
    pack = pack_of(ctx)
    state = pack.model
    if state.mesh is None:
        return Result.success(NO_MODEL, {"model": None})
    mesh: TriMesh = state.mesh
    parts = state.segments()
    lines = [
        f"{mesh.name} from {state.source}: {mesh.n_faces:,} faces, {'closed' if mesh.closed else 'open'}."
    ]
    if state.labels is None:
        lines.append('Not segmented yet ("segment it").')
    elif len(parts) == 1:
        material = parts[0]["material"]
        lines.append(f"One part{' (' + material + ')' if material else ''}.")
    else:
        lines.append(
            f"{len(parts)} parts: "
            + ", ".join(
                f"{p['id']}{' ' + p['name'] if p['name'] else ''} "
                f"({p['area_share']:.0%}{', ' + p['material'] if p['material'] else ''})"
                for p in parts
            )
            + "."
        )
    if state.labels is None and state.materials:
        lines.append(f"Material: {state.materials[1].name}.")
    if state.selected:
        lines.append(f"Selected: segment {state.selected}.")
    if state.isolated:
        lines.append(f"Isolated: segment {state.isolated}.")
    if state.concepts:
        lines.append(f'{len(state.concepts)} concepts to choose from ("select option 1").')
    running = ctx.jobs.under_way(COMFY_JOB)
    if running is not None:
        lines.append(f"Working: {running.describe()}.")
    data = {
        "model": mesh.name,
        "source": state.source,
        "faces": mesh.n_faces,
        "segments": parts,
        "selected": state.selected,
        "isolated": state.isolated,
        "concepts": [relative(ctx.workspace, c.path) for c in state.concepts],
        "job": running.describe() if running is not None else None,
    }
    return Result.success(" ".join(lines), data)
