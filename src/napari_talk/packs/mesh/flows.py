"""The two ComfyUI flows of the seed, as plain functions that only talk HTTP.

They change nothing in the session: each returns what it fetched, and the caller applies it
(on the GUI thread) only when the whole flow succeeded, so a server failing half-way leaves
nothing half-done. Each step names itself in the error it raises.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Any

from .comfyui import ComfyClient, ComfyError, output_files
from .importers import MeshFileError, load_bytes
from .mesh import TriMesh
from .workflows import fill, load, titled

if TYPE_CHECKING:
    from ...core.safety.workspace import Workspace

NEGATIVE = "blurry, low quality, deformed, extra limbs, text, watermark, signature"
CONCEPTS = 3
VIEWS = ("left", "back", "right")
POLL_SECONDS = 0.5
"""How often ComfyUI's history is asked whether a workflow has finished."""
Say = Callable[[str], None]


@dataclass(frozen=True)
class FlowContext:
    client: ComfyClient
    workspace: Workspace | None = None
    cancelled: threading.Event | None = None
    progress: Say | None = None
    timeout: float = 900.0
    seed: int | None = None

    def say(self, text: str) -> None:
        if self.progress is not None:
            self.progress(text)

    def next_seed(self) -> int:
        return self.seed if self.seed is not None else random.randrange(2**31)


def _step(name: str, call: Callable[[], Any]) -> Any:
    try:
        return call()
    except ComfyError as exc:
        exc.step = exc.step or name
        if name and not str(exc).startswith(name):
            exc.args = (f"{name}: {exc}",)
        raise


def _run(
    context: FlowContext, template: str, values: dict[str, Any], *outputs: str
) -> dict[str, list[bytes]]:
    """Queue a filled template, wait for it, and download the files of its ``output:<name>`` nodes
    (for a template without titled outputs, every file goes to the first name)."""
    workflow, _ = load(template, context.workspace)
    filled = fill(workflow, values)
    context.say(f"queueing the {template} workflow")
    prompt_id = _step(f"queueing the {template} workflow", lambda: context.client.queue(filled))
    entry = _step(
        f"running the {template} workflow",
        lambda: context.client.wait(
            prompt_id,
            timeout=context.timeout,
            poll=POLL_SECONDS,
            cancelled=context.cancelled,
            progress=context.progress,
        ),
    )
    found: dict[str, list[bytes]] = {}
    for output in outputs:
        nodes = titled(filled, f"output:{output}")
        if not nodes and output != outputs[0]:
            raise ComfyError(f"the {template} workflow has no node titled 'output:{output}'", template)
        files = output_files(entry, nodes or None)
        if not files:
            raise ComfyError(f"the {template} workflow finished without its {output!r} output", template)
        context.say(f"downloading the {output} output of the {template} workflow")
        found[output] = [
            _step(f"downloading {ref['filename']}", partial(context.client.fetch, ref)) for ref in files
        ]
    return found


def check_server(context: FlowContext) -> None:
    _step("", context.client.system_stats)


def generate_concepts(context: FlowContext, view_png: bytes, prompt: str) -> list[bytes]:
    """The current view and the prompt in, three concept images (PNG bytes) out."""
    check_server(context)
    context.say("uploading the current view")
    view = _step("uploading the view", lambda: context.client.upload_image(view_png, "view.png"))
    values = {"view": view, "prompt": prompt, "negative": NEGATIVE, "seed": context.next_seed()}
    images = _run(context, "concepts", values, "concepts")["concepts"]
    if len(images) < CONCEPTS:
        raise ComfyError(f"the concepts workflow made {len(images)} image(s), not {CONCEPTS}", "concepts")
    return images[:CONCEPTS]


@dataclass(frozen=True)
class GeneratedModel:
    mesh: TriMesh
    views: dict[str, bytes]
    """The multi-view images the mesh was made from."""


def generate_model(
    context: FlowContext, concept_png: bytes, renders: dict[str, bytes], prompt: str, name: str
) -> GeneratedModel:
    """A chosen concept (front view) and the current model's renders in; a new mesh out.

    mv2mv turns the concept into left, back and right views guided by the model's renders; mv23d
    turns the four views into a mesh, downloaded and read here, so a bad file fails the flow too.
    """
    check_server(context)
    context.say("uploading the concept and the model's renders")
    concept = _step("uploading the concept", lambda: context.client.upload_image(concept_png, "concept.png"))
    uploaded = {
        f"render_{view}": _step(
            f"uploading the {view} render",
            partial(context.client.upload_image, renders[view], f"render_{view}.png"),
        )
        for view in VIEWS
    }
    seed = context.next_seed()
    made = _run(context, "mv2mv", {"concept": concept, "seed": seed, "prompt": prompt, **uploaded}, *VIEWS)
    views = {"front": concept_png, **{view: made[view][0] for view in VIEWS}}
    names = {"front": concept}
    for view in VIEWS:
        names[view] = _step(
            f"uploading the {view} view", partial(context.client.upload_image, views[view], f"mv_{view}.png")
        )
    mesh_bytes = _run(context, "mv23d", {**names, "seed": seed, "prompt": prompt}, "mesh")["mesh"][0]
    try:
        mesh = load_bytes(mesh_bytes, f"{name}.glb")
    except MeshFileError as exc:
        raise ComfyError(f"reading the mesh ComfyUI made: {exc}", "mv23d") from None
    return GeneratedModel(mesh, views)
