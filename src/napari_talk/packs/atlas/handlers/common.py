"""What every atlas handler shares: the session's atlas and catalogue, embedding, storing
prepared entities with their undo, and taking up the sample catalogue."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import numpy as np

from ....core.basics.jobs import Job, Progress
from ....core.basics.result import CommandError, Result
from ....core.contract.pack import Context, Handlers
from ....core.rules.names import describe_miss, resolve_name
from ....core.running.history import Changes
from ....core.sentences.minilm_files import Watch
from .. import layers, samples
from ..catalogue_store import CatalogueStore
from ..embeddings import Embedder, EmbeddingError, WeightsMissing
from ..entities import CatalogueError, Entity, ImportReport
from ..store import Atlas
from ..vectorize import embed
from ..warm_up import drawn_meanwhile

if TYPE_CHECKING:
    from ....core.safety.workspace import Workspace


HANDLERS = Handlers[Atlas]()


SAMPLE_IMAGES = "atlas/images/sample"
NAMES_FOR_PARSER = 500
"""Beyond this many entities the parser reads names as free words (the handlers still resolve them)."""
EMPTY = (
    'The catalogue is empty. Type "load the sample catalogue" (56 entities), add an image layer with '
    '"add GFP to the catalogue as <name> in <domain>", or "import <file>.jsonl".'
)


# -- the ctx's atlas -------------------------------------------------------------------------


def atlas_of(ctx: Context[Atlas]) -> Atlas:
    return ctx.state


def catalogue_of(ctx: Context[Atlas]) -> CatalogueStore:
    try:
        return atlas_of(ctx).catalogue
    except CatalogueError as exc:
        raise CommandError(str(exc)) from None


def filled(ctx: Context[Atlas]) -> CatalogueStore:
    """The catalogue, with entities: an empty one takes the sample if its layer is open."""
    if take_up(ctx):
        load_sample(ctx)
    return catalogue_of(ctx)


def take_up(ctx: Context[Atlas]) -> bool:
    """Whether the catalogue is empty and takes the sample, whose layer is open (seconds of work:
    its pictures made, its entities embedded; a job does it off the GUI thread)."""
    if not catalogue_of(ctx).empty():
        return False
    if layers.sample_layer_open(ctx):
        return True
    raise CommandError(EMPTY)


def embedder_of(ctx: Context[Atlas], progress: Progress | None = None) -> Embedder:
    """The catalogue's embedder (made once per session; a friendly error if it cannot be). In a
    job (``progress``) MiniLM's files are downloaded first when missing, the download reported; when
    they cannot be had the offline embedder stands in, and ``atlas.standing_in`` says why."""
    atlas = atlas_of(ctx)
    if progress is not None:  # slow work: the model and vectors a warm-up is making are waited for
        atlas.warmed()
    llm = ctx.llm.settings if ctx.llm is not None else None
    try:
        embedder = atlas.embedder(llm=llm, download=downloading(progress) if progress is not None else None)
    except WeightsMissing as exc:
        if progress is not None and progress.cancelled:
            raise CommandError(str(exc)) from None
        return atlas.words_instead(str(exc))
    except EmbeddingError as exc:
        raise CommandError(f'{exc} ("use the offline embedder" works without any server)') from None
    atlas.standing_in = None
    return embedder


def downloading(progress: Progress) -> Watch:
    """A download followed by a job: its bytes reported, stopped between chunks by Stop."""

    def report(done: int, total: int) -> None:
        progress.report(
            f"downloading the sentence model (all-MiniLM-L6-v2): {done / 1e6:.1f} of {total / 1e6:.1f} MB",
            done / total if total else None,
        )

    return Watch(report, lambda: progress.cancelled)


def batches(progress: Progress | None, what: str) -> Callable[[int, int], None] | None:
    """Called after each batch embedded: reports how far it is, and stops the work when the
    person pressed Stop (the batches already written by ``embed_missing`` stay: they are sound)."""
    if progress is None:
        return None
    count = progress.counting(what)

    def step(done: int, total: int) -> None:
        if progress.cancelled:
            raise CommandError(f"stopped after {done} of {total}")
        count(done, total)

    return step


def fill_vectors(ctx: Context[Atlas], embedder: Embedder, progress: Progress | None = None) -> int:
    """Give every entity a vector of ``embedder``'s model (reported to ``progress`` as it embeds)."""
    report = batches(progress, f"embedding with {embedder.name}")
    try:
        return atlas_of(ctx).catalogue.embed_missing(embedder, report)
    except EmbeddingError as exc:
        raise CommandError(str(exc)) from None


def job(label: str, compute: Callable[[Progress], Result]) -> Job:
    """Slow work that touches no layer: it runs off the GUI thread and its Result is the answer."""
    return Job(label, compute, lambda result: result)


def resolve_entity(catalogue: CatalogueStore, name: str) -> Entity:
    entity = catalogue.get(name)
    if entity is not None:
        return entity
    names = catalogue.names()
    match = resolve_name(name, names)
    if match.found is None:
        shown = names if len(names) <= 12 else [*names[:12], "…"]
        raise CommandError(describe_miss(match, "entity", shown))
    found = catalogue.get(match.found)
    if found is None:
        raise CommandError(f"{match.found} left the catalogue meanwhile")
    return found


def reason(exc: Exception) -> str:
    return str(exc).strip() or type(exc).__name__


Prepared = tuple[list[Entity], np.ndarray, list[bytes | None], str]
"""Entities ready to store: with their vectors, thumbnails, and the vectors' model."""


def prepare(
    ctx: Context[Atlas],
    embedder: Embedder,
    entities: list[Entity],
    thumbnails: list[bytes | None],
    progress: Progress | None = None,
) -> Prepared:
    """Embed entities to add (slow work), reporting to ``progress`` as it goes."""
    report = batches(progress, f"embedding {len(entities)} entities")
    try:
        return entities, embed(embedder, entities, report), thumbnails, embedder.name
    except EmbeddingError as exc:
        raise CommandError(str(exc)) from None


def store_prepared(
    catalogue: CatalogueStore,
    prepared: Prepared,
    workspace: Workspace | None = None,
    files: Sequence[str] = (),
) -> tuple[ImportReport, Changes]:
    """Write prepared entities in one transaction; and the changes that take them out again,
    with the image ``files`` napari-talk made for them (refused whole if one changed since)."""
    entities, vectors, thumbnails, model = prepared
    changes = Changes()  # undone newest first: the files are checked before anything changes
    if workspace is not None and files:
        made = [workspace.written(path) for path in files]
        changes.add(lambda: workspace.take_back_all(made))
    report = catalogue.add_many(entities, vectors, model, thumbnails=thumbnails)
    changes.add(lambda: catalogue.restore(report.replaced))
    changes.add(lambda: catalogue.delete_ids(report.added))
    if workspace is not None and files:
        changes.add(lambda: workspace.check_written(*made))
    return report, changes


def sample_prepared(
    ctx: Context[Atlas], embedder: Callable[[], Embedder], progress: Progress | None = None
) -> tuple[Prepared, Workspace, list[str]]:
    """The sample's pictures written to the workspace, its entities embedded; the new files.

    The pictures are drawn in a thread while ``embedder()`` gets the model (loading it, or
    waiting for whoever loads it) and the entities' texts are embedded: a first search on the
    sample no longer waits for one and then the other."""
    workspace = ctx.workspace
    with drawn_meanwhile():
        model = embedder()
        texts = [samples.entity(s) for s in samples.ENTITIES]  # the text does not hold the image
        _, vectors, _, name = prepare(ctx, model, texts, [None] * len(texts), progress)
    made = samples.materialize(workspace, SAMPLE_IMAGES)
    entities = [replace(e, image=path) for e, _, path, _ in made]
    thumbnails: list[bytes | None] = [thumb for _, thumb, _, _ in made]
    prepared = (entities, vectors, thumbnails, name)
    return prepared, workspace, [path for _, _, path, new in made if new]


def load_sample(ctx: Context[Atlas], progress: Progress | None = None) -> None:
    """The sample straight into an empty catalogue (when its napari layer is open)."""
    with atlas_of(ctx).warming:  # a background warm-up of the sample waits, then finds it taken up
        prepared, _, _ = sample_prepared(ctx, lambda: embedder_of(ctx, progress), progress)
        store_prepared(catalogue_of(ctx), prepared)


SAMPLE_FIRST = "taking up the sample catalogue"


def after_sample(ctx: Context[Atlas], progress: Progress, read: Callable[[], Any]) -> Result:
    """A job's work: the sample into the empty catalogue, then the read that waited for it."""
    load_sample(ctx, progress)
    result = read()
    assert isinstance(result, Result)
    return result
