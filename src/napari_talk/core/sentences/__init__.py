"""The sentence model napari-talk shares: all-MiniLM-L6-v2 on ONNX Runtime.

The atlas searches its catalogue with it, and the parser's canonical stage
(:mod:`napari_talk.core.grammar.rephrase`) reads free lines with it. It is loaded once per
process, whoever asks first; :mod:`.onnx_minilm` builds and runs it, :mod:`.minilm_files` fetches
its files once into the user's cache when no installed package carries them.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator

from ..basics.native_work import native_work
from . import onnx_minilm

_BUSY = threading.RLock()
_LOADING = threading.Lock()
"""Held while a model loads: one load at a time, and a thread that asks meanwhile waits for that
load only (not for embedding that holds :func:`in_use`), then shares its model."""


@contextlib.contextmanager
def in_use() -> Iterator[None]:
    """Hold while the model loads or embeds in a background thread: ONNX Runtime's threads must not
    be running native code as the interpreter shuts down ("terminate called without an active
    exception", the process aborted), so this is native work a process that ends waits for."""
    with _BUSY, native_work():
        yield


class _Loaded:
    """The model of each kind, loaded once per process (a second, and ~90 MB, each time
    otherwise), whoever asks first. A thread that asks while another loads it waits for that load
    and shares its model (an ``lru_cache`` let it load a copy of its own meanwhile: the atlas's
    first search waited seconds for a second load of what the canonical stage had just loaded,
    after waiting for that stage's whole set-up, which holds :func:`in_use`)."""

    def __init__(self) -> None:
        self._models: dict[bool, onnx_minilm.OnnxMiniLM] = {}

    def __call__(self, quantized: bool = True) -> onnx_minilm.OnnxMiniLM:
        """Raises when the model's runtime or files are missing (:func:`ready` says so without
        loading anything)."""
        model = self._models.get(quantized)
        if model is not None:
            return model
        with _LOADING, native_work():  # whoever waited here finds the model made
            model = self._models.get(quantized)
            if model is None:
                model = self._models[quantized] = onnx_minilm.OnnxMiniLM(quantized=quantized)
            return model

    def cache_clear(self) -> None:
        """Forget the models loaded (the next call loads again, from the files as they are then)."""
        with _LOADING:
            self._models.clear()


minilm = _Loaded()


def ready() -> bool:
    """The runtime and the model's files are here (nothing is downloaded or loaded)."""
    return onnx_minilm.runtime_available() and onnx_minilm.weights_ready()
