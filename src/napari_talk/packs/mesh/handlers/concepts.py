"""Concepts and models from a ComfyUI server, as background jobs (HTTP only off the GUI thread)."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import numpy as np

from ....core.basics.jobs import Job, Progress
from ....core.basics.png import encode_png
from ....core.basics.result import CommandError, Result
from ....core.contract.pack import Context
from .. import commands as cmd
from .. import display, flows
from ..comfyui import Cancelled, ComfyClient, ComfyError, server_url
from ..limits import CONCEPT_MAX_BYTES
from ..render import render
from ..state import Concept, MeshPackState, ModelState
from ..workflows import WorkflowError
from .common import COMFY_JOB, HANDLERS, commit, drawn, model_of, pack_of, relative

DEFAULT_PROMPT = "{name}, concept art, sculpted 3d character design, studio lighting, highly detailed"
RENDER_SIZE = 512


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
    return ctx.state.generative_prompt or DEFAULT_PROMPT.format(name=name)


@HANDLERS.on(cmd.GenerateConcepts)
def generate_concepts(command: cmd.GenerateConcepts, ctx: Context[MeshPackState]) -> Job:
    _, state, mesh = model_of(ctx)
    client = _client()
    prompt = _prompt(ctx, state)
    view = display.screenshot(ctx.viewer) if ctx.viewer is not None else None
    if view is None or not drawn(view):
        from ..appearance import face_surface

        view = render(mesh, face_surface(state), size=RENDER_SIZE, supersample=1)
    view_png = encode_png(view)
    workspace = ctx.workspace

    def work(progress: Progress) -> list[bytes]:
        context = flows.FlowContext(client, workspace, progress, progress.report)
        return flows.generate_concepts(context, view_png, prompt)

    def finish(images: list[bytes]) -> Result:
        pack = pack_of(ctx)
        folder = f"mesh/concepts/{time.strftime('%Y%m%d-%H%M%S')}-{id(images) % 10000:04d}"
        concepts = []
        for option, image in enumerate(images, 1):
            saved = f"{folder}/concept_{option}.png"
            workspace.write_bytes(saved, image)
            concepts.append(Concept(option, workspace.resolve(saved), prompt=prompt))
        new = replace(pack.model, concepts=tuple(concepts)).logged(
            "generate_concepts", f"three concepts for {prompt!r}", prompt=prompt
        )
        message = (
            f"Three concepts from ComfyUI (prompt: {prompt!r}), saved in {folder}/ and shown above the "
            "model: "
            'say "select option 1", "2" or "3".'
        )
        data = {"concepts": [relative(workspace, c.path) for c in concepts], "prompt": prompt}
        return commit(ctx, new, message, data, reframe=display.concept_box(new), angles=(0.0, 0.0))

    return _background(command, ctx, work, finish, "concept generation")


@HANDLERS.on(cmd.SelectConcept)
def select_concept(command: cmd.SelectConcept, ctx: Context[MeshPackState]) -> Job:
    pack = pack_of(ctx)
    state = pack.model
    chosen = next((c for c in state.concepts if c.option == command.option_id), None)
    if chosen is None:
        raise CommandError('There are no concepts to choose from yet: "generate some concepts" first.')
    concept = relative(ctx.workspace, chosen.path)
    if not ctx.workspace.exists(concept):
        raise CommandError(f"Concept {command.option_id}'s image is gone from {concept}.")
    client = _client()
    prompt = chosen.prompt or _prompt(ctx, state)
    concept_png = ctx.workspace.read_bytes(concept, limit=CONCEPT_MAX_BYTES, what="concept images")
    mesh = state.mesh
    workspace = ctx.workspace
    surface = None
    if mesh is not None:
        from ..appearance import face_surface

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
        current = pack_of(ctx).model
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
        return commit(ctx, new, message, data, reframe=made.mesh)

    return _background(command, ctx, work, finish, f"model from concept {command.option_id}")


@HANDLERS.on(cmd.CancelGeneration)
def cancel_generation(command: cmd.CancelGeneration, ctx: Context[MeshPackState]) -> Result:
    running = ctx.jobs.under_way(COMFY_JOB)
    if running is None:
        return Result.success("No ComfyUI job is running.")
    running.progress.set()
    return Result.success(f"Cancelling {running.describe()}; nothing it makes will be applied.")
