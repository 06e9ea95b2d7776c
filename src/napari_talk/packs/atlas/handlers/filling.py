"""Filling and changing the catalogue: imports, exports, the sample, removal, the embedding model."""

from __future__ import annotations

import io
import time
from typing import TYPE_CHECKING

from ....core.contract.pack import Context
from ....core.contract.result import CommandError, Result
from ....core.running.history import Changes
from ....core.running.jobs import Job, Progress
from .. import commands as cmd
from .. import jsonl
from ..embeddings import Embedder, EmbeddingError
from ..entities import ImportReport
from ..store import Atlas
from .common import (
    HANDLERS,
    IMPORT_MAX_BYTES,
    Prepared,
    atlas_of,
    catalogue_of,
    downloading,
    embedder_of,
    fill_vectors,
    filled,
    prepare,
    resolve_entity,
    sample_prepared,
    store_prepared,
)

if TYPE_CHECKING:
    from ....core.safety.workspace import Workspace


@HANDLERS.on(cmd.ImportCatalogue)
def import_catalogue(command: cmd.ImportCatalogue, ctx: Context[Atlas]) -> Job:
    if not ctx.workspace.exists(command.path):
        raise CommandError(f"no file {command.path!r} in the workspace")
    workspace, catalogue = ctx.workspace, catalogue_of(ctx)
    started = time.perf_counter()

    def work(progress: Progress) -> tuple[Prepared, jsonl.ReadResult, int]:
        data = workspace.read_bytes(command.path, limit=IMPORT_MAX_BYTES, what="catalogue imports")
        read = jsonl.read_bytes(data)
        if not read.entities:
            why = (
                f"; {jsonl.summarize_errors(read.errors, read.skipped)}"
                if read.skipped
                else ": the file is empty"
            )
            raise CommandError(f"no entity imported from {command.path}{why}")
        embedder = embedder_of(ctx, progress)
        # what an earlier import (stopped, or of the same file before it grew) stored as it is
        # here, with its vector, is neither embedded nor written again
        kept = catalogue.unchanged(read.entities, embedder.name)
        entities = [e for i, e in enumerate(read.entities) if i not in kept]
        return prepare(ctx, embedder, entities, [None] * len(entities), progress), read, len(kept)

    def finish(done: tuple[Prepared, jsonl.ReadResult, int]) -> Result:
        prepared, read, unchanged = done
        report, changes = store_prepared(catalogue, prepared) if prepared[0] else (ImportReport(), Changes())
        skipped = f"; {jsonl.summarize_errors(read.errors, read.skipped)}" if read.skipped else ""
        repeated = f"; {read.repeated:,} gave way to a later line of the same name" if read.repeated else ""
        same = f", {unchanged:,} already there as they are" if unchanged else ""
        seconds = time.perf_counter() - started
        message = (
            f"imported {len(prepared[0]) + unchanged} entities from {command.path} ({len(report.added)} new, "
            f"{len(report.replaced)} replaced{same}{repeated}) in {seconds:.1f} s{skipped}."
        )
        data: dict[str, object] = {
            "imported": len(prepared[0]) + unchanged,
            "repeated": read.repeated,
            "added": len(report.added),
            "replaced": len(report.replaced),
            "skipped": read.errors,
            "skipped_count": read.skipped,
        }
        if unchanged:
            data["unchanged"] = unchanged
        return Result.success(message, data, undo=changes)

    return Job(f"importing {command.path}", work, finish)


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
