"""An import embedded on a Dask cluster, its parts written to the catalogue as they come back.

The entities to embed (those not already stored as they are) are cut into parts of
:data:`PART` in file order; each part's texts are a task (:func:`.embed_tasks.embed_part`) on the
recipes' fan-out (:mod:`napari_talk.core.recipes.cluster`: a local cluster, or an existing one by
its address). Only this process writes: each part goes into the catalogue in its own transaction
as soon as it and every part before it are back, so entities get the ids, vectors and order the
single-process import gives them. What was written stays if this process ends half-way (killed,
interrupted): importing the same file again skips it, as the import skips whatever is stored
unchanged. Stop, or a part that cannot be embedded, takes back what the import wrote: an import
that answers is whole, and one undo takes it back.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

from ...core.basics.result import CommandError
from ...core.recipes import cluster
from .catalogue_store import CatalogueStore
from .embed_tasks import EmbedSpec, embed_part
from .embeddings import EmbeddingError
from .entities import Entity, ImportReport
from .limits import EMBED_BATCH

PART = 4 * EMBED_BATCH
"""Entities in one task: seconds of a sentence model's work, a few hundred KB each way."""
LOCAL_FROM = 20_000
"""On a local cluster the person asked for, an import with fewer entities to embed runs here
instead: a cluster's start and each worker's loading of the model cost more than they save below it."""
AHEAD_PER_WORKER = 3
"""Parts submitted and not yet back, per worker (the rest wait here, not in the scheduler)."""

Told = Callable[[int, int], None]
"""``told(done, total)``: entities embedded and written so far."""


def where(count: int, scheduler: str | None) -> str | None:
    """The scheduler an import of ``count`` entities to embed runs on, or None: here, in turn.
    An address always (the person set that cluster up); ``local`` from :data:`LOCAL_FROM`
    entities; none chosen, or ``in-process``, never: on one machine a process already runs the
    model on every core (``benchmarks/atlas_import_scale.py``: a local cluster did not beat it)."""
    if scheduler is None or scheduler == cluster.IN_PROCESS or count == 0:
        return None
    if cluster.is_address(scheduler):
        return scheduler
    return scheduler if count >= LOCAL_FROM else None


@dataclass
class Spread:
    """What an import on the cluster wrote."""

    report: ImportReport = field(default_factory=ImportReport)
    written: int = 0
    parts: int = 0


def import_on_cluster(
    catalogue: CatalogueStore,
    entities: Sequence[Entity],
    spec: EmbedSpec,
    *,
    scheduler: str,
    workers: int | None = None,
    told: Told | None = None,
    stop: Callable[[], bool] = lambda: False,
    keep_cluster: bool = False,
    part: int | None = None,
) -> Spread:
    """Embed ``entities`` on the cluster and write them, part by part, in order; raises
    CommandError (everything written taken back) when stopped or when a part cannot be embedded."""
    size = part or PART
    parts = [list(entities[start : start + size]) for start in range(0, len(entities), size)]
    spread = Spread(parts=len(parts))
    back: dict[int, np.ndarray] = {}
    failure: list[str] = []
    next_part = [0]

    def arrived(index: int, value: object) -> None:
        if isinstance(value, BaseException):
            failure.append(_why(value))
            return
        back[index] = np.asarray(value, np.float32)
        while next_part[0] in back:  # write every part whose predecessors are all written
            n = next_part[0]
            vectors = back.pop(n)
            if len(vectors) != len(parts[n]):
                failure.append(f"a worker gave {len(vectors)} vectors for {len(parts[n])} entities")
                return
            spread.report.extend(catalogue.add_many(parts[n], vectors, spec.model))
            spread.written += len(parts[n])
            next_part[0] += 1
            if told is not None:
                told(spread.written, len(entities))

    payloads = [(spec, [e.text() for e in chunk]) for chunk in parts]
    try:
        cluster.fan_out(
            embed_part, payloads, arrived, scheduler=scheduler, workers=workers,
            stop=lambda: stop() or bool(failure), keep_cluster=keep_cluster, name="atlas-import",
            ahead_per_worker=AHEAD_PER_WORKER,
        )  # fmt: skip
    except Exception as exc:  # the cluster could not be reached, or a write failed
        take_back(catalogue, spread)
        raise CommandError(
            f"the import on {scheduler} did not finish ({_why(exc)}); nothing of it is kept"
        ) from None
    if failure or stop():
        take_back(catalogue, spread)
        if failure:
            raise CommandError(f"a part of the import could not be embedded on {scheduler}: {failure[0]}")
        raise CommandError(
            f"stopped after {spread.written:,} of {len(entities):,} entities; nothing of it is kept"
        )
    return spread


def take_back(catalogue: CatalogueStore, spread: Spread) -> None:
    """Undo what the parts wrote: the replaced entities put back, the new ones taken out."""
    catalogue.restore(spread.report.replaced)
    catalogue.delete_ids(spread.report.added)


def _why(exc: BaseException) -> str:
    """One line: our own errors as they say it, others with their kind (``KilledWorker: …``)."""
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
    own = isinstance(exc, CommandError | EmbeddingError) and text
    return (text if own else f"{type(exc).__name__}: {text}".rstrip(": "))[:300]
