"""Handlers of the mesh pack: each runs one command on the session's model and returns a Result.

The model lives in ``session.state["mesh"]`` (:class:`~.state.MeshPackState`) as an immutable
:class:`~.state.ModelState`. A change builds a new state, shows it (:func:`.display.sync`),
writes ``mesh/state.json``, and hands back an undo that puts the old state (and the camera)
back. The ComfyUI flows run as jobs (:mod:`.jobs`): off the GUI thread when there is one.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import numpy as np

from ...result import CommandError, Result
from ...workspace import resolve
from . import commands as cmd
from . import display, flows, materials, primitives
from .comfyui import Cancelled, ComfyClient, ComfyError, server_url
from .importers import MeshFileError, load_mesh
from .jobs import BackgroundTask, Outcome, guarded, run_here
from .mesh import TriMesh, pick_face
from .png import encode_png
from .render import render
from .state import Concept, MeshPackState, ModelState, carry_materials, pack_state
from .workflows import WorkflowError

if TYPE_CHECKING:
    from ...session import Session

NO_MODEL = 'There is no model yet: "spawn a sphere" (or a cube, a head, a body, ...) or "import <file.glb>".'
DEFAULT_PROMPT = "{name}, concept art, sculpted 3d character design, studio lighting, highly detailed"
RENDER_SIZE = 512


def _pack(session: Session) -> MeshPackState:
    return pack_state(session)


def _model(session: Session) -> tuple[MeshPackState, ModelState, TriMesh]:
    pack = _pack(session)
    if pack.model.mesh is None:
        raise CommandError(NO_MODEL)
    return pack, pack.model, pack.model.mesh


def _show(session: Session) -> None:
    """Make the viewer and ``mesh/state.json`` agree with the pack's state."""
    pack = _pack(session)
    viewer = session.viewer
    if viewer is not None:
        display.sync(viewer, pack)
        if pack.model.mesh is not None:
            display.install_picking(viewer, pack, lambda ray: pick(session, *ray))
    pack.file.write(pack.model)


def _commit(
    session: Session,
    state: ModelState,
    message: str,
    data: Any = None,
    *,
    reframe: TriMesh | np.ndarray | None = None,
    angles: tuple[float, float] = (30.0, 15.0),
) -> Result:
    """Show ``state``; the Result's undo restores the state before, and the camera if it moved."""
    pack = _pack(session)
    before = pack.model
    viewer = session.viewer
    view = display.view_state(viewer) if viewer is not None and reframe is not None else None
    pack.model = state
    _show(session)
    if view is not None:
        display.frame(viewer, reframe, *angles)

    def undo() -> None:
        pack.model = before
        _show(session)
        if view is not None:
            display.restore_view(viewer, view)

    return Result.success(message, data, undo=undo)


def _resolve(session: Session, state: ModelState, ref: str, *, whole_if_none: bool) -> list[int]:
    """The segment ids a ``segment_id`` means: a number, all of them, or the selected one."""
    count = state.segment_count
    if ref == cmd.ALL:
        return list(range(1, count + 1))
    if ref.isdigit():
        number = int(ref)
        if not 1 <= number <= count:
            raise CommandError(_no_segment(number, state))
        return [number]
    if ref != cmd.SELECTED:
        raise CommandError(
            f"{ref!r} is not a segment: give its number (1 to {count}), {cmd.SELECTED} or {cmd.ALL}."
        )
    selected = _pack(session).file.external_selection(state) or state.selected
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


def spawn_primitive(command: cmd.SpawnPrimitive, session: Session) -> Result:
    started = time.perf_counter()
    mesh = primitives.build(command.primitive_type)
    pack = _pack(session)
    state = ModelState(mesh=mesh, source=f"primitive {command.primitive_type}", history=pack.model.history)
    state = state.logged("spawn_primitive", f"spawned a {command.primitive_type}")
    data = {
        "primitive_type": command.primitive_type,
        "vertices": len(mesh.vertices),
        "faces": mesh.n_faces,
        "watertight": mesh.is_watertight,
        "build_seconds": round(time.perf_counter() - started, 3),
    }
    where = "; the view is 3-D and framed on it" if session.viewer is not None else ""
    message = f"Spawned a {command.primitive_type} ({mesh.n_faces:,} faces){where}."
    return _commit(session, state, message, data, reframe=mesh)


def import_model(command: cmd.ImportModel, session: Session) -> Result:
    path = resolve(session.workspace, command.path)
    if not path.is_file():
        raise CommandError(f"There is no file {command.path!r} in the workspace.")
    try:
        mesh = load_mesh(path)
    except (MeshFileError, OSError) as exc:
        raise CommandError(f"{command.path}: {exc}") from None
    pack = _pack(session)
    state = ModelState(mesh=mesh, source=f"file {command.path}", history=pack.model.history)
    state = state.logged("import_model", f"imported {command.path}")
    closed = "closed" if mesh.closed else "open"
    message = f"Imported {command.path} as the model ({mesh.n_faces:,} faces, {closed} surface)."
    return _commit(session, state, message, {"faces": mesh.n_faces, "closed": mesh.closed}, reframe=mesh)


def request_segmentation(command: cmd.RequestSegmentation, session: Session) -> Result:
    from .segmentation import segment

    _, state, mesh = _model(session)
    started = time.perf_counter()
    result = segment(mesh)
    seconds = time.perf_counter() - started
    new = replace(state, labels=result.labels, selected=None, isolated=None)
    new = new.with_materials(carry_materials(state, result.labels)).logged(
        "request_segmentation", f"segmented into {result.count} parts"
    )
    parts = new.segments()
    listed = ", ".join(f"{p['id']} ({p['area_share']:.0%})" for p in parts[:8])
    more = f" and {len(parts) - 8} more" if len(parts) > 8 else ""
    if result.count == 1:
        message = (
            f"The {mesh.name} is one part: no sharp crease or change of thickness divides it "
            f"({seconds:.2f} s). Materials apply to it whole."
        )
    else:
        message = (
            f"Segmented the {mesh.name} into {result.count} parts in {seconds:.2f} s: {listed}{more} "
            '(share of the surface). Click a part, or say "select segment 2".'
        )
    return _commit(
        session, new, message, {"segments": result.count, "parts": parts, "seconds": round(seconds, 3)}
    )


def select_segment(command: cmd.SelectSegment, session: Session) -> Result:
    _, state, _ = _model(session)
    if not 1 <= command.segment_id <= state.segment_count:
        raise CommandError(_no_segment(command.segment_id, state))
    new = replace(state, selected=command.segment_id)
    return _commit(session, new, f"Segment {command.segment_id} selected.", {"selected": command.segment_id})


def pick(session: Session, origin: np.ndarray, direction: np.ndarray) -> int | None:
    """A click in the viewer: select the segment under the cursor (not an undoable action)."""
    pack = _pack(session)
    mesh = pack.model.mesh
    if mesh is None:
        return None
    face = pick_face(mesh, origin, direction)
    if face is None:
        return None
    segment = int(pack.model.face_labels()[face]) + 1
    pack.model = replace(pack.model, selected=segment)
    _show(session)
    if session.viewer is not None:
        session.viewer.status = f"segment {segment} selected"
    return segment


def isolate_segment(command: cmd.IsolateSegment, session: Session) -> Result:
    _, state, _ = _model(session)
    if state.labels is None:
        raise CommandError('The model is not segmented yet: say "segment it" first.')
    if command.segment_id == cmd.ALL:
        raise CommandError('Isolate one segment: its number, or the selected one ("isolate segment 2").')
    (segment,) = _resolve(session, state, command.segment_id, whole_if_none=False)
    new = replace(state, isolated=segment, selected=segment).logged(
        "isolate_segment", f"isolated segment {segment}"
    )
    part = display.isolated_mesh(new, segment)
    message = (
        f"Segment {segment} isolated ({part.n_faces:,} faces) as its own layer, centred; the rest is dimmed. "
        '"show the whole model" ends it.'
    )
    return _commit(session, new, message, {"segment": segment, "faces": part.n_faces}, reframe=part)


def show_whole_model(command: cmd.ShowWholeModel, session: Session) -> Result:
    _, state, mesh = _model(session)
    if not state.isolated:
        return Result.success("Nothing is isolated: the whole model is shown.")
    new = replace(state, isolated=None).logged("show_whole_model", "ended the isolation")
    message = f"The whole model is shown again (segment {state.isolated} is back in place)."
    return _commit(session, new, message,
                   reframe=mesh)  # fmt: skip


def apply_material(command: cmd.ApplyMaterial, session: Session) -> Result:
    _, state, _ = _model(session)
    found = materials.match(command.material_description)
    if found is None:
        examples = ", ".join(m.name for m in materials.library()[::7])
        raise CommandError(
            f"No material in the library fits {command.material_description!r}. "
            f"Try a material name ({examples}, "
            '...) with colour or finish words: "dark", "shiny", "worn", "glowing blue".'
        )
    targets = _resolve(session, state, command.segment_id, whole_if_none=True)
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
    return _commit(session, new, message, data)


def _where(state: ModelState, targets: list[int]) -> str:
    if state.labels is None or len(targets) == state.segment_count > 1:
        return "the whole model"
    return f"segment {targets[0]}" if len(targets) == 1 else f"segments {', '.join(map(str, targets))}"


def describe_model(command: cmd.DescribeModel, session: Session) -> Result:
    pack = _pack(session)
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
                f"{p['id']} ({p['area_share']:.0%}{', ' + p['material'] if p['material'] else ''})"
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
    if pack.job is not None:
        lines.append(f"Working: {pack.job.describe()}.")
    data = {
        "model": mesh.name,
        "source": state.source,
        "faces": mesh.n_faces,
        "segments": parts,
        "selected": state.selected,
        "isolated": state.isolated,
        "concepts": [_relative(session.workspace, c.path) for c in state.concepts],
        "job": pack.job.describe() if pack.job is not None else None,
    }
    return Result.success(" ".join(lines), data)


# -- export -------------------------------------------------------------------------------------


def export_final_model(command: cmd.ExportFinalModel, session: Session) -> Result:
    from .export import export

    pack, state, _ = _model(session)
    exports = resolve(session.workspace, "exports")
    renderer = None
    viewer = session.viewer
    if viewer is not None:
        from .render import VIEWS

        pictures = display.renders(viewer, pack, VIEWS, RENDER_SIZE)
        if all(_drawn(p) for p in pictures.values()):  # a hidden canvas gives blank pictures
            renderer = lambda name, _azimuth, _elevation: pictures[name]  # noqa: E731
    started = time.perf_counter()
    done = export(state, exports, session.generative_prompt, renderer)
    root = session.workspace.resolve()
    relative = lambda path: path.resolve().relative_to(root).as_posix()  # noqa: E731
    data = {
        "folder": relative(done.folder),
        "glb": relative(done.glb),
        "renders": [relative(p) for p in done.renders],
        "metadata": relative(done.metadata),
        "segments": done.segments,
        "materials": done.materials,
        "seconds": round(time.perf_counter() - started, 3),
    }
    message = (
        f"Exported the {state.mesh.name} to {data['folder']}/: {done.glb.name} ({done.segments} "
        f"primitive{'s' if done.segments != 1 else ''}), {len(done.renders)} renders and metadata.json."
    )
    return Result.success(message, data)


def _relative(workspace, path) -> str:
    """A workspace file as the path a command would name it by."""
    try:
        return path.resolve().relative_to(workspace.resolve()).as_posix()
    except ValueError:
        return str(path)


def _drawn(picture: np.ndarray) -> bool:
    return bool(np.asarray(picture).std() > 0)


# -- ComfyUI ------------------------------------------------------------------------------------


def _runner(session: Session):
    pack = _pack(session)
    if pack.runner is not None:
        return pack.runner
    if session.window is not None and session.viewer is not None:
        return display.qt_runner
    return None


def _start(
    session: Session,
    command: cmd.GenerateConcepts | cmd.SelectConcept,
    work: Callable[[BackgroundTask], Any],
    finish: Callable[[Any], Result],
    what: str,
) -> Result:
    """Run ``work`` (HTTP only) as a job and ``finish`` (state changes) with its outcome."""
    pack = _pack(session)
    if pack.job is not None and not pack.job.finished:
        raise CommandError(
            f'ComfyUI is still busy with {pack.job.describe()}: wait, or "cancel the generation".'
        )
    job = BackgroundTask(command)
    pack.job = job
    runner = _runner(session)
    answer: dict[str, Result] = {}

    def done(outcome: Outcome) -> None:
        job.finished = True
        if pack.job is job:
            pack.job = None
        try:
            if job.cancelled.is_set():
                result = Result.error(f"The {what} was cancelled; nothing changed.")
            elif outcome.error is not None:
                result = Result.error(_failure(outcome.error, what))
            else:
                result = finish(outcome.value)
        except CommandError as exc:
            result = Result.error(str(exc))
        answer["result"] = result
        if runner is not None:
            _report(session, command, result)

    task = guarded(lambda: work(job))
    if runner is None:
        run_here(task, done)
        return answer["result"]
    job.handle = runner(task, done)
    return Result.success(
        f"Working on the {what} with ComfyUI at {server_url()} in the background; I will say when it is done "
        '("describe the model" shows progress, "cancel the generation" stops it).',
        {"job": command.action, "background": True},
    )


def _report(session: Session, command: Any, result: Result) -> None:
    """A background job ended: record its undo and tell whoever listens (else napari's notices)."""
    if result.ok and result.undo is not None:
        session.history.record(command, result.undo)
    listeners = list(_pack(session).listeners)
    for listener in listeners:
        listener(command, result)
    if not listeners:
        display.notify(result.message, error=not result.ok)


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


def _prompt(session: Session, state: ModelState) -> str:
    name = state.mesh.name if state.mesh is not None else "an object"
    return session.generative_prompt or DEFAULT_PROMPT.format(name=name)


def generate_concepts(command: cmd.GenerateConcepts, session: Session) -> Result:
    _, state, mesh = _model(session)
    client = _client()
    prompt = _prompt(session, state)
    view = display.screenshot(session.viewer) if session.viewer is not None else None
    if view is None or not _drawn(view):
        from .appearance import face_surface

        view = render(mesh, face_surface(state), size=RENDER_SIZE, supersample=1)
    view_png = encode_png(view)
    workspace = session.workspace

    def work(job: BackgroundTask) -> list[bytes]:
        context = flows.FlowContext(client, workspace, job.cancelled, job.progress)
        return flows.generate_concepts(context, view_png, prompt)

    def finish(images: list[bytes]) -> Result:
        pack = _pack(session)
        folder = resolve(
            workspace, f"mesh/concepts/{time.strftime('%Y%m%d-%H%M%S')}-{id(images) % 10000:04d}"
        )
        folder.mkdir(parents=True, exist_ok=True)
        concepts = []
        for option, image in enumerate(images, 1):
            path = folder / f"concept_{option}.png"
            path.write_bytes(image)
            concepts.append(Concept(option, path, prompt=prompt))
        new = replace(pack.model, concepts=tuple(concepts)).logged(
            "generate_concepts", f"three concepts for {prompt!r}", prompt=prompt
        )
        relative = folder.relative_to(workspace.resolve()).as_posix()
        message = (
            f"Three concepts from ComfyUI (prompt: {prompt!r}), saved in {relative}/ and shown above the "
            "model: "
            'say "select option 1", "2" or "3".'
        )
        data = {"concepts": [_relative(workspace, c.path) for c in concepts], "prompt": prompt}
        return _commit(session, new, message, data, reframe=display.concept_box(new), angles=(0.0, 0.0))

    return _start(session, command, work, finish, "concept generation")


def select_concept(command: cmd.SelectConcept, session: Session) -> Result:
    pack = _pack(session)
    state = pack.model
    chosen = next((c for c in state.concepts if c.option == command.option_id), None)
    if chosen is None:
        raise CommandError('There are no concepts to choose from yet: "generate some concepts" first.')
    if not chosen.path.is_file():
        raise CommandError(f"Concept {command.option_id}'s image is gone from {chosen.path}.")
    client = _client()
    prompt = chosen.prompt or _prompt(session, state)
    concept_png = chosen.path.read_bytes()
    mesh = state.mesh
    workspace = session.workspace
    surface = None
    if mesh is not None:
        from .appearance import face_surface

        surface = face_surface(state)

    def work(job: BackgroundTask) -> flows.GeneratedModel:
        renders = {}
        for view, azimuth in zip(flows.VIEWS, (90.0, 180.0, 270.0), strict=True):
            image = (
                render(mesh, surface, azimuth=azimuth, elevation=10.0, size=RENDER_SIZE, supersample=1)
                if mesh is not None
                else None
            )
            renders[view] = encode_png(image if image is not None else np.zeros((8, 8, 3), np.uint8))
        context = flows.FlowContext(client, workspace, job.cancelled, job.progress)
        return flows.generate_model(context, concept_png, renders, prompt, f"concept {command.option_id}")

    def finish(made: flows.GeneratedModel) -> Result:
        folder = resolve(
            workspace, f"mesh/generated/{time.strftime('%Y%m%d-%H%M%S')}-option{command.option_id}"
        )
        folder.mkdir(parents=True, exist_ok=True)
        for view, image in made.views.items():
            (folder / f"view_{view}.png").write_bytes(image)
        current = _pack(session).model
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
            "folder": _relative(workspace, folder),
        }
        return _commit(session, new, message, data, reframe=made.mesh)

    return _start(session, command, work, finish, f"model from concept {command.option_id}")


def cancel_generation(command: cmd.CancelGeneration, session: Session) -> Result:
    pack = _pack(session)
    job = pack.job
    if job is None or job.finished:
        return Result.success("No ComfyUI job is running.")
    job.cancelled.set()
    return Result.success(f"Cancelling {job.describe()}; nothing it makes will be applied.")


# -- the pack's context for the LLM and the parser ----------------------------------------------


def describe_context(session: Session) -> list[str]:
    pack = session.state.get("mesh")
    if not isinstance(pack, MeshPackState) or pack.model.mesh is None:
        return ["Mesh: no model (spawn_primitive makes one)."]
    state = pack.model
    line = f"Mesh: {state.mesh.name} ({state.source}), {state.segment_count} segment(s)"
    if state.labels is None:
        line += " (not segmented)"
    if state.selected:
        line += f", segment {state.selected} selected"
    if state.materials:
        line += ", materials: " + "; ".join(f"{k}: {v.name}" for k, v in sorted(state.materials.items()))
    if state.concepts:
        line += f", {len(state.concepts)} concepts waiting (select_concept 1-3)"
    return [line + "."]


HANDLERS = {
    "spawn_primitive": spawn_primitive,
    "request_segmentation": request_segmentation,
    "select_segment": select_segment,
    "isolate_segment": isolate_segment,
    "show_whole_model": show_whole_model,
    "apply_material": apply_material,
    "generate_concepts": generate_concepts,
    "select_concept": select_concept,
    "cancel_generation": cancel_generation,
    "import_model": import_model,
    "export_final_model": export_final_model,
    "describe_model": describe_model,
}
