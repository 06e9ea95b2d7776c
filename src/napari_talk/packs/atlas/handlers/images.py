"""Pictures: analysing an image, adding an image layer to the catalogue, opening an entity's image."""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import replace

import numpy as np

from ....core.basics.jobs import Job, Progress
from ....core.basics.result import CommandError, Result
from ....core.chat.client import LLMError
from ....core.contract.pack import Context
from ....core.running.history import Changes
from ....core.viewer.layers import added
from .. import analysis, describe, fetch, layers, sources
from .. import commands as cmd
from ..catalogue import Entity, tidy
from ..store import Atlas
from .common import (
    HANDLERS,
    Prepared,
    atlas_of,
    catalogue_of,
    embedder_of,
    filled,
    job,
    prepare,
    reason,
    resolve_entity,
    store_prepared,
)

# -- analyze_image -------------------------------------------------------------------------------


@HANDLERS.on(cmd.AnalyzeImage)
def analyze_image(command: cmd.AnalyzeImage, ctx: Context[Atlas]) -> Job:
    load, label = sources.picture_source(ctx, command.image_url)
    return job(f"analysing {label}", lambda _: _analysis(ctx, load, label))


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
            unavailable = f"the model's interpretation failed ({reason(exc)})"
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


@HANDLERS.on(cmd.AddToCatalogue)
def add_to_catalogue(command: cmd.AddToCatalogue, ctx: Context[Atlas]) -> Job:
    layer = layers.image_layer(ctx, command.layer)
    pixels, display = layers.layer_pixels(ctx.viewer, layer)
    atlas, catalogue = atlas_of(ctx), catalogue_of(ctx)
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
        embedder = embedder_of(ctx, progress)
        return prepare(ctx, embedder, [tidy(entity)], [analysis.thumbnail_png(rgb)], progress)

    def finish(prepared: Prepared) -> Result:
        (entity,), vectors, thumbnails, model = prepared
        path = layers.save_pixels(atlas, entity.name, pixels)
        entity = replace(entity, image=path)
        _, changes = store_prepared(
            catalogue, ([entity], vectors, thumbnails, model), atlas.workspace, [path]
        )
        note = "" if command.entity_description else " (description composed from the image's measurements)"
        message = (
            f"added {entity.name} ({entity.domain}) from layer {layer.name}; image: {entity.image}{note}."
        )
        return Result.success(message, {"success": True, "entity": entity.record()}, undo=changes)

    return Job(f"adding {command.name} to the catalogue", work, finish)


@HANDLERS.on(cmd.OpenEntityImage)
def open_entity_image(command: cmd.OpenEntityImage, ctx: Context[Atlas]) -> Job:
    viewer = ctx.viewer
    if viewer is None:
        raise CommandError("no viewer is attached to this ctx")
    entity = resolve_entity(filled(ctx), command.name)
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
        changes = Changes()
        # undoing it removes the layer, and asks first once the person changed its data
        layer = added(viewer, viewer.add_image(pixels, name=entity.name, rgb=rgb, metadata=meta), changes)
        return Result.success(f"opened the image of {entity.name} as layer {layer.name}.", undo=changes)

    return Job(f"opening the image of {entity.name}", work, finish)


NOTHING_TO_OPEN = 'no search results to open yet: search first, e.g. "pictures that look like a spiral"'


@HANDLERS.on(cmd.OpenResult)
def open_result(command: cmd.OpenResult, ctx: Context[Atlas]) -> Job:
    """One of the last search's results, by its place in the list (the session remembers it)."""
    results = atlas_of(ctx).last_results
    if not results:
        raise CommandError(NOTHING_TO_OPEN)
    if command.rank > len(results):
        found = f"{len(results)} result" + ("s" if len(results) > 1 else "")
        raise CommandError(f"the last search found {found}: there is no number {command.rank}")
    return open_entity_image(cmd.OpenEntityImage.model_validate({"name": results[command.rank - 1]}), ctx)
