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
wall time, and the overhead per input, (wall − Σ row seconds ÷ workers) ÷ rows: scheduling, moving
the recipe and the row, writing the table (and, cold, the cluster's start). Each cluster runs the
batch cold (fresh workers) and then warm (the same workers again, as the dock's next batch runs),
and its processes' CPU seconds are counted when it closes.
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
from napari_talk.core.recipes.cluster import kept as kept_clusters
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


def _cpu() -> tuple[float, float]:
    """CPU seconds (user + system) of this process, and of its ended children and theirs (a local
    cluster's processes once it has stopped: each waits for its own)."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime, children.ru_utime + children.ru_stime


def load() -> str:
    return "load average " + " ".join(f"{v:.2f}" for v in os.getloadavg())


def measure(name: str, recipe: str, items: list[Item], root: Path, runs: list[tuple[str, int]]) -> None:
    """Each way: a cold batch (a fresh cluster: the workers import, build the grammar, start the
    renderer), then the same batch again on the same cluster, warm (as the dock's next batch runs)."""
    walls: dict[tuple[int, str], float] = {}
    cpus: dict[tuple[int, str], float] = {}
    for scheduler, workers in runs:
        passes = ["cold", "warm"] if scheduler == LOCAL else ["cold"]
        try:
            for state in passes:
                out = f"batches/{name}-{scheduler}-{workers}-{state}"
                options = Options(workspace=str(root), out_folder=out, yes=True)
                started, cpu_before = time.perf_counter(), _cpu()
                batch = run_batch(
                    recipe, items, options, scheduler=scheduler, workers=workers, keep_cluster=True
                )
                wall = time.perf_counter() - started
                cpu = [after - before for after, before in zip(_cpu(), cpu_before, strict=True)]
                seconds = [row.seconds for row in batch.rows]
                median = statistics.median(seconds)
                where = (
                    "in-process"
                    if scheduler == IN_PROCESS
                    else f"{workers} worker{'s' if workers > 1 else ''}"
                )
                overhead = (wall - sum(seconds) / workers) / len(items)
                walls[workers, state] = wall
                print(
                    f"{name:>6} {where:>10} {state}: {len(items)} rows ({len(batch.failed)} failed), "
                    f"wall {wall:6.1f} s, row median {median * 1000:6.1f} ms (first {seconds[0]:4.1f} s, "
                    f"Σ {sum(seconds):5.1f} s), overhead/input {overhead * 1000:6.1f} ms "
                    f"({overhead / median:.0%} of the median row); CPU s here {cpu[0]:.1f}; {load()}",
                    flush=True,
                )
        finally:
            kept = kept_clusters.pop(workers, None)
            if kept is not None:
                started, cpu_before = time.perf_counter(), _cpu()
                kept.close()
                cpu = [after - before for after, before in zip(_cpu(), cpu_before, strict=True)]
                cpus[workers, "all"] = cpu[1]
                closing = time.perf_counter() - started
                print(f"{name:>6} {workers} worker(s): cluster closed in {closing:.1f} s; "
                      f"its processes used {cpu[1]:.1f} CPU s in all", flush=True)  # fmt: skip
    for state in ("cold", "warm"):
        if (1, state) in walls and (2, state) in walls:
            speed = walls[1, state] / walls[2, state]
            print(f"{name:>6} speed-up {state}, 2 workers over 1: {speed:.2f}x", flush=True)
    if (1, "all") in cpus and (2, "all") in cpus:
        ratio = cpus[2, "all"] / cpus[1, "all"]
        said = "1.00: the second worker adds no work of its own; the wall speed-up is then the free cores'"
        print(f"{name:>6} the clusters' CPU seconds, 2 workers over 1: {ratio:.2f} ({said})", flush=True)


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
