"""Recipes over many inputs: wall time on one Dask worker and on two, and what the batch machinery
costs per input beside the input's own work.

    python benchmarks/recipes.py [--images 40] [--size 128] [--sweep-step 0.01]

Two batches, each run three ways in the same process: ``in-process`` (no Dask, the baseline), a
LocalCluster of one worker process, and one of two.

- images: N generated 16-bit TIFFs through a 6-line viewer recipe (auto contrast, colormap, opacity,
  scale bar, zoom, list layers);
- rays: a sweep of a glass's refractive index (1.4 to 1.7) in a scene with a beam and a detector:
  load the scene, set the index, read the detector.

Per row: its own seconds (viewer model, session, input, lines: measured inside the task). Per batch:
wall time, the cluster's start and stop, and the overhead per input, (wall − start/stop − Σ row
seconds ÷ workers) ÷ rows: scheduling, moving the recipe and the row, writing the table.
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
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
list layers
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


def measure(name: str, recipe: str, items: list[Item], root: Path, runs: list[tuple[str, int]]) -> None:
    for scheduler, workers in runs:
        options = Options(workspace=str(root), out_folder=f"batches/{name}-{scheduler}-{workers}", yes=True)
        started = time.perf_counter()
        batch = run_batch(recipe, items, options, scheduler=scheduler, workers=workers)
        wall = time.perf_counter() - started
        seconds = [row.seconds for row in batch.rows]
        failed = len(batch.failed)
        fixed = cluster_start_stop(workers) if scheduler == LOCAL else 0.0
        overhead = (wall - fixed - sum(seconds) / workers) / len(items)
        where = "in-process" if scheduler == IN_PROCESS else f"{workers} worker{'s' if workers > 1 else ''}"
        print(
            f"{name:>6} {where:>10}: {len(items)} rows ({failed} failed), wall {wall:6.1f} s, "
            f"cluster start+stop {fixed:4.1f} s, row median {statistics.median(seconds) * 1000:6.1f} ms "
            f"(first {seconds[0]:4.1f} s, Σ {sum(seconds):5.1f} s), overhead/input {overhead * 1000:6.1f} ms",
            flush=True,
        )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--images", type=int, default=40)
    parser.add_argument("--size", type=int, default=128)
    parser.add_argument("--sweep-step", default="0.01")
    args = parser.parse_args()
    runs = [(IN_PROCESS, 1), (LOCAL, 1), (LOCAL, 2)]
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        inputs = make_images(root, args.images, args.size)
        measure("images", IMAGE_RECIPE, [Item(input=path) for path in inputs], root, runs)
        (root / "scenes").mkdir()
        (root / "scenes" / "sweep.json").write_text(json.dumps(SCENE))
        values = [Item(values=(("index", value),)) for value in steps("1.4", "1.7", args.sweep_step)]
        measure("rays", RAYS_RECIPE, values, root, runs)


if __name__ == "__main__":
    main()
