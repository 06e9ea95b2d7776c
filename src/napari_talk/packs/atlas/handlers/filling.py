"""Filling and changing the catalogue: exports, the sample, removal, the embedding model (imports:
:mod:`.importing`)."""

from __future__ import annotations

import io
import time
from typing import TYPE_CHECKING

from ....core.basics.jobs import Job, Progress
from ....core.basics.result import CommandError, Result
from ....core.contract.pack import Context
from ....core.running.history import Changes
from .. import commands as cmd
from .. import jsonl
from ..embeddings import Embedder, EmbeddingError
from ..store import Atlas
from .common import (
    HANDLERS,
    Prepared,
    atlas_of,
    catalogue_of,
    downloading,
    embedder_of,
    fill_vectors,
    filled,
    resolve_entity,
    sample_prepared,
    store_prepared,
)

if TYPE_CHECKING:
    from ....core.safety.workspace import Workspace


@HANDLERS.on(cmd.ExportCatalogue)
def export_catalogue(command: cmd.ExportCatalogue, ctx: Context[Atlas]) -> Result:
    workspace = ctx.workspace
    if workspace.exists(command.path):
        raise CommandError(f"{command.path} already exists; choose a new file name")
    catalogue = filled(ctx)
    out = io.StringIO()
    count = jsonl.write_records(catalogue.entities(), out)
    data = out.getvalue().encode("utf-8")
    workspace.write_bytes(command.path, data, overwrite=False)
    changes = Changes()
    ours = workspace.written(command.path, data)
    changes.add(lambda: workspace.take_back(ours))
    message = f"exported {count} entities to {command.path}."
    return Result.success(message, {"exported": count, "path": command.path}, undo=changes)


@HANDLERS.on(cmd.LoadSampleCatalogue)
def load_sample_catalogue(command: cmd.LoadSampleCatalogue, ctx: Context[Atlas]) -> Job:
    catalogue = catalogue_of(ctx)

    def finish(done: tuple[Prepared, Workspace, list[str]]) -> Result:
        report, changes = store_prepared(catalogue, *done)
        total = catalogue.count()
        message = (
            f"loaded the sample catalogue: {len(report.added)} new entities, {len(report.replaced)} "
            f"replaced, {total} in all, in {len(catalogue.domains())} domains."
        )
        data = {"added": len(report.added), "replaced": len(report.replaced), "total": total}
        return Result.success(message, data, undo=changes)

    return Job(
        "loading the sample catalogue", lambda p: sample_prepared(ctx, lambda: embedder_of(ctx, p), p), finish
    )


@HANDLERS.on(cmd.RemoveFromCatalogue)
def remove_from_catalogue(command: cmd.RemoveFromCatalogue, ctx: Context[Atlas]) -> Result:
    catalogue = filled(ctx)
    entity = resolve_entity(catalogue, command.name)
    changes = Changes()
    snapshot = catalogue.remove(entity.name)
    changes.add(lambda: catalogue.restore([snapshot]))
    return Result.success(
        f"removed {entity.name} from the catalogue.",
        {"removed": entity.name},
        undo=changes,
    )


@HANDLERS.on(cmd.SetEmbeddingModel)
def set_embedding_model(command: cmd.SetEmbeddingModel, ctx: Context[Atlas]) -> Job:
    atlas = atlas_of(ctx)
    catalogue_of(ctx)
    llm = ctx.llm.settings if ctx.llm is not None else None
    model, remote = atlas.choose(command.model, command.base_url, llm)
    started = time.perf_counter()

    def work(progress: Progress) -> tuple[Embedder, int]:
        try:
            embedder = atlas.embedder(model, remote, download=downloading(progress))
        except EmbeddingError as exc:
            raise CommandError(str(exc)) from None
        return embedder, fill_vectors(ctx, embedder, progress)

    def finish(done: tuple[Embedder, int]) -> Result:
        embedder, embedded = done
        before, changes = atlas.settings(), Changes()
        atlas.use(model, remote)
        changes.add(lambda: atlas.restore_settings(before))
        seconds = time.perf_counter() - started
        did = (
            f"{embedded} entities embedded in {seconds:.1f} s" if embedded else "every entity had its vector"
        )
        return Result.success(
            f"embedding model is now {embedder.name}: {did}.",
            {"model": embedder.name, "embedded": embedded},
            undo=changes,
        )

    return Job(f"embedding with {model}", work, finish)
