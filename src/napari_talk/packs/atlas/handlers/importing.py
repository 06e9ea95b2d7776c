"""``import entities.jsonl`` (or a folder of ``.jsonl`` files): records read, the unchanged ones
skipped, the rest embedded and stored; a large import embedded on a Dask cluster
(:mod:`..cluster_import`), where ``$NAPARI_TALK_SCHEDULER`` (``run --scheduler``) says."""

from __future__ import annotations

import time
from dataclasses import dataclass

from ....core.basics.jobs import Job, Progress
from ....core.basics.result import CommandError, Result
from ....core.contract.pack import Context
from ....core.recipes.cluster import scheduler_chosen
from ....core.running.history import Changes
from .. import cluster_import, jsonl
from .. import commands as cmd
from ..embed_tasks import EmbedSpec
from ..embeddings import LOCAL_MODELS, Embedder, OpenAIEmbedder
from ..entities import ImportReport
from ..import_source import read_source
from ..store import Atlas
from .common import HANDLERS, Prepared, catalogue_of, embedder_of, prepare, store_prepared


@dataclass
class Read:
    """An import's work done, for its finish: what to store (here) or what was stored (a cluster)."""

    read: jsonl.ReadResult
    unchanged: int
    prepared: Prepared | None = None
    spread: cluster_import.Spread | None = None
    where: str = ""


@HANDLERS.on(cmd.ImportCatalogue)
def import_catalogue(command: cmd.ImportCatalogue, ctx: Context[Atlas]) -> Job:
    if not ctx.workspace.exists(command.path):
        raise CommandError(f"no file {command.path!r} in the workspace")
    workspace, catalogue = ctx.workspace, catalogue_of(ctx)
    started = time.perf_counter()

    def work(progress: Progress) -> Read:
        read = read_source(workspace, command.path)
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
        on = cluster_import.where(len(entities), scheduler_chosen())
        if on is None:
            return Read(read, len(kept), prepare(ctx, embedder, entities, [None] * len(entities), progress))
        progress.report(f"embedding {len(entities):,} entities on {on}", 0.0)
        spread = cluster_import.import_on_cluster(
            catalogue,
            entities,
            spec_of(embedder),
            scheduler=on,
            told=lambda done, total: progress.report(
                f"embedded and stored on {on}: {done:,} of {total:,} entities", done / total
            ),
            stop=lambda: progress.cancelled,
            keep_cluster=True,
        )
        return Read(read, len(kept), spread=spread, where=on)

    def finish(done: Read) -> Result:
        read, unchanged = done.read, done.unchanged
        if done.spread is not None:
            report, changes, count = done.spread.report, Changes(), done.spread.written
            changes.add(lambda: catalogue.restore(report.replaced))
            changes.add(lambda: catalogue.delete_ids(report.added))
        elif done.prepared is not None and done.prepared[0]:
            report, changes = store_prepared(catalogue, done.prepared)
            count = len(done.prepared[0])
        else:
            report, changes, count = ImportReport(), Changes(), 0
        skipped = f"; {jsonl.summarize_errors(read.errors, read.skipped)}" if read.skipped else ""
        repeated = f"; {read.repeated:,} gave way to a later line of the same name" if read.repeated else ""
        same = f", {unchanged:,} already there as they are" if unchanged else ""
        on = f" on {done.where}" if done.where else ""
        seconds = time.perf_counter() - started
        message = (
            f"imported {count + unchanged} entities from {command.path} ({len(report.added)} new, "
            f"{len(report.replaced)} replaced{same}{repeated}) in {seconds:.1f} s{on}{skipped}."
        )
        data: dict[str, object] = {
            "imported": count + unchanged,
            "repeated": read.repeated,
            "added": len(report.added),
            "replaced": len(report.replaced),
            "skipped": read.errors,
            "skipped_count": read.skipped,
        }
        if unchanged:
            data["unchanged"] = unchanged
        if done.where:
            data["scheduler"] = done.where
        return Result.success(message, data, undo=changes)

    return Job(f"importing {command.path}", work, finish)


def spec_of(embedder: Embedder) -> EmbedSpec:
    """What a worker needs to embed as ``embedder`` does: its model, and for a model on a server,
    where that is (the key stays in each worker's own environment)."""
    if embedder.name in LOCAL_MODELS or not isinstance(embedder, OpenAIEmbedder):
        return EmbedSpec(embedder.name)
    return EmbedSpec(embedder.name, embedder.config)
