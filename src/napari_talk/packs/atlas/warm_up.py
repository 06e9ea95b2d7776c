"""The atlas made ready in the background (the pack's ``prepare``), so the first search answers
at once: the catalogue's sentence model loaded and, when the Atlas sample's layer is open on an
empty catalogue, the sample's pictures drawn and its entities embedded in memory. Nothing is
written: the first command still takes the sample up (its files, its rows), from what is ready.
"""

from __future__ import annotations

from ...core.contract.pack import Context
from ...core.sentences.minilm_files import Watch
from . import calibration, layers, samples, store
from .embeddings import LOCAL_MODELS, MINILM, MINILM_INT8
from .store import Atlas


def warm_up(ctx: Context[Atlas]) -> None:
    """Blocking (seconds): run it off the GUI thread."""
    atlas = ctx.state
    sample = layers.sample_layer_open(ctx)
    if atlas.exists():
        model = atlas.model()[0]
        if model not in (MINILM, MINILM_INT8) and not (sample and model in LOCAL_MODELS):
            return
        embedder = atlas.embedder(model, download=Watch())
        if not (sample and atlas.catalogue.empty()):
            return
    elif sample:  # the catalogue is made by the first command, with this model
        model = store.default_model()
        embedder = atlas.embedder(model, download=Watch())
    else:
        return
    samples.pictures()
    embedder.embed([samples.entity(s).text() for s in samples.ENTITIES])  # remembered by the embedder
    embedder.embed(list(calibration.PROBES))
