"""How well the atlas finds pictures by how they look: precision@5 on attribute queries.

    python benchmarks/atlas_attributes.py

``data/atlas_attributes.jsonl`` holds 40 queries about colours, shapes, patterns and moods, each
with every sample entity that truly matches (see data/README.md). The sample catalogue's entities
are embedded as "load the sample catalogue" stores them (``Entity.text()``, prompt included), and
each query ranks them as ``find_similar`` does. Precision@5: the relevant entities among the top 5,
divided by 5 (or by the number of relevant entities when fewer). Beside it, recall@1/@3 on the
four paraphrase sets of ``atlas_retrieval.py`` (one target entity per query), so that a change
that helps attributes and hurts naming shows at once.
"""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path

import numpy as np
from atlas_retrieval import BLIND, DEV, DEV_BLIND, EVAL

ATTRIBUTES = Path(__file__).resolve().parent / "data" / "atlas_attributes.jsonl"


def sample_entities() -> list:
    """The sample's entities as the catalogue holds them (their prompt with its visual notes)."""
    from napari_talk.packs.atlas.catalogue import Entity
    from napari_talk.packs.atlas.samples import ENTITIES

    return [
        Entity(e.name, e.type, e.domain, e.class_name, e.description, sref=e.sref, prompt=e.prompt)
        for e in ENTITIES
    ]


def scores(embedder, entities: list, queries: list[str]) -> np.ndarray:
    """Queries × entities, ranked as the catalogue's search ranks them."""
    from napari_talk.packs.atlas import calibration
    from napari_talk.packs.atlas.ranking import rank_scores

    vectors = np.asarray(embedder.embed([e.text() for e in entities]), np.float32)
    asked = np.asarray(embedder.embed(queries), np.float32)
    probes = np.asarray(embedder.embed(list(calibration.PROBES)), np.float32)
    scale = calibration.measure(vectors, probes, "catalogue").queries  # as the catalogue measures it
    return np.stack(
        [rank_scores(q, v, entities, vectors, scale) for q, v in zip(queries, asked, strict=True)]
    )


def precision_at_5(score: np.ndarray, relevant: list[set[int]]) -> list[float]:
    top = np.argsort(-score, axis=1, kind="stable")[:, :5]
    return [len(set(row.tolist()) & rel) / min(5, len(rel)) for row, rel in zip(top, relevant, strict=True)]


def recall(score: np.ndarray, targets: list[int]) -> tuple[float, float]:
    ranks = [int((score[i] >= score[i, t]).sum()) for i, t in enumerate(targets)]
    return sum(r <= 1 for r in ranks) / len(ranks), sum(r <= 3 for r in ranks) / len(ranks)


def main() -> None:
    from napari_talk.core.sentences import onnx_minilm
    from napari_talk.packs.atlas.embeddings import HashedEmbedder, QuantizedMiniLMEmbedder

    entities = sample_entities()
    names = [e.name for e in entities]
    cases = [json.loads(line) for line in ATTRIBUTES.read_text().splitlines() if line.strip()]
    relevant = [{names.index(n) for n in c["relevant"]} for c in cases]
    embedders = [HashedEmbedder()]
    if onnx_minilm.available():
        embedders.append(QuantizedMiniLMEmbedder())
    for embedder in embedders:
        found = precision_at_5(scores(embedder, entities, [c["query"] for c in cases]), relevant)
        by_kind: dict[str, list[float]] = defaultdict(list)
        for case, p in zip(cases, found, strict=True):
            by_kind[case["kind"]].append(p)
        kinds = ", ".join(f"{k} {np.mean(v):.2f}" for k, v in by_kind.items())
        print(f"{embedder.name}: attributes precision@5 {np.mean(found):.2f} (n={len(cases)}; {kinds})")
        for path in (DEV, DEV_BLIND, EVAL, BLIND):
            rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
            score = scores(embedder, entities, [r["query"] for r in rows])
            r1, r3 = recall(score, [names.index(r["target"]) for r in rows])
            print(f"  {path.name}: recall@1 {r1:.2f}  @3 {r3:.2f}  (n={len(rows)})")
        worst = sorted(zip(found, cases, strict=True), key=lambda x: x[0])[:8]
        print("  weakest: " + "; ".join(f"{c['query']!r} {p:.1f}" for p, c in worst))


if __name__ == "__main__":
    main()
