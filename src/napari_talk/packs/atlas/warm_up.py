"""The atlas made ready in the background (the pack's ``prepare``), so the first search answers
at once: the catalogue's sentence model loaded and, when the Atlas sample's layer is open on an
empty catalogue, the sample's pictures drawn and measured (:mod:`.facets`) and its entities and
their descriptions embedded in memory (the pictures' looks measured after, unlocked); on a
catalogue with entities, its vectors read into memory.
Nothing is written: the first command still takes the sample up (its files, its rows), from what
is ready.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator

from ...core.contract.pack import Context
from ...core.sentences.minilm_files import Watch
from . import calibration, facets, layers, samples, store
from .embeddings import LOCAL_MODELS, MINILM, MINILM_INT8, needs_download
from .store import Atlas


def warm_up(ctx: Context[Atlas]) -> None:
    """Blocking (seconds): run it off the GUI thread. A job that needs the model meanwhile waits
    for the loading and embedding (``Atlas.warmed``) instead of doing the same work beside it; a
    download of the model's files comes first, unlocked, so such a job shows its progress."""
    atlas = ctx.state
    sample = layers.sample_layer_open(ctx)
    model = _model(atlas, sample)
    if model is None:
        return
    if needs_download(model):
        atlas.download_sentence_model(Watch())
    with atlas.warming:
        taking_up = sample and (not atlas.exists() or atlas.catalogue.empty())
        with drawn_meanwhile() if taking_up else contextlib.nullcontext():
            embedder = atlas.embedder(model)
            probes = embedder.embed(list(calibration.PROBES))  # remembered: a search's calibration
            if taking_up:
                embedder.embed([samples.entity(s).text() for s in samples.ENTITIES])  # remembered
                embedder.embed([s.description for s in samples.ENTITIES])  # compared alone: ranking.DESCRIBED
            elif atlas.exists():
                atlas.catalogue.matrix(embedder.name, probes.shape[1])  # its vectors, read once
    if taking_up:
        _measure()


@contextlib.contextmanager
def drawn_meanwhile() -> Iterator[None]:
    """The sample's pictures drawn in a thread while the block runs (it waits for the model, or
    embeds: native code that leaves the interpreter to the drawing); drawn when it ends."""
    drawing = threading.Thread(target=_draw, name="atlas sample pictures", daemon=True)
    drawing.start()
    try:
        yield
    finally:
        drawing.join()


def _draw() -> None:
    with contextlib.suppress(Exception):  # whoever writes the pictures draws them again, and says why
        samples.pictures()


def _measure() -> None:
    """What a search for a look reads of each picture, measured once: after the sample is ready
    (a first search for words waits for the pictures, not for this)."""
    with contextlib.suppress(Exception):  # a search for a look measures them itself, and says why
        for _, thumbnail in samples.pictures():
            facets.of_thumbnail(thumbnail)


def _model(atlas: Atlas, sample: bool) -> str | None:
    """The model to load: the catalogue's MiniLM (any local model when the sample is open on it);
    the one a new catalogue starts with when there is none yet and the sample is open."""
    if atlas.exists():
        model = atlas.model()[0]
        return model if model in (MINILM, MINILM_INT8) or (sample and model in LOCAL_MODELS) else None
    return store.default_model() if sample else None
