"""Similarity bands per model: measured on the catalogue's own random pairs, so "> 0.8 very
similar, 0.6–0.8 related, < 0.6 distant" reads the same whatever a model's raw cosines are."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from support.atlas_fixtures import *  # noqa: F403  (the atlas fixtures)

from napari_talk.packs.atlas import calibration
from napari_talk.packs.atlas.catalogue import Catalogue, Entity
from napari_talk.packs.atlas.embeddings import HashedEmbedder, minilm_available
from napari_talk.packs.atlas.tables import band

RETRIEVAL = Path(__file__).resolve().parents[2] / "benchmarks" / "data" / "atlas_retrieval.jsonl"
CASES = [json.loads(line) for line in RETRIEVAL.read_text().splitlines() if line.strip()]


def shares(similarities: np.ndarray) -> dict[str, float]:
    readings = [band(float(s)) for s in similarities]
    return {b: readings.count(b) / len(readings) for b in ("very similar", "related", "distant")}


def readings(catalogue: Catalogue, embedder) -> tuple[dict, dict, dict, calibration.Calibration]:
    """Band shares of the retrieval set's queries with their targets, with the other entities,
    and of random pairs of entities."""
    queries = embedder.embed([c["query"] for c in CASES])
    ids, vectors = catalogue.matrix(embedder.name, queries.shape[1])
    by_id = catalogue.by_ids([int(i) for i in ids])
    row = {by_id[int(i)].name: n for n, i in enumerate(ids)}
    targets = np.array([row[c["target"]] for c in CASES])
    cosines = queries @ vectors.T
    hit = np.zeros_like(cosines, bool)
    hit[np.arange(len(CASES)), targets] = True
    scales = catalogue.calibration(embedder.name, vectors.shape[1], embedder.embed, [])
    pairs = scales.entities.similarity(calibration.pair_cosines(vectors))
    found = scales.queries.similarity(cosines)
    return shares(found[hit]), shares(found[~hit]), shares(pairs), scales


def test_offline_targets_read_related_and_random_pairs_distant(atlas_session):
    catalogue = atlas_session.state("atlas").catalogue
    targets, others, pairs, scales = readings(catalogue, HashedEmbedder())
    assert scales.source == "catalogue" and scales.count == 56
    # before: fixed anchors (0.25, 0.5) read 60 % of the targets distant
    assert targets["distant"] <= 0.3, targets
    assert others["distant"] >= 0.85, others
    assert pairs["distant"] >= 0.85 and pairs["very similar"] <= 0.01, pairs


@pytest.mark.skipif(not minilm_available(), reason="MiniLM is not installed")
def test_minilm_targets_read_related_and_random_pairs_distant(atlas_session):
    from napari_talk.packs.atlas.embeddings import MiniLMEmbedder

    assert atlas_session.execute({"action": "set_embedding_model", "model": "minilm"}).ok
    targets, others, pairs, _ = readings(atlas_session.state("atlas").catalogue, MiniLMEmbedder())
    # before: MiniLM's raw cosines, read as they were, put 92.5 % of the targets in distant
    assert targets["distant"] <= 0.1, targets
    assert others["distant"] >= 0.8, others
    assert pairs["distant"] >= 0.85, pairs


def test_a_model_with_squeezed_cosines_still_gets_sensible_bands(atlas_session, monkeypatch):
    """Every cosine of this server falls in 0.8–0.9: fixed anchors read everything as very similar."""
    from support.atlas_servers import EmbeddingServer

    with EmbeddingServer(dim=384, squeeze=0.85) as server:
        result = atlas_session.execute(
            {"action": "set_embedding_model", "model": "squeezed", "base_url": server.url}
        )
        assert result.ok, result.message
        atlas = atlas_session.state("atlas")
        embedder = atlas.embedder()
        targets, others, pairs, scales = readings(atlas.catalogue, embedder)
        raw = calibration.pair_cosines(atlas.catalogue.matrix("squeezed", 385)[1])
        assert np.percentile(raw, 5) > 0.8 and np.median(raw) < 0.9  # squeezed indeed
        assert targets["distant"] <= 0.3, targets
        assert others["distant"] >= 0.85, others
        assert pairs["distant"] >= 0.85, pairs
        found = atlas_session.execute({"action": "find_similar", "query": "huge snake swimming in lava"})
        scores = [e["similarity"] for e in found.data["entities"]]
        assert found.data["entities"][0]["name"] == "The Magma Leviathan"
        assert band(scores[0]) != "distant" and band(scores[-1]) != "very similar", scores
        off_topic = atlas_session.execute({"action": "find_similar", "query": "a tax form and a password"})
        assert all(band(e["similarity"]) == "distant" for e in off_topic.data["entities"]), off_topic.message
    assert scales.queries.related > 0.85  # the server's own scale, not a fixed one


def test_the_scale_passes_through_the_measured_percentiles():
    rng = np.random.default_rng(3)
    vectors = rng.normal(size=(200, 16)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    pairs = [float(vectors[i] @ vectors[j]) for i in range(200) for j in range(i + 1, 200)]  # by hand
    assert sorted(calibration.pair_cosines(vectors).tolist()) == pytest.approx(sorted(pairs), abs=1e-6)
    probes = vectors[:10] * 0.5 + vectors[10:20] * 0.5
    probes /= np.linalg.norm(probes, axis=1, keepdims=True)
    scales = calibration.measure(vectors, probes, "catalogue")
    for scale, unrelated in ((scales.entities, pairs), (scales.queries, (probes @ vectors.T).ravel())):
        typical, related, very = np.percentile(unrelated, [50, 90, 99.9])
        knots = scale.similarity(np.array([typical, related, very, 1.0]))
        assert knots == pytest.approx([0.3, 0.6, 0.8, 1.0], abs=1e-5)
        assert np.mean(scale.similarity(np.asarray(unrelated)) >= 0.6) == pytest.approx(0.1, abs=0.003)
        assert np.all(np.diff(scale.similarity(np.linspace(-1, 1, 81))) > 0)  # the order never changes


def test_sampled_pairs_are_pairs_of_distinct_rows():
    vectors = np.eye(400, dtype=np.float32)  # distinct rows are orthogonal: any self-pair shows as 1
    cosines = calibration.pair_cosines(vectors, pairs=5_000)
    assert cosines.shape == (5_000,) and np.all(cosines == 0)


def test_a_small_catalogue_uses_the_reference_set_and_the_scale_is_kept_until_it_grows(tmp_path):
    embedder = HashedEmbedder()
    catalogue = Catalogue(tmp_path / "c.sqlite")
    embedded: list[int] = []

    def embed(texts):
        embedded.append(len(texts))
        return embedder.embed(texts)

    def add(start: int, count: int) -> None:
        more = [
            Entity(f"Entity {i}", description=f"a {i} thing of kind {i % 5}")
            for i in range(start, start + count)
        ]
        catalogue.add_many(more, embedder.embed([e.text() for e in more]), embedder.name)

    reference = [f"text number {i} about {w}" for i, w in enumerate("abcdefghijklmnopqrst" * 3)]
    add(0, 5)
    small = catalogue.calibration(embedder.name, 384, embed, reference)
    assert small.source == "reference" and small.count == 60
    assert embedded == [len(calibration.PROBES), 60]
    assert catalogue.calibration(embedder.name, 384, embed, reference) == small  # stored
    add(5, 40)
    grown = catalogue.calibration(embedder.name, 384, embed, reference)
    assert grown.source == "catalogue" and grown.count == 45
    add(45, 3)  # 48 vectors: within a tenth of 45, the scale holds
    assert catalogue.calibration(embedder.name, 384, embed, reference) == grown
    add(48, 10)
    assert catalogue.calibration(embedder.name, 384, embed, reference).count == 58
    calls = len(embedded)
    reopened = Catalogue(tmp_path / "c.sqlite")  # stored in the file
    assert reopened.calibration(embedder.name, 384, embed, reference).count == 58
    assert len(embedded) == calls
