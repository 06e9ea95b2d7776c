"""Entities imported per second: one process against a local Dask cluster, cold and warm.

    python benchmarks/atlas_import_scale.py                         # 4,096 entities, MiniLM int8
    python benchmarks/atlas_import_scale.py --model offline --count 100000
    python benchmarks/atlas_import_scale.py --workers 1 2           # clusters of one and two workers

Each run imports the same generated JSONL (entities of the sample's kind: a name, a type, a
domain, a two-sentence description; about 45 tokens a text) into a fresh workspace through the
``import`` command, as a person would type it. ``in-process`` is the single-process import (the
model on ONNX Runtime with a thread per core); each cluster is a ``LocalCluster`` of N worker
processes, one thread each, its model on one thread per worker. A cluster's first import is
*cold* (the cluster starts, each worker imports napari-talk and loads the model); the second, on
the same workers, is *warm*. Every figure has the load average beside it and the CPU seconds of
this process and its children (the workers); the vectors of each cluster import are compared with
the single-process import's (largest difference, smallest cosine), and the top 10 of a few
queries too. The machine is shared: the load says how much of its two cores the run had.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

KINDS = ("guardian", "walker", "archivist", "moth", "heron", "sage", "lantern", "tide", "smith", "oracle")
PLACES = ("amber dunes", "the lattice", "verdant hollow", "the threshold", "starhaven", "deep tides")
DEEDS = ("keeps the old lights burning", "listens to the salt wind", "counts the falling stars",
         "mends the broken bridges", "sings to the drowned bells", "guards a door nobody opens")  # fmt: skip
QUERIES = ("a keeper of lanterns by the sea", "an oracle of the lattice", "someone who mends bridges")


def load() -> str:
    one, five, _ = os.getloadavg()
    return f"load {one:.1f} (5 min {five:.1f}) on {os.cpu_count()} cores"


def cpu_seconds() -> float:
    """CPU seconds of this process and every living child (the cluster's workers)."""
    import psutil

    me = psutil.Process()
    total = sum(me.cpu_times()[:2])
    for child in me.children(recursive=True):
        with contextlib.suppress(psutil.Error):  # a child that ended meanwhile
            total += sum(child.cpu_times()[:2])
    return total


def write_entities(path: Path, count: int) -> None:
    rng = np.random.default_rng(11)
    with path.open("w", encoding="utf-8") as out:
        for n in range(count):
            kind, place, deed = (str(rng.choice(x)) for x in (KINDS, PLACES, DEEDS))
            record = {
                "name": f"{place.title()} {kind.title()} {n}",
                "type": kind.title(),
                "domain": place.title(),
                "description": f"A {kind} of {place} who {deed}. It has kept {rng.integers(2, 400)} "
                f"vigils and remembers the {['first', 'last', 'quiet', 'red'][n % 4]} season.",
                "created": "2026-11-20T10:00:00Z",
            }
            out.write(json.dumps(record) + "\n")


def import_once(source: Path, scheduler: str, model: str, label: str) -> tuple[object, float]:
    """A fresh workspace importing ``source`` on ``scheduler``; its session and the seconds taken."""
    from napari_talk.core.running.session import Session

    root = Path(tempfile.mkdtemp(prefix=f"atlas-scale-{label}-"))
    (root / "big.jsonl").write_bytes(source.read_bytes())
    os.environ["NAPARI_TALK_SCHEDULER"] = scheduler
    session = Session(None, workspace=root)
    line = "use the offline embedder" if model == "offline" else f"set the embedding model to {model}"
    assert session.run(line).ok
    session.state("atlas").embedder()  # the model loaded before the clock starts, as after a warm-up
    before_load, cpu = load(), cpu_seconds()
    started = time.perf_counter()
    result = session.run("import big.jsonl").results[-1]
    seconds = time.perf_counter() - started
    cpu = cpu_seconds() - cpu
    if not result.ok:
        sys.exit(f"{label}: {result.message}")
    count = result.data["imported"]
    print(
        f"{label:<22} {count / seconds:8.1f} entities/s  ({count:,} in {seconds:7.1f} s; "
        f"CPU s {cpu:7.1f}; {count / cpu:6.1f} per CPU s)  before: {before_load}; after: {load()}",
        flush=True,
    )
    return session, seconds


def vectors(session, model: str) -> dict[str, np.ndarray]:
    catalogue = session.state("atlas").catalogue  # type: ignore[attr-defined]
    names, matrix = [], []
    for entity in catalogue.entities():
        names.append(entity.name)
        matrix.append(catalogue.vector_of(entity.key, model))
    return dict(zip(names, matrix, strict=True))


def compare(alone, spread, model: str, label: str) -> None:
    mine, theirs = vectors(alone, model), vectors(spread, model)
    assert mine.keys() == theirs.keys(), f"{label}: not the same entities"
    a = np.stack([mine[n] for n in sorted(mine)])
    b = np.stack([theirs[n] for n in sorted(mine)])
    cosines = np.sum(a * b, axis=1)
    same_hits = 0
    for query in QUERIES:
        line = f"find 10 entities similar to {query}"
        hits = [[e["name"] for e in s.run(line).results[-1].data["entities"]] for s in (alone, spread)]
        same_hits += hits[0] == hits[1]
    print(
        f"{'':<22} same {len(mine):,} entities; vectors: largest difference {np.abs(a - b).max():.2e}, "
        f"smallest cosine {cosines.min():.6f}; top 10 equal for {same_hits} of {len(QUERIES)} queries",
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--count", type=int, default=4096)
    parser.add_argument("--model", default="minilm-int8", help="minilm-int8 (the default), minilm or offline")
    parser.add_argument("--workers", type=int, nargs="+", default=[2])
    args = parser.parse_args()

    from napari_talk.core.recipes import cluster
    from napari_talk.packs.atlas import cluster_import

    cluster_import.LOCAL_FROM = 1  # every import asked to run on the local cluster goes there
    folder = Path(tempfile.mkdtemp(prefix="atlas-scale-"))
    source = folder / "big.jsonl"
    write_entities(source, args.count)
    print(f"{args.count:,} entities, {args.model}, parts of {cluster_import.PART}; {load()}", flush=True)
    alone, _ = import_once(source, "in-process", args.model, "1 process")
    for workers in args.workers:
        os.environ["NAPARI_TALK_WORKERS"] = str(workers)
        try:
            cold, _ = import_once(source, "local", args.model, f"{workers} worker(s), cold")
            compare(alone, cold, args.model, "cold")
            warm, _ = import_once(source, "local", args.model, f"{workers} worker(s), warm")
            compare(alone, warm, args.model, "warm")
        finally:
            kept = cluster.kept.pop(workers, None)
            if kept is not None:
                kept.close()


if __name__ == "__main__":
    main()
