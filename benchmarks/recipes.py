"""Recipes over many inputs: wall time on one Dask worker and on two, and what the batch machinery
costs per input beside the input's own work.

    python benchmarks/recipes.py [--images 200] [--size 128] [--values 20] [--only images|rays]

Two batches, each run three ways in the same process: ``in-process`` (no Dask, the baseline), a
LocalCluster of one worker process, and one of two.

- images: N generated 16-bit TIFFs through a 6-line viewer recipe (auto contrast, colormap, opacity,
  scale bar, zoom, and a screenshot drawn off screen);
- rays: a sweep of a glass's refractive index (from 1.4 by 0.01) in a scene with a beam and a
  detector: load the scene, set the index, read the detector.

Per row: its own seconds (viewer model, session, input, lines: measured inside the task). Per batch:
wall time, the cluster's start and stop, and the overhead per input, (wall − start/stop − Σ row
seconds ÷ workers) ÷ rows: scheduling, moving the recipe and the row, writing the table.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import tempfile
import time
from decimal import Decimal
from pathlib import Path

import numpy as np

from napari_talk.core.recipes.batch import IN_PROCESS, LOCAL, run_batch
from napari_talk.core.recipes.item import Item, Options
from napari_talk.core.recipes.sweep import steps

IMAGE_RECIPE = """auto contrast {layer1}
set the colormap of {layer1} to magma
make {layer1} 30% opaque
scale bar on
zoom to 2
save a screenshot to figures/{stem}.png
"""
RAYS_RECIPE = """load scene scenes/sweep.json
set the index of Glass 1 to {index}
detector readings
"""
SCENE = {
    "version": 5,
    "rayModeDensity": 1,
    "objs": [
        {"type": "Beam", "p1": {"x": 0, "y": 0}, "p2": {"x": 0, "y": 100}},
        {"type": "Glass", "refIndex": 1.5, "path": [
            {"x": 20, "y": -20, "arc": False}, {"x": 40, "y": 120, "arc": False},
            {"x": 30, "y": 120, "arc": False}, {"x": 10, "y": -20, "arc": False}]},
        {"type": "Detector", "p1": {"x": 80, "y": -50}, "p2": {"x": 80, "y": 150},
         "irradMap": True, "binSize": 10},
    ],
}  # fmt: skip


def make_images(root: Path, count: int, size: int) -> list[str]:
    import tifffile

    (root / "data").mkdir(parents=True, exist_ok=True)
    found = []
    for n in range(count):
        data = (np.random.default_rng(n).random((size, size)) * 4000).astype("uint16")
        tifffile.imwrite(root / "data" / f"img{n:03d}.tif", data)
        found.append(f"data/img{n:03d}.tif")
    return found


def cluster_start_stop(workers: int) -> float:
    from distributed import Client, LocalCluster

    started = time.perf_counter()
    cluster = LocalCluster(n_workers=workers, threads_per_worker=1, dashboard_address=None, host="127.0.0.1")
    with cluster, Client(cluster) as client:
        client.submit(sum, [1, 2]).result()
    return time.perf_counter() - started


def _cpu() -> tuple[float, float]:
    """CPU seconds (user + system) of this process, and of its ended children and theirs (a local
    cluster's processes once it has stopped: each waits for its own)."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime, children.ru_utime + children.ru_stime


def load() -> str:
    return "load average " + " ".join(f"{v:.2f}" for v in os.getloadavg())


def measure(name: str, recipe: str, items: list[Item], root: Path, runs: list[tuple[str, int]]) -> None:
    walls: dict[int, float] = {}
    cpus: dict[int, float] = {}
    for scheduler, workers in runs:
        options = Options(workspace=str(root), out_folder=f"batches/{name}-{scheduler}-{workers}", yes=True)
        started, cpu_before = time.perf_counter(), _cpu()
        batch = run_batch(recipe, items, options, scheduler=scheduler, workers=workers)
        wall = time.perf_counter() - started
        cpu = [after - before for after, before in zip(_cpu(), cpu_before, strict=True)]
        seconds = [row.seconds for row in batch.rows]
        failed = len(batch.failed)
        fixed = cluster_start_stop(workers) if scheduler == LOCAL else 0.0
        overhead = (wall - fixed - sum(seconds) / workers) / len(items)
        where = "in-process" if scheduler == IN_PROCESS else f"{workers} worker{'s' if workers > 1 else ''}"
        median = statistics.median(seconds)
        if scheduler == LOCAL:
            walls[workers] = wall
        print(
            f"{name:>6} {where:>10}: {len(items)} rows ({failed} failed), wall {wall:6.1f} s, "
            f"cluster start+stop {fixed:4.1f} s, row median {median * 1000:6.1f} ms "
            f"(first {seconds[0]:4.1f} s, Σ {sum(seconds):5.1f} s), overhead/input {overhead * 1000:6.1f} ms "
            f"({overhead / median:.0%} of the median row); CPU s: this process {cpu[0]:.1f}, "
            f"the cluster's {cpu[1]:.1f}; {load()}",
            flush=True,
        )
        if scheduler == LOCAL:
            cpus[workers] = cpu[1]
    if 1 in walls and 2 in walls:
        print(f"{name:>6} speed-up, 2 workers over 1: {walls[1] / walls[2]:.2f}x", flush=True)
        print(
            f"{name:>6} CPU seconds of the cluster, 2 workers over 1: {cpus[2] / cpus[1]:.2f} "
            "(1.00: a second worker adds no work of its own; the wall speed-up then depends on free cores)",
            flush=True,
        )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--images", type=int, default=200)
    parser.add_argument("--size", type=int, default=128)
    parser.add_argument("--values", type=int, default=20, help="sweep values, from 1.4 by 0.01")
    parser.add_argument("--only", choices=["images", "rays"])
    parser.add_argument("--runs", default="in-process,1,2", help="in-process and worker counts")
    args = parser.parse_args()
    runs = [(IN_PROCESS, 1) if r == "in-process" else (LOCAL, int(r)) for r in args.runs.split(",")]
    print(f"{os.cpu_count()} cores; {load()}", flush=True)
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        if args.only != "rays":
            inputs = make_images(root, args.images, args.size)
            measure("images", IMAGE_RECIPE, [Item(input=path) for path in inputs], root, runs)
        if args.only != "images":
            (root / "scenes").mkdir()
            (root / "scenes" / "sweep.json").write_text(json.dumps(SCENE))
            last = str(Decimal("1.4") + Decimal("0.01") * (args.values - 1))
            values = [Item(values=(("index", value),)) for value in steps("1.4", last, "0.01")]
            measure("rays", RAYS_RECIPE, values, root, runs)


if __name__ == "__main__":
    main()
