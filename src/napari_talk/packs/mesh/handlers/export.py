"""Export: the model as glTF with its renders and metadata, written off the GUI thread."""

from __future__ import annotations

import time

from ....core.basics.jobs import Job, Progress
from ....core.basics.result import Result
from ....core.contract.pack import Context
from .. import commands as cmd
from .. import display
from ..state import MeshPackState
from .common import HANDLERS, drawn, model_of

RENDER_SIZE = 512


@HANDLERS.on(cmd.ExportFinalModel)
def export_final_model(command: cmd.ExportFinalModel, ctx: Context[MeshPackState]) -> Job:
    """The renders are taken on the GUI thread (they are screenshots); the files are written off it."""
    from ..export import Exported, export

    pack, state, mesh = model_of(ctx)
    renderer = None
    viewer = ctx.viewer
    if viewer is not None:
        from ..render import VIEWS

        pictures = display.renders(viewer, pack, VIEWS, RENDER_SIZE)
        if all(drawn(p) for p in pictures.values()):  # a hidden canvas gives blank pictures
            renderer = lambda name, _azimuth, _elevation: pictures[name]  # noqa: E731
    workspace, prompt = ctx.workspace, ctx.state.generative_prompt

    def work(_progress: Progress) -> tuple[Exported, float]:
        started = time.perf_counter()
        return export(state, workspace, prompt, renderer), time.perf_counter() - started

    def finish(written: tuple[Exported, float]) -> Result:
        done, seconds = written
        pack.exported = state  # replacing this very model now loses nothing
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
