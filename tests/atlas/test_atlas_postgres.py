"""The catalogue on a real PostgreSQL server with pgvector (started by pgserver for the run): the
same commands as on SQLite, a catalogue shared between sessions, the HNSW index, and a URL whose
password is never shown."""

from __future__ import annotations

import json
import socket
from urllib.parse import urlsplit

import numpy as np
import pytest
from support.atlas_fixtures import *  # noqa: F403  (the atlas fixtures)

from napari_talk.core.running.session import Session
from napari_talk.packs.atlas.catalogue import CatalogueError, Entity
from napari_talk.packs.atlas.postgres import PostgresCatalogue
from napari_talk.packs.atlas.settings import DATABASE_ENV, AtlasSettings
from napari_talk.packs.atlas.store import CATALOGUE_FILE


def run(session: Session, text: str):
    turn = session.run(text)
    assert turn.road == "parser", text
    return turn.results[-1]


def _unit_vectors(count: int, dim: int, seed: int) -> np.ndarray:
    vectors = np.random.default_rng(seed).normal(size=(count, dim)).astype(np.float32)
    return vectors / np.linalg.norm(vectors, axis=1, keepdims=True)


@pytest.fixture
def shared(postgres_url, monkeypatch):
    """Sessions whose catalogue is the database at ``postgres_url`` (the setting, from its variable)."""
    monkeypatch.setenv(DATABASE_ENV, postgres_url)
    return postgres_url


def test_the_same_commands_work_on_a_catalogue_in_postgresql(shared, workspace, postgres_server):
    session = Session(None, workspace=workspace)
    assert run(session, "use the offline embedder").ok
    loaded = run(session, "load the sample catalogue")
    assert loaded.ok and loaded.data["total"] == 56, loaded.message
    found = run(session, "find similar to void walker")
    assert found.data["entities"][0]["name"] == "The Nullbringer", found.message
    assert "Parity" in {e["name"] for e in run(session, "sref 7777").data["entities"]}
    assert run(session, "list entities").data["count"] == 56
    assert run(session, "remove Parity from the catalogue").ok
    assert run(session, "list entities").data["count"] == 55
    assert run(session, "undo").ok
    assert "Parity" in {e["name"] for e in run(session, "sref 7777").data["entities"]}
    (workspace / "more.jsonl").write_text(
        json.dumps({"name": "Glass Heron", "domain": "Verdant Hollow", "description": "a heron of glass"})
        + "\n"
    )
    assert run(session, "import more.jsonl").data["added"] == 1
    assert run(session, "find similar to a heron made of glass").data["entities"][0]["name"] == "Glass Heron"
    assert not (workspace / CATALOGUE_FILE).exists()  # nothing went to the SQLite file
    database = urlsplit(shared).path.strip("/")
    tables = postgres_server.psql(
        f"\\c {database}\nSELECT tablename FROM pg_tables WHERE schemaname = 'atlas';"
        "SELECT indexdef FROM pg_indexes WHERE schemaname = 'atlas' AND indexdef LIKE '%hnsw%';"
    )
    assert all(t in tables for t in ("entities", "vectors", "sref_codes", "settings")), tables
    assert "USING hnsw" in tables and "vector_cosine_ops" in tables, tables


def test_two_sessions_share_one_catalogue(shared, workspace, tmp_path):
    first = Session(None, workspace=workspace)
    assert run(first, "use the offline embedder").ok
    assert run(first, "load the sample catalogue").ok
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    second = Session(None, workspace=elsewhere)
    assert run(second, "list entities").data["count"] == 56
    assert run(second, "remove Eigensage from the catalogue").ok
    assert run(first, "list entities").data["count"] == 55  # the first sees the second's write
    hits = run(first, "find similar to a sage of eigenvalues").data["entities"]
    assert "Eigensage" not in {e["name"] for e in hits}


def test_the_hnsw_index_finds_what_exact_search_finds(postgres_url):
    catalogue = PostgresCatalogue(postgres_url)
    rng = np.random.default_rng(5)
    vectors = rng.normal(size=(3000, 64)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    catalogue.add_many([Entity(f"entity {i}") for i in range(3000)], vectors, "random-64")
    hits = 0
    for q in range(30):
        query = vectors[q] + 0.5 * rng.normal(size=64).astype(np.float32)
        query /= np.linalg.norm(query)
        fast = [e.name for e, _ in catalogue.search(query, "random-64", 10)]
        exact = catalogue.search(query, "random-64", 10, exact=True)
        expected = np.sort(vectors @ query)[::-1][:10]
        assert np.allclose([score for _, score in exact], expected, atol=1e-5)  # the true ten, in order
        exact = [e.name for e, _ in exact]
        hits += len(set(fast) & set(exact))
    assert hits / 300 >= 0.95
    catalogue.close()


SECRET = "pa55-w0rd-7f3a9c"
URLS = {  # how a password may be written into the URL, and how the URL is shown then
    "user part": (f"postgresql://lab:{SECRET}@127.0.0.1:{{port}}/atlas", "lab:***@127.0.0.1"),
    "query": (f"postgresql://lab@127.0.0.1:{{port}}/atlas?sslmode=disable&password={SECRET}", "password=***"),
    "ssl key's": (f"postgresql://lab@127.0.0.1:{{port}}/atlas?sslpassword={SECRET}", "sslpassword=***"),
}


@pytest.mark.parametrize("form", sorted(URLS))
def test_the_password_in_a_database_url_is_never_shown(monkeypatch, workspace, tmp_path, caplog, form):
    """Not in the reply, the lines a model is sent, an exception, the log, nor the settings file."""
    import logging

    from napari_talk.core.running.settings import FileStore, Settings

    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    url, masked = (text.format(port=port) for text in URLS[form])
    caplog.set_level(logging.DEBUG)
    monkeypatch.setenv(DATABASE_ENV, url)
    session = Session(None, workspace=workspace)
    result = run(session, "list entities")
    assert not result.ok and "cannot open the catalogue database" in result.message
    assert SECRET not in result.message and masked in result.message, result.message
    lines = session.context_lines(["atlas"])
    assert all(SECRET not in line for line in lines)
    with pytest.raises(CatalogueError) as caught:
        PostgresCatalogue(url)
    assert SECRET not in str(caught.value) and masked in str(caught.value)
    store = FileStore(tmp_path / "settings.json")
    store.save(Settings(atlas=AtlasSettings(database=url)))
    saved = (tmp_path / "settings.json").read_text()
    assert SECRET not in saved and "127.0.0.1" in saved and "password" not in saved
    assert SECRET not in caplog.text
    settings = Settings(atlas=AtlasSettings(database=url))
    assert SECRET not in repr(settings) + str(settings) and masked in repr(settings)


def test_the_setting_takes_only_a_postgresql_url():
    assert AtlasSettings(database=" postgresql://lab@db.example/atlas ").database.startswith("postgresql://")
    assert AtlasSettings(database="").database == ""
    with pytest.raises(ValueError, match="postgresql://"):
        AtlasSettings(database="mysql://lab@db.example/atlas")


def test_a_large_catalogue_builds_its_index_in_the_background_and_searches_exactly_meanwhile(
    postgres_url, monkeypatch
):
    from napari_talk.packs.atlas import postgres

    monkeypatch.setattr(postgres, "INDEX_AT_ONCE", 100)
    catalogue = PostgresCatalogue(postgres_url)
    vectors = _unit_vectors(600, 32, seed=9)
    catalogue.add_many([Entity(f"entity {i}") for i in range(600)], vectors, "random-32")
    hits = catalogue.search(vectors[3], "random-32", 5)
    assert [e.name for e, _ in hits] == [f"entity {i}" for i in np.argsort(-(vectors @ vectors[3]))[:5]]
    building = catalogue._building[("random-32", 32)]
    building.join(timeout=120)
    assert not building.is_alive() and ("random-32", 32) in catalogue._indexed
    assert catalogue.search(vectors[3], "random-32", 1)[0][0].name == "entity 3"
    catalogue.close()


def test_a_client_finding_the_index_built_searches_it_at_once_and_counts_follow_writes(
    postgres_url, monkeypatch
):
    from napari_talk.packs.atlas import postgres

    monkeypatch.setattr(postgres, "INDEX_AT_ONCE", 100)
    first = PostgresCatalogue(postgres_url)
    vectors = _unit_vectors(600, 16, seed=11)
    first.add_many([Entity(f"entity {i}") for i in range(600)], vectors, "random-16")
    first.ensure_index("random-16", 16)
    second = PostgresCatalogue(postgres_url)
    assert second.search(vectors[3], "random-16", 1)[0][0].name == "entity 3"
    assert ("random-16", 16) in second._indexed and not second._building  # no build, no exact pass
    assert second.vector_count("random-16", 16) == 600
    first.add_many([Entity("one more")], vectors[:1], "random-16")  # another client's write
    assert second.vector_count("random-16", 16) == 601
    second.remove("entity 0")  # its own
    assert second.vector_count("random-16", 16) == 600
    first.close()
    second.close()
