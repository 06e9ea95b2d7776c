"""A batch on a real Dask cluster: a scheduler and two workers as processes on 127.0.0.1. The rows
and files (screenshots drawn off screen on the workers included) equal those of the same batch
run in one process; a worker killed half-way loses no input.

The cluster is the module's (starting one costs seconds); the test that kills a worker runs last.
"""

from __future__ import annotations

import csv
import io
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from support.dask_cluster import dask_cluster, quiet_env
from support.recipe_inputs import small_tiffs

RECIPE = """# napari-talk recipe: look
auto contrast {layer1}
set the colormap of {layer1} to magma
make {layer1} 30% opaque
list layers
save a screenshot to figures/{stem}.png
#> {"action": "screenshot", "path": "figures/{stem}.png"}
write seen to notes/{stem}.txt
#> {"action": "write_file", "path": "notes/{stem}.txt", "content": "seen"}
"""
IMAGES = 20


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    """The scheduler's address and the two worker processes."""
    with dask_cluster(tmp_path_factory.mktemp("cluster")) as found:
        yield found


def _workspace(root: Path) -> Path:
    (root / "recipes").mkdir(parents=True)
    (root / "recipes" / "look.recipe").write_text(RECIPE)
    small_tiffs(root / "data", IMAGES)
    return root


def _batch(root: Path, scheduler: str) -> subprocess.CompletedProcess:
    args = ["run", "--recipe", "look", "--each", "data/*.tif", "--yes", "--scheduler", scheduler]
    return subprocess.run([sys.executable, "-m", "napari_talk", *args], capture_output=True, text=True,
                          timeout=600, env=quiet_env(NAPARI_TALK_WORKSPACE=str(root)))  # fmt: skip


def _table_without_seconds(root: Path) -> list[dict[str, str]]:
    text = (root / "batches" / "look" / "results.csv").read_text()
    rows = list(csv.DictReader(io.StringIO(text)))
    for row in rows:
        assert float(row.pop("seconds")) > 0
    return [{k: v.replace(str(root), "<workspace>") for k, v in row.items()} for row in rows]


def _files(root: Path) -> dict[str, bytes]:
    return {
        p.relative_to(root).as_posix(): p.read_bytes().replace(str(root).encode(), b"<workspace>")
        for folder in ("batches", "notes", "figures")
        for p in sorted((root / folder).rglob("*"))
        if p.is_file() and p.name != "results.csv"
    }


def test_a_batch_on_two_workers_equals_the_single_process_run_file_for_file(cluster, tmp_path):
    address, _ = cluster
    alone, spread = _workspace(tmp_path / "alone"), _workspace(tmp_path / "spread")

    assert _batch(alone, "in-process").returncode == 0
    done = _batch(spread, address)
    assert done.returncode == 0, done.stderr
    assert f"{IMAGES} of {IMAGES} rows ok" in done.stdout

    rows = _table_without_seconds(spread)
    assert [r["status"] for r in rows] == ["ok"] * IMAGES
    assert rows == _table_without_seconds(alone)
    files = _files(spread)
    assert len(files) == 3 * IMAGES  # each input's replies, its screenshot (drawn on the worker) and note
    assert files == _files(alone)


def test_a_worker_killed_half_way_loses_no_input(cluster, tmp_path):
    address, workers = cluster
    root = _workspace(tmp_path / "ws")
    args = ["run", "--recipe", "look", "--each", "data/*.tif", "--yes", "--scheduler", address]
    env = quiet_env(NAPARI_TALK_WORKSPACE=str(root))
    batch = subprocess.Popen([sys.executable, "-m", "napari_talk", *args], stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL, text=True, env=env)  # fmt: skip
    from distributed import Client

    try:
        with Client(address, timeout="30s") as client:
            doomed = next(a for a, w in client.scheduler_info()["workers"].items() if w["name"] == "worker-0")
            held: list[str] = []
            deadline = time.monotonic() + 300
            while not held and time.monotonic() < deadline and batch.poll() is None:
                held = [str(key) for key in client.processing(workers=[doomed]).get(doomed, [])]
                time.sleep(0.02)
            workers[0].send_signal(signal.SIGKILL)  # while it runs an input of the batch
            workers[0].wait(10)
        out, err = batch.communicate(timeout=600)
    finally:
        if batch.poll() is None:
            batch.kill()
    assert held and held[0].startswith("recipe-"), "the worker was killed before it had an input"
    assert batch.returncode == 0, err
    assert f"{IMAGES} of {IMAGES} rows ok" in out
    rows = _table_without_seconds(root)
    assert [r["input"] for r in rows] == [f"data/img{n:02d}.tif" for n in range(IMAGES)]
    assert all(r["status"] == "ok" for r in rows)
    assert sorted(p.name for p in (root / "notes").iterdir()) == [f"img{n:02d}.txt" for n in range(IMAGES)]
