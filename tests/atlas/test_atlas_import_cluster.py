"""A large import embedded on a real Dask cluster (a scheduler and two workers as processes on
127.0.0.1): the same entities, vectors and search results as the single-process import; a worker
killed half-way loses no entity; an importer killed half-way leaves what it wrote, and a rerun
embeds only the rest; the shared PostgreSQL catalogue the same.

The cluster is the module's (starting one costs seconds on a loaded machine).
"""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
from support.atlas_fixtures import *  # noqa: F403  (the atlas fixtures)
from support.atlas_servers import EmbeddingServer
from support.dask_cluster import dask_cluster, quiet_env

from napari_talk.core.running.session import Session
from napari_talk.packs.atlas import cluster_import
from napari_talk.packs.atlas.entities import Entity
from napari_talk.packs.atlas.settings import DATABASE_ENV
from napari_talk.packs.atlas.store import CATALOGUE_FILE

pytestmark = pytest.mark.slow

COUNT = 480
QUERIES = ("a warden of amber dunes", "the quiet archivist of tides", "entity 17", "a void that walks")
KINDS = ("guardian", "walker", "archivist", "moth", "heron", "sage", "lantern", "tide")
PLACES = ("amber dunes", "the lattice", "verdant hollow", "the threshold", "starhaven", "deep tides")


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    with dask_cluster(tmp_path_factory.mktemp("cluster")) as found:
        yield found


def entities_file(path: Path, count: int = COUNT, seed: int = 7) -> list[dict[str, str]]:
    """``count`` made-up entities, one per line, each with its own words and a creation time."""
    rng = np.random.default_rng(seed)
    records = []
    for n in range(count):
        kind, place = KINDS[rng.integers(len(KINDS))], PLACES[rng.integers(len(PLACES))]
        records.append(
            {
                "name": f"Entity {n}",
                "type": kind.title(),
                "domain": place.title(),
                "description": f"A {kind} of {place} who keeps {rng.integers(2, 99)} lanterns and "
                f"{['sings', 'waits', 'listens', 'burns'][n % 4]} at dusk.",
                "sref": str(1000 + n % 37),
                "created": "2026-11-20T10:00:00Z",
            }
        )
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    return records


def imported(root: Path, scheduler: str, monkeypatch, model: str = "use the offline embedder") -> Session:
    """A session of ``root`` that imported big.jsonl on ``scheduler``, its model chosen by ``model``."""
    monkeypatch.setenv("NAPARI_TALK_SCHEDULER", scheduler)
    session = Session(None, workspace=root)
    assert session.run(model).ok
    result = session.run("import big.jsonl").results[-1]
    assert result.ok, result.message
    assert result.data["imported"] == COUNT, result.message
    return session


def contents(session: Session, model: str = "offline") -> tuple[list[dict[str, str]], dict[str, np.ndarray]]:
    catalogue = session.state("atlas").catalogue
    entities = sorted(catalogue.entities(), key=lambda e: e.name)
    vectors = {}
    for entity in entities:
        vector = catalogue.vector_of(entity.key, model)
        assert vector is not None, entity.name
        vectors[entity.name] = vector
    return [e.record() for e in entities], vectors


def found(session: Session) -> list[list[tuple[str, float]]]:
    hits = []
    for query in QUERIES:
        result = session.run(f"find 10 entities similar to {query}").results[-1]
        assert result.ok, result.message
        hits.append([(e["name"], round(e["similarity"], 4)) for e in result.data["entities"]])
    return hits


def test_an_import_on_two_workers_equals_the_single_process_import(cluster, tmp_path, monkeypatch):
    address, _ = cluster
    monkeypatch.setattr(cluster_import, "PART", 64)  # 8 parts, so both workers take some
    alone, spread = tmp_path / "alone", tmp_path / "spread"
    records = entities_file(alone / "big.jsonl")
    entities_file(spread / "big.jsonl")

    with EmbeddingServer(dim=384) as server:
        server.delay = 0.1  # a part takes long enough for the scheduler to hand the next to the other worker
        model = f"set the embedding model to tiny-embed at {server.url}"
        single = imported(alone, "in-process", monkeypatch, model)
        shared = imported(spread, address, monkeypatch, model)
        result = shared.run("list entities").results[-1]
        assert result.data["count"] == COUNT
        mine, mine_vectors = contents(single, "tiny-embed")
        theirs, their_vectors = contents(shared, "tiny-embed")
        assert found(shared) == found(single)

    assert theirs == mine == sorted((Entity(**r).record() for r in records), key=lambda r: r["name"])
    for name, vector in mine_vectors.items():
        np.testing.assert_allclose(their_vectors[name], vector, rtol=0, atol=1e-6)

    from distributed import Client

    from napari_talk.packs.atlas import embed_tasks

    with Client(address, timeout="30s") as client:
        made = client.run(lambda: len(embed_tasks._made))
    assert sorted(made.values()) == [1, 1], "both workers embedded (and made their model once)"
    assert not embed_tasks._made, "nothing was embedded in this process"


def test_the_import_says_where_it_ran_and_undo_takes_it_back_whole(cluster, tmp_path, monkeypatch):
    address, _ = cluster
    monkeypatch.setattr(cluster_import, "PART", 100)
    entities_file(tmp_path / "big.jsonl")
    monkeypatch.setenv("NAPARI_TALK_SCHEDULER", address)
    session = Session(None, workspace=tmp_path)
    assert session.run("use the offline embedder").ok
    reports: list[tuple[str, float | None]] = []
    session.jobs.wait = lambda job: job.run_here(listening(reports))
    result = session.run("import big.jsonl").results[-1]
    assert result.ok and result.data["scheduler"] == address and f"on {address}" in result.message
    told = [status for status, _ in reports if "of 480 entities" in status]
    assert told[-1].endswith("480 of 480 entities") and len(told) == 5, told  # one report a part
    assert session.run("undo").ok
    assert session.state("atlas").catalogue.count() == 0


def listening(heard: list[tuple[str, float | None]]):
    """A job's progress that keeps what it is told, as the dock's busy bar shows it."""
    from napari_talk.core.basics.jobs import Progress

    return Progress(lambda status, fraction: heard.append((status, fraction)))


def _slow_server_import(root: Path, address: str, server: EmbeddingServer) -> subprocess.Popen:
    """``napari-talk run --scheduler ADDRESS`` importing big.jsonl through ``server`` (its vectors are
    the offline embedder's: rankings mean something), from its own process."""
    lines = [f"set the embedding model to tiny-embed at {server.url}", "import big.jsonl"]
    args = [sys.executable, "-m", "napari_talk", "run", "--yes", "--scheduler", address, *lines]
    env = quiet_env(NAPARI_TALK_WORKSPACE=str(root), NAPARI_TALK_CONFIG=os.environ["NAPARI_TALK_CONFIG"])
    return subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)


def _stored(root: Path) -> int:
    """Entities with a vector in the workspace's catalogue file, read by a connection of its own."""
    path = root / CATALOGUE_FILE
    if not path.exists():
        return 0
    try:
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=5) as db:
            return db.execute("SELECT count(*) FROM vectors WHERE model = 'tiny-embed'").fetchone()[0]
    except sqlite3.OperationalError:  # not made yet
        return 0


def test_a_worker_killed_half_way_loses_no_entity(cluster, tmp_path):
    """Three parts of the size the command line uses; the worker holding one is killed."""
    address, workers = cluster
    count = 2 * cluster_import.PART + COUNT
    records = entities_file(tmp_path / "big.jsonl", count)
    with EmbeddingServer(dim=384) as server:
        server.delay = 0.4  # each request of a part's texts: the parts are under way long enough
        importer = _slow_server_import(tmp_path, address, server)
        from distributed import Client

        try:
            with Client(address, timeout="30s") as client:
                names = {a: w["name"] for a, w in client.scheduler_info()["workers"].items()}
                held: list[str] = []
                deadline = time.monotonic() + 300
                while not held and time.monotonic() < deadline and importer.poll() is None:
                    busy = {a: [str(k) for k in keys] for a, keys in client.processing().items() if keys}
                    doomed, held = next(iter(busy.items()), (None, []))
                    time.sleep(0.02)
                assert doomed is not None, "no worker ever held a part"
                victim = workers[int(names[doomed].rsplit("-", 1)[1])]
                victim.send_signal(signal.SIGKILL)  # while it embeds a part of the import
                victim.wait(10)
            out, err = importer.communicate(timeout=600)
        finally:
            if importer.poll() is None:
                importer.kill()
        asked = [text for request in server.requests for text in request["input"]]
    assert held and held[0].startswith("atlas-import-"), "the worker was killed before it had a part"
    assert importer.returncode == 0, err
    assert f"imported {count} entities from big.jsonl ({count} new" in out, out
    assert _stored(tmp_path) == count
    from napari_talk.packs.atlas.catalogue import Catalogue

    catalogue = Catalogue(tmp_path / CATALOGUE_FILE)
    try:
        assert sorted(e.name for e in catalogue.entities()) == sorted(r["name"] for r in records)
    finally:
        catalogue.close()
    assert set(asked) >= {_text(r) for r in records}  # every text was asked for at least once
    assert f"of {count:,} entities" in err  # the terminal's progress line


def _text(record: dict[str, str]) -> str:
    return Entity(**record).text()


def test_an_importer_killed_half_way_keeps_what_it_wrote_and_a_rerun_does_the_rest(tmp_path, monkeypatch):
    """Its own cluster (the module's has lost a worker); four parts of the size the command line
    uses, so the importer is killed with some written and others under way."""
    count = 4 * cluster_import.PART
    records = {r["name"]: r for r in entities_file(tmp_path / "big.jsonl", count)}
    (tmp_path / "cluster").mkdir()
    with dask_cluster(tmp_path / "cluster") as (address, _), EmbeddingServer(dim=384) as server:
        server.delay = 0.3
        importer = _slow_server_import(tmp_path, address, server)
        try:
            deadline = time.monotonic() + 300
            while _stored(tmp_path) == 0 and time.monotonic() < deadline and importer.poll() is None:
                time.sleep(0.05)
            importer.send_signal(signal.SIGKILL)  # with some parts written and others under way
            importer.wait(30)
        finally:
            if importer.poll() is None:
                importer.kill()
        kept = _stored(tmp_path)
        assert 0 < kept < count and kept % cluster_import.PART == 0, kept  # whole parts
        kept_texts = {_text(records[name]) for name in _stored_names(tmp_path)}
        before = _quiet(server)  # the killed importer's parts under way end on the workers, unasked for
        again = _slow_server_import(tmp_path, address, server)
        out, err = again.communicate(timeout=600)
        assert again.returncode == 0, err
        asked = {text for request in server.requests[before:] for text in request["input"]}
    assert f"({count - kept} new, 0 replaced, {kept:,} already there as they are)" in out, out
    assert len(kept_texts) == kept and not asked & kept_texts  # what was stored is not embedded again
    assert len(asked) == count - kept
    assert _stored(tmp_path) == count


def _stored_names(root: Path) -> list[str]:
    with sqlite3.connect(f"file:{root / CATALOGUE_FILE}?mode=ro", uri=True, timeout=5) as db:
        return [name for (name,) in db.execute("SELECT name FROM entities")]


def _quiet(server: EmbeddingServer, still: float = 2.0) -> int:
    """How many requests the server had once none came for ``still`` seconds."""
    seen, since = len(server.requests), time.monotonic()
    deadline = since + 120
    while time.monotonic() - since < still and time.monotonic() < deadline:
        time.sleep(0.1)
        if len(server.requests) != seen:
            seen, since = len(server.requests), time.monotonic()
    return seen


def test_an_import_on_the_cluster_into_postgresql_equals_the_one_into_sqlite(
    cluster, tmp_path, monkeypatch, postgres_url
):
    address, _ = cluster
    monkeypatch.setattr(cluster_import, "PART", 64)
    alone, spread = tmp_path / "alone", tmp_path / "spread"
    entities_file(alone / "big.jsonl")
    entities_file(spread / "big.jsonl")
    single = imported(alone, "in-process", monkeypatch)
    monkeypatch.setenv(DATABASE_ENV, postgres_url)
    shared = imported(spread, address, monkeypatch)
    assert not (spread / CATALOGUE_FILE).exists()  # it went to the database
    mine, mine_vectors = contents(single)
    theirs, their_vectors = contents(shared)
    assert theirs == mine
    for name, vector in mine_vectors.items():
        np.testing.assert_allclose(their_vectors[name], vector, rtol=0, atol=1e-6)
    assert [[n for n, _ in hits] for hits in found(shared)] == [
        [n for n, _ in hits] for hits in found(single)
    ]
    shared.state("atlas").close()
