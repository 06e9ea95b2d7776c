"""The in-memory matrix after writes: updated in place, equal to what a fresh reload reads."""

from __future__ import annotations

import numpy as np
import pytest

from napari_talk.packs.atlas.catalogue import Catalogue, Entity
from napari_talk.packs.atlas.matrix import COMPACT_OVER, SHORTLIST_OVER, VectorMatrix, sign_bits

DIM = 16


class Random:
    name = "random"

    def __init__(self) -> None:
        self.rng = np.random.default_rng(7)

    def embed(self, texts):
        vectors = self.rng.normal(size=(len(texts), DIM)).astype(np.float32)
        return vectors / np.linalg.norm(vectors, axis=1, keepdims=True)


def by_id(ids: np.ndarray, vectors: np.ndarray) -> dict[int, bytes]:
    return {int(i): v.tobytes() for i, v in zip(ids, vectors, strict=True)}


def assert_like_a_reload(catalogue: Catalogue, path, queries: np.ndarray) -> None:
    fresh = Catalogue(path)
    try:
        ours, theirs = catalogue.matrix("random", DIM), fresh.matrix("random", DIM)
        assert len(ours[0]) == len(theirs[0]) and by_id(*ours) == by_id(*theirs)  # no row twice
        assert catalogue.names() == fresh.names()
        for query in queries:
            ours = [(e.name, round(s, 5)) for e, s in catalogue.search(query, "random", 10)]
            theirs = [(e.name, round(s, 5)) for e, s in fresh.search(query, "random", 10)]
            assert ours == theirs
    finally:
        fresh.close()


@pytest.fixture
def filled(tmp_path):
    embedder = Random()
    path = tmp_path / "c.sqlite"
    catalogue = Catalogue(path)
    entities = [Entity(f"entity {i:04d}", domain=f"d{i % 3}") for i in range(3000)]
    catalogue.add_many(entities, embedder.embed([""] * len(entities)), "random")
    catalogue.names(), catalogue.matrix("random", DIM)  # loaded, as after a first search
    yield catalogue, embedder, path
    catalogue.close()


def test_every_kind_of_write_updates_the_matrix_in_place(filled):
    catalogue, embedder, path = filled
    queries = embedder.embed(["q"] * 5)
    loaded = catalogue._matrices[("random", DIM)]

    catalogue.add_many([Entity("a newcomer")], embedder.embed(["x"]), "random")
    assert_like_a_reload(catalogue, path, queries)
    snapshot = catalogue.remove("entity 0007")
    assert_like_a_reload(catalogue, path, queries)
    catalogue.restore([snapshot])
    assert_like_a_reload(catalogue, path, queries)
    report = catalogue.add_many(  # replaces two by name, adds one
        [Entity("Entity 0010", domain="new"), Entity("entity 0020"), Entity("another")],
        embedder.embed(["x"] * 3),
        "random",
    )
    assert len(report.replaced) == 2
    assert_like_a_reload(catalogue, path, queries)
    catalogue.restore(report.replaced)
    catalogue.delete_ids(report.added)
    assert_like_a_reload(catalogue, path, queries)
    catalogue.add_many(  # one name twice in one write: the second wins
        [Entity("twice", domain="first"), Entity("Twice", domain="second")],
        embedder.embed(["x"] * 2),
        "random",
    )
    assert catalogue.get("twice").domain == "second"
    assert_like_a_reload(catalogue, path, queries)
    catalogue.delete_ids(range(1, 1 + COMPACT_OVER + 500))  # many at once: the block is rebuilt
    assert_like_a_reload(catalogue, path, queries)
    assert catalogue._matrices[("random", DIM)] is loaded  # never read back from SQLite


def test_a_new_entity_without_a_vector_is_embedded_before_the_next_search(filled):
    catalogue, embedder, path = filled
    assert catalogue.embed_missing(embedder) == 0  # complete
    catalogue.add_many([Entity("other model only")], np.ones((1, 4), np.float32) / 2, "other")
    assert catalogue.embed_missing(embedder) == 1
    assert catalogue.embed_missing(embedder) == 0
    assert_like_a_reload(catalogue, path, embedder.embed(["q"] * 3))


def test_a_write_through_another_connection_makes_it_reload(filled):
    catalogue, embedder, path = filled
    other = Catalogue(path)
    other.add_many([Entity("from elsewhere")], embedder.embed(["x"]), "random")
    other.remove("entity 0003")
    other.close()
    ids, _ = catalogue.matrix("random", DIM)
    names = catalogue.by_ids([int(i) for i in ids])
    assert "from elsewhere" in {e.name for e in names.values()}
    assert "entity 0003" not in catalogue.names()
    assert_like_a_reload(catalogue, path, embedder.embed(["q"] * 3))


def test_rows_move_but_stay_paired_with_their_ids():
    rng = np.random.default_rng(1)
    ids = np.arange(10, dtype=np.int64)
    vectors = rng.normal(size=(10, 3)).astype(np.float32)
    matrix = VectorMatrix(ids, vectors, (0, 0))
    matrix.remove({0, 9, 4, 42})
    matrix.append(np.array([100, 101]), vectors[:2] * 2)
    expected = {int(i): vectors[i].tobytes() for i in (1, 2, 3, 5, 6, 7, 8)}
    expected |= {100: (vectors[0] * 2).tobytes(), 101: (vectors[1] * 2).tobytes()}
    assert by_id(matrix.ids, matrix.vectors) == expected
    matrix.append(np.arange(200, 400), rng.normal(size=(200, 3)).astype(np.float32))  # grows
    assert matrix.count == 209 and len(set(matrix.ids.tolist())) == 209


def test_signs_follow_their_rows_through_every_write():
    rng = np.random.default_rng(2)
    vectors = rng.normal(size=(3000, 70)).astype(np.float32)  # 70: the last word of signs is padded
    matrix = VectorMatrix(np.arange(3000, dtype=np.int64), vectors, (0, 0))
    matrix.remove({5, 17, 2999})
    matrix.remove(set(range(100, 100 + COMPACT_OVER + 10)))  # rebuilt as one block
    matrix.append(np.arange(5000, 9000), rng.normal(size=(4000, 70)).astype(np.float32))  # grows
    assert matrix.signs.shape == (matrix.count, 2)
    assert np.array_equal(matrix.signs, sign_bits(matrix.vectors))


def test_a_large_catalogue_finds_what_scoring_every_vector_finds(tmp_path):
    """Past SHORTLIST_OVER the signs pick the rows scored; on vectors that gather in themes (as
    text embeddings do) the top 10 are those of scoring every vector."""
    rng = np.random.default_rng(3)
    themes = rng.normal(size=(300, DIM * 4)).astype(np.float32)
    count = SHORTLIST_OVER + 1000
    vectors = themes[rng.integers(0, 300, count)] + 0.6 * rng.normal(size=(count, DIM * 4)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    catalogue = Catalogue(tmp_path / "large.sqlite")
    catalogue.add_many([Entity(f"e{i}") for i in range(count)], vectors, "themes")
    queries = themes[:20] + 0.6 * rng.normal(size=(20, DIM * 4)).astype(np.float32)
    queries /= np.linalg.norm(queries, axis=1, keepdims=True)
    overlap = []
    for query in queries:
        fast = [e.name for e, _ in catalogue.search(query, "themes", 10)]
        exact = [e.name for e, _ in catalogue.search(query, "themes", 10, exact=True)]
        assert fast[0] == exact[0]
        overlap.append(len(set(fast) & set(exact)) / 10)
        without = [e.name for e, _ in catalogue.search(query, "themes", 10, [catalogue.get(exact[0]).key])]
        assert exact[0] not in without and without[0] == exact[1]
    assert np.mean(overlap) >= 0.97
    assert catalogue._matrices[("themes", DIM * 4)].shortlist(queries[0], 10) is not None  # was used
    catalogue.close()
