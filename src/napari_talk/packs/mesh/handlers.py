"""Handlers of the mesh pack: each runs one command on the ctx's model and returns a Result.

The model lives in the pack's state (:class:`~.state.MeshPackState`) as an immutable
:class:`~.state.ModelState`. A change builds a new state, shows it (:func:`.display.sync`),
writes ``mesh/state.json``, and hands back an undo that puts the old state (and the camera)
back. The ComfyUI flows run as background jobs (:mod:`napari_talk.core.jobs`).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from ...core.history import Changes
from ...core.jobs import Job, Progress
from ...core.pack import Context, Handlers
from ...core.result import CommandError, Result
from . import commands as cmd
from . import display, flows, materials, primitives, samples
from .comfyui import Cancelled, ComfyClient, ComfyError, server_url
from .importers import MeshFileError, load_bytes
from .mesh import TriMesh, pick_face
from .naming import part_names
from .png import encode_png
from .render import render
from .segment_table import segment_table
from .state import Concept, MeshPackState, ModelState, carry_materials
from .workflows import WorkflowError

if TYPE_CHECKING:
    from ...core.workspace import Workspace
    from .segmentation import Segmentation

HANDLERS = Handlers[MeshPackState]()


NO_MODEL = 'There is no model yet: "spawn a sphere" (or a cube, a head, a body, ...) or "import <file.glb>".'
DEFAULT_PROMPT = "{name}, concept art, sculpted 3d character design, studio lighting, highly detailed"
RENDER_SIZE = 512
COMFY_JOB = "ComfyUI:"
"""How the pack's background jobs are labelled (one runs at a time)."""
MODEL_MAX_BYTES = 256 * 1024 * 1024
CONCEPT_MAX_BYTES = 64 * 1024 * 1024


def _pack(ctx: Context[MeshPackState]) -> MeshPackState:
    pack = ctx.state
    if pack.model.mesh is None:
        _adopt_sample(ctx, pack)
    return pack


def _adopt_sample(ctx: Context[MeshPackState], pack: MeshPackState) -> None:
    """The sample opened from the File menu becomes the model, shown in its own layer, in 3-D."""
    layer = samples.sample_layer(ctx.viewer)
    if layer is None:
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


def _model(ctx: Context[MeshPackState]) -> tuple[MeshPackState, ModelState, TriMesh]:
    pack = _pack(ctx)
    if pack.model.mesh is None:
        raise CommandError(NO_MODEL)
    return pack, pack.model, pack.model.mesh


def _show(ctx: Context[MeshPackState], changes: Changes | None = None) -> None:
    """Make the viewer and ``mesh/state.json`` agree with the pack's state (``changes`` gets the
    viewer's steps; the file is written last)."""
    pack = _pack(ctx)
    viewer = ctx.viewer
    if viewer is not None:
        display.sync(viewer, pack, changes)
        if pack.model.mesh is not None:
            display.install_picking(viewer, pack, lambda ray: pick(ctx, *ray))
    pack.file.write(pack.model)


def _commit(
    ctx: Context[MeshPackState],
    state: ModelState,
    message: str,
    data: Any = None,
    *,
    reframe: TriMesh | np.ndarray | None = None,
    angles: tuple[float, float] = (30.0, 15.0),
) -> Result:
    """Show ``state``; the Result's undo restores the state before, and the camera if it moved."""
    pack = _pack(ctx)
    before = pack.model
    viewer = ctx.viewer
    view = display.view_state(viewer) if viewer is not None and reframe is not None else None

    def undo() -> None:
        pack.model = before
        _show(ctx)
        if view is not None:
            display.restore_view(viewer, view)

    with Changes() as changes:  # the layers, state.json and the camera show all of it, or none
        pack.model = state
        changes.add(lambda: setattr(pack, "model", before))
        _show(ctx, changes)
        changes.add(lambda: pack.file.write(before))
        if view is not None and reframe is not None:
            changes.add(lambda: display.restore_view(viewer, view))
            display.frame(viewer, reframe, *angles)
    return Result.success(message, data, undo=undo)


def _resolve(ctx: Context[MeshPackState], state: ModelState, ref: str, *, whole_if_none: bool) -> list[int]:
    """The segment ids a ``segment_id`` means: a number, all of them, or the selected one."""
    count = state.segment_count
    if ref == cmd.ALL:
        return list(range(1, count + 1))
    if ref.isdigit():
        number = int(ref)
        if not 1 <= number <= count:
            raise CommandError(_no_segment(number, state))
        return [number]
    named = state.segment_by_name(ref)
    if named is not None:
        return [named]
    if ref != cmd.SELECTED:
        names = ", ".join(f"{i + 1} {n}" for i, n in enumerate(state.names) if n)
        known = f", or a name ({names})" if names else ""
        raise CommandError(
            f"{ref!r} is not a segment: give its number (1 to {count}), {cmd.SELECTED} or {cmd.ALL}{known}."
        )
    selected = _pack(ctx).file.external_selection(state) or state.selected
    if selected is not None and 1 <= selected <= count:
        return [selected]
    if count == 1 or whole_if_none:
        return list(range(1, count + 1))
    raise CommandError(
        f'No segment is selected: click one in the viewer, or say "select segment 2" (1 to {count}).'
    )


def _no_segment(number: int, state: ModelState) -> str:
    if state.labels is None:
        return f'There is no segment {number}: the model is not segmented yet ("segment it").'
    return f"There is no segment {number}: the model has segments 1 to {state.segment_count}."


# -- the model ----------------------------------------------------------------------------------


@HANDLERS.on(cmd.SpawnPrimitive)
def spawn_primitive(command: cmd.SpawnPrimitive, ctx: Context[MeshPackState]) -> Job:
    """Built off the GUI thread (the Body takes a second), shown on it."""
    kind = command.primitive_type
    pack = _pack(ctx)

    def work(_progress: Progress) -> tuple[TriMesh, float]:
        started = time.perf_counter()
        mesh = display.prepare(primitives.build(kind))  # what showing it needs, computed here
        return mesh, time.perf_counter() - started

    def finish(built: tuple[TriMesh, float]) -> Result:
        mesh, seconds = built
        state = ModelState(mesh=mesh, source=f"primitive {kind}", history=pack.model.history)
        state = state.logged("spawn_primitive", f"spawned a {kind}")
        data = {
            "primitive_type": kind,
            "vertices": len(mesh.vertices),
            "faces": mesh.n_faces,
            "watertight": mesh.is_watertight,
            "build_seconds": round(seconds, 3),
        }
        where = "; the view is 3-D and framed on it" if ctx.viewer is not None else ""
        message = f"Spawned a {kind} ({mesh.n_faces:,} faces){where}."
        return _commit(ctx, state, message, data, reframe=mesh)

    return Job(f"building a {kind}", work, finish)


@HANDLERS.on(cmd.ImportModel)
def import_model(command: cmd.ImportModel, ctx: Context[MeshPackState]) -> Result:
    if not ctx.workspace.exists(command.path):
        raise CommandError(f"There is no file {command.path!r} in the workspace.")
    data = ctx.workspace.read_bytes(command.path, limit=MODEL_MAX_BYTES, what="models")
    try:
        mesh = load_bytes(data, command.path.rsplit("/", 1)[-1])
    except (MeshFileError, OSError) as exc:
        raise CommandError(f"{command.path}: {exc}") from None
    pack = _pack(ctx)
    state = ModelState(mesh=mesh, source=f"file {command.path}", history=pack.model.history)
    state = state.logged("import_model", f"imported {command.path}")
    closed = "closed" if mesh.closed else "open"
    message = f"Imported {command.path} as the model ({mesh.n_faces:,} faces, {closed} surface)."
    return _commit(ctx, state, message, {"faces": mesh.n_faces, "closed": mesh.closed}, reframe=mesh)


@HANDLERS.on(cmd.RequestSegmentation)
def request_segmentation(command: cmd.RequestSegmentation, ctx: Context[MeshPackState]) -> Job:
    """Computed off the GUI thread, shown on it."""
    from .segmentation import segment

    _, state, mesh = _model(ctx)

    def work(_progress: Progress) -> tuple[Segmentation, float]:
        started = time.perf_counter()
        display.prepare(mesh)  # an imported or adopted model's crease patches, computed here
        return segment(mesh), time.perf_counter() - started

    def finish(done: tuple[Segmentation, float]) -> Result:
        result, seconds = done
        names = part_names(mesh, result.labels)
        new = replace(state, labels=result.labels, names=names, selected=None, isolated=None)
        new = new.with_materials(carry_materials(state, result.labels)).logged(
            "request_segmentation", f"segmented into {result.count} parts"
        )
        parts = new.segments()
        listed = ", ".join(
            f"{p['id']}{' ' + p['name'] if p['name'] else ''} ({p['area_share']:.0%})" for p in parts[:8]
        )
        more = f" and {len(parts) - 8} more" if len(parts) > 8 else ""
        if result.count == 1:
            message = f"The {mesh.name} is one part: {_why_one_part(mesh, result)} ({seconds:.2f} s). "
            message += "Materials apply to it whole."
        else:
            message = (
                f"Segmented the {mesh.name} into {result.count} parts in {seconds:.2f} s: {listed}{more} "
                '(share of the surface). Click a part, or say "select segment 2".'
            )
        data = {"segments": result.count, "parts": parts, "seconds": round(seconds, 3)}
        committed = _commit(ctx, new, message, data)
        table = segment_table(new) if result.count > 1 else None
        if table is not None:
            committed.meta["table"] = table  # each segment with a swatch of its colour
        return committed

    return Job(f"segmenting the {mesh.name}", work, finish)


def _why_one_part(mesh: TriMesh, result: Segmentation) -> str:
    """What the segmentation saw, in words: it looks at thickness and concave creases only."""
    if np.all(np.isnan(result.thickness)):
        return "it is an open sheet with no inside to measure, and no concave crease divides it"
    why = "its thickness is even and no concave crease goes round a part of it"
    if not mesh.is_watertight:
        why += " (an open surface: rays that left through its holes were not counted)"
    return why


@HANDLERS.on(cmd.SelectSegment)
def select_segment(command: cmd.SelectSegment, ctx: Context[MeshPackState]) -> Result:
    _, state, _ = _model(ctx)
    if not 1 <= command.segment_id <= state.segment_count:
        raise CommandError(_no_segment(command.segment_id, state))
    new = replace(state, selected=command.segment_id)
    said = new.named(command.segment_id)
    return _commit(ctx, new, f"{said[0].upper()}{said[1:]} selected.", {"selected": command.segment_id})


def pick(ctx: Context[MeshPackState], origin: np.ndarray, direction: np.ndarray) -> int | None:
    """A click in the viewer: select the segment under the cursor (not an undoable action)."""
    pack = _pack(ctx)
    mesh = pack.model.mesh
    if mesh is None:
        return None
    face = pick_face(mesh, origin, direction)
    if face is None:
        return None
    segment = int(pack.model.face_labels()[face]) + 1
    pack.model = replace(pack.model, selected=segment)
    _show(ctx)
    if ctx.viewer is not None:
        ctx.viewer.status = f"segment {segment} selected"
    return segment


@HANDLERS.on(cmd.IsolateSegment)
def isolate_segment(command: cmd.IsolateSegment, ctx: Context[MeshPackState]) -> Result:
    _, state, _ = _model(ctx)
    if state.labels is None:
        raise CommandError('The model is not segmented yet: say "segment it" first.')
    if command.segment_id == cmd.ALL:
        raise CommandError('Isolate one segment: its number, or the selected one ("isolate segment 2").')
    (segment,) = _resolve(ctx, state, command.segment_id, whole_if_none=False)
    new = replace(state, isolated=segment, selected=segment).logged(
        "isolate_segment", f"isolated segment {segment}"
    )
    part = display.isolated_mesh(new, segment)
    message = (
        f"{new.named(segment).capitalize()} isolated ({part.n_faces:,} faces) as its own layer, centred; "
        "the rest is dimmed. "
        '"show the whole model" ends it.'
    )
    return _commit(ctx, new, message, {"segment": segment, "faces": part.n_faces}, reframe=part)


@HANDLERS.on(cmd.ShowWholeModel)
def show_whole_model(command: cmd.ShowWholeModel, ctx: Context[MeshPackState]) -> Result:
    _, state, mesh = _model(ctx)
    if not state.isolated:
        return Result.success("Nothing is isolated: the whole model is shown.")
    new = replace(state, isolated=None).logged("show_whole_model", "ended the isolation")
    message = f"The whole model is shown again (segment {state.isolated} is back in place)."
    return _commit(ctx, new, message,
                   reframe=mesh)  # fmt: skip


@HANDLERS.on(cmd.ApplyMaterial)
def apply_material(command: cmd.ApplyMaterial, ctx: Context[MeshPackState]) -> Result:
    _, state, _ = _model(ctx)
    found = materials.match(command.material_description)
    if found is None:
        examples = ", ".join(m.name for m in materials.library()[::7])
        raise CommandError(
            f"No material in the library fits {command.material_description!r}. "
            f"Try a material name ({examples}, "
            '...) with colour or finish words: "dark", "shiny", "worn", "glowing blue".'
        )
    targets = _resolve(ctx, state, command.segment_id, whole_if_none=True)
    assigned = {**state.materials, **dict.fromkeys(targets, found.material)}
    where = _where(state, targets)
    new = state.with_materials(assigned).logged(
        "apply_material", f"{found.material.name} on {where}", description=command.material_description
    )
    second = f"; runner-up: {found.runner_up}" if found.runner_up else ""
    message = (
        f"Applied {found.material.name} to {where} (best match for {command.material_description!r}{second})."
    )
    data = {
        "material": found.material.summary(),
        "library_name": found.library_name,
        "score": found.score,
        "runner_up": found.runner_up,
        "adjustments": list(found.adjustments),
        "segments": targets,
    }
    return _commit(ctx, new, message, data)


def _where(state: ModelState, targets: list[int]) -> str:
    if state.labels is None or len(targets) == state.segment_count > 1:
        return "the whole model"
    return state.named(targets[0]) if len(targets) == 1 else f"segments {', '.join(map(str, targets))}"


@HANDLERS.on(cmd.DescribeModel)
def describe_model(command: cmd.DescribeModel, ctx: Context[MeshPackState]) -> Result:
    pack = _pack(ctx)
    state = pack.model
    if state.mesh is None:
        return Result.success(NO_MODEL, {"model": None})
    mesh = state.mesh
    parts = state.segments()
    lines = [
        f"{mesh.name} from {state.source}: {mesh.n_faces:,} faces, {'closed' if mesh.closed else 'open'}."
    ]
    if state.labels is None:
        lines.append('Not segmented yet ("segment it").')
    else:
        lines.append(
            f"{len(parts)} segments: "
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
        "concepts": [_relative(ctx.workspace, c.path) for c in state.concepts],
        "job": running.describe() if running is not None else None,
    }
    return Result.success(" ".join(lines), data)


# -- export -------------------------------------------------------------------------------------


@HANDLERS.on(cmd.ExportFinalModel)
def export_final_model(command: cmd.ExportFinalModel, ctx: Context[MeshPackState]) -> Job:
    """The renders are taken on the GUI thread (they are screenshots); the files are written off it."""
    from .export import Exported, export

    pack, state, mesh = _model(ctx)
    renderer = None
    viewer = ctx.viewer
    if viewer is not None:
        from .render import VIEWS

        pictures = display.renders(viewer, pack, VIEWS, RENDER_SIZE)
        if all(_drawn(p) for p in pictures.values()):  # a hidden canvas gives blank pictures
            renderer = lambda name, _azimuth, _elevation: pictures[name]  # noqa: E731
    workspace, prompt = ctx.workspace, ctx.generative_prompt

    def work(_progress: Progress) -> tuple[Exported, float]:
        started = time.perf_counter()
        return export(state, workspace, prompt, renderer), time.perf_counter() - started

    def finish(written: tuple[Exported, float]) -> Result:
        done, seconds = written
        data = {
            "folder": done.folder,
            "glb": done.glb,
            "renders": done.renders,
            "metadata": done.metadata,
            "segments": done.segments,
            "materials": done.materials,
            "seconds": round(seconds, 3),
        }
        plural = "s" if done.segments != 1 else ""
        message = (
            f"Exported the {mesh.name} to {data['folder']}/: {done.glb.rsplit('/', 1)[-1]} "
            f"({done.segments} primitive{plural}), {len(done.renders)} renders and metadata.json."
        )
        return Result.success(message, data)

    return Job(f"exporting the {mesh.name}", work, finish)


def _relative(workspace: Workspace, path: Path) -> str:
    """A workspace file as the path a command would name it by."""
    try:
        return workspace.relative(path)
    except ValueError:
        return str(path)


def _drawn(picture: np.ndarray) -> bool:
    return bool(np.asarray(picture).std() > 0)


# -- ComfyUI ------------------------------------------------------------------------------------


def _background(
    command: cmd.GenerateConcepts | cmd.SelectConcept,
    ctx: Context[MeshPackState],
    work: Callable[[Progress], Any],
    finish: Callable[[Any], Result],
    what: str,
) -> Job:
    """ComfyUI work (HTTP only) as a background job; ``finish`` changes the model on the GUI thread."""
    running = ctx.jobs.under_way(COMFY_JOB)
    if running is not None:
        raise CommandError(
            f'ComfyUI is still busy with {running.describe()}: wait, or "cancel the generation".'
        )

    def guarded_work(progress: Progress) -> Any:
        try:
            return work(progress)
        except BaseException as exc:
            raise CommandError(_failure(exc, what)) from None

    return Job(f"{COMFY_JOB} {what} at {server_url()}", guarded_work, finish, background=True)


def _failure(exc: BaseException, what: str) -> str:
    if isinstance(exc, Cancelled):
        return f"The {what} was cancelled; nothing changed."
    if isinstance(exc, (ComfyError, WorkflowError)):
        text = str(exc).rstrip()
        return f"{text}{'' if text.endswith(('.', '!', '?')) else '.'} Nothing changed."
    return f"The {what} failed: {exc}. Nothing changed."


def _client() -> ComfyClient:
    try:
        return ComfyClient(server_url())
    except ComfyError as exc:
        raise CommandError(str(exc)) from None


def _prompt(ctx: Context[MeshPackState], state: ModelState) -> str:
    name = state.mesh.name if state.mesh is not None else "an object"
    return ctx.generative_prompt or DEFAULT_PROMPT.format(name=name)


@HANDLERS.on(cmd.GenerateConcepts)
def generate_concepts(command: cmd.GenerateConcepts, ctx: Context[MeshPackState]) -> Job:
    _, state, mesh = _model(ctx)
    client = _client()
    prompt = _prompt(ctx, state)
    view = display.screenshot(ctx.viewer) if ctx.viewer is not None else None
    if view is None or not _drawn(view):
        from .appearance import face_surface

        view = render(mesh, face_surface(state), size=RENDER_SIZE, supersample=1)
    view_png = encode_png(view)
    workspace = ctx.workspace

    def work(progress: Progress) -> list[bytes]:
        context = flows.FlowContext(client, workspace, progress, progress.report)
        return flows.generate_concepts(context, view_png, prompt)

    def finish(images: list[bytes]) -> Result:
        pack = _pack(ctx)
        folder = f"mesh/concepts/{time.strftime('%Y%m%d-%H%M%S')}-{id(images) % 10000:04d}"
        concepts = []
        for option, image in enumerate(images, 1):
            relative = f"{folder}/concept_{option}.png"
            workspace.write_bytes(relative, image)
            concepts.append(Concept(option, workspace.resolve(relative), prompt=prompt))
        new = replace(pack.model, concepts=tuple(concepts)).logged(
            "generate_concepts", f"three concepts for {prompt!r}", prompt=prompt
        )
        message = (
            f"Three concepts from ComfyUI (prompt: {prompt!r}), saved in {folder}/ and shown above the "
            "model: "
            'say "select option 1", "2" or "3".'
        )
        data = {"concepts": [_relative(workspace, c.path) for c in concepts], "prompt": prompt}
        return _commit(ctx, new, message, data, reframe=display.concept_box(new), angles=(0.0, 0.0))

    return _background(command, ctx, work, finish, "concept generation")


@HANDLERS.on(cmd.SelectConcept)
def select_concept(command: cmd.SelectConcept, ctx: Context[MeshPackState]) -> Job:
    pack = _pack(ctx)
    state = pack.model
    chosen = next((c for c in state.concepts if c.option == command.option_id), None)
    if chosen is None:
        raise CommandError('There are no concepts to choose from yet: "generate some concepts" first.')
    concept = _relative(ctx.workspace, chosen.path)
    if not ctx.workspace.exists(concept):
        raise CommandError(f"Concept {command.option_id}'s image is gone from {concept}.")
    client = _client()
    prompt = chosen.prompt or _prompt(ctx, state)
    concept_png = ctx.workspace.read_bytes(concept, limit=CONCEPT_MAX_BYTES, what="concept images")
    mesh = state.mesh
    workspace = ctx.workspace
    surface = None
    if mesh is not None:
        from .appearance import face_surface

        surface = face_surface(state)

    def work(progress: Progress) -> flows.GeneratedModel:
        renders = {}
        for view, azimuth in zip(flows.VIEWS, (90.0, 180.0, 270.0), strict=True):
            image = (
                render(mesh, surface, azimuth=azimuth, elevation=10.0, size=RENDER_SIZE, supersample=1)
                if mesh is not None
                else None
            )
            renders[view] = encode_png(image if image is not None else np.zeros((8, 8, 3), np.uint8))
        context = flows.FlowContext(client, workspace, progress, progress.report)
        return flows.generate_model(context, concept_png, renders, prompt, f"concept {command.option_id}")

    def finish(made: flows.GeneratedModel) -> Result:
        folder = f"mesh/generated/{time.strftime('%Y%m%d-%H%M%S')}-option{command.option_id}"
        for view, image in made.views.items():
            workspace.write_bytes(f"{folder}/view_{view}.png", image)
        current = _pack(ctx).model
        new = ModelState(
            mesh=made.mesh,
            source=f"concept {command.option_id} (ComfyUI)",
            concepts=current.concepts,
            history=current.history,
        ).logged("select_concept", f"made a model from concept {command.option_id}", prompt=prompt)
        message = (
            f"Concept {command.option_id} is now the model ({made.mesh.n_faces:,} faces from ComfyUI's "
            "mv2mv and mv23d "
            'workflows). "segment it" to find its parts.'
        )
        data = {
            "faces": made.mesh.n_faces,
            "views": sorted(made.views),
            "folder": folder,
        }
        return _commit(ctx, new, message, data, reframe=made.mesh)

    return _background(command, ctx, work, finish, f"model from concept {command.option_id}")


@HANDLERS.on(cmd.CancelGeneration)
def cancel_generation(command: cmd.CancelGeneration, ctx: Context[MeshPackState]) -> Result:
    running = ctx.jobs.under_way(COMFY_JOB)
    if running is None:
        return Result.success("No ComfyUI job is running.")
    running.progress.set()
    return Result.success(f"Cancelling {running.describe()}; nothing it makes will be applied.")


# -- the pack's context for the LLM and the parser ----------------------------------------------


def describe_context(ctx: Context[MeshPackState]) -> list[str]:
    state = ctx.state.model
    mesh = state.mesh
    if mesh is None:
        return ["Mesh: no model (spawn_primitive makes one)."]
    line = f"Mesh: {mesh.name} ({state.source}), {state.segment_count} segment(s)"
    if state.labels is None:
        line += " (not segmented)"
    elif any(state.names):
        line += " named " + ", ".join(f"{i + 1} {n}" for i, n in enumerate(state.names) if n)
        line += " (segment_id takes the name or the number)"
    if state.selected:
        line += f", segment {state.selected} selected"
    if state.materials:
        line += ", materials: " + "; ".join(f"{k}: {v.name}" for k, v in sorted(state.materials.items()))
    if state.concepts:
        line += f", {len(state.concepts)} concepts waiting (select_concept 1-3)"
    return [line + "."]
