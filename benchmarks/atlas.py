"""Prints the atlas pack's speed figures, each beside a baseline measured in the same process.

    python benchmarks/atlas.py            # 100,000 × 384 search, 10,000-entity import
    python benchmarks/atlas.py --quick    # 20,000 × 384 search, 2,000-entity import

Targets: find_similar over 100,000 entities of 384 dimensions, top 10, under 20 ms; importing
10,000 entities (JSONL, offline embedder) under 10 s.
"""

from __future__ import annotations

import argparse
import json
import random
import sqlite3
import statistics
import tempfile
import time
from pathlib import Path

import numpy as np

DIM = 384


def timed(repeat: int, func) -> tuple[float, float]:
    """Median and best seconds of ``repeat`` runs (the best shows the floor on a busy machine)."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        func()
        times.append(time.perf_counter() - start)
    return statistics.median(times), min(times)


class RandomEmbedder:
    """Unit vectors from a seeded generator: the shape of a 384-d model without its cost."""

    name = "random-384"
    anchors = (0.6, 0.8)

    def __init__(self) -> None:
        self.rng = np.random.default_rng(0)

    def embed(self, texts):
        vectors = self.rng.normal(size=(len(texts), DIM)).astype(np.float32)
        return vectors / np.linalg.norm(vectors, axis=1, keepdims=True)


def search(count: int, root: Path) -> None:
    from napari_talk.packs.atlas.catalogue import Catalogue, Entity

    catalogue = Catalogue(root / "search.sqlite")
    embedder = RandomEmbedder()
    started = time.perf_counter()
    batch = 20_000
    for start in range(0, count, batch):
        stop = min(count, start + batch)
        entities = [Entity(f"entity {i}", domain=f"domain {i % 7}") for i in range(start, stop)]
        catalogue.add_many(entities, embedder.embed([""] * len(entities)), embedder.name)
    filled = time.perf_counter() - started
    query = embedder.embed(["q"])[0]
    start = time.perf_counter()
    catalogue.search(query, embedder.name, 10)
    first = time.perf_counter() - start
    ours, ours_best = timed(100, lambda: catalogue.search(query, embedder.name, 10))
    _, matrix = catalogue.matrix(embedder.name, DIM)
    bare, bare_best = timed(100, lambda: np.argpartition(-(matrix @ query), 9)[:10])
    print(
        f"find_similar: {count:,} × {DIM}, top 10: {ours * 1e3:.2f} ms median, {ours_best * 1e3:.2f} ms best "
        f"(first call, loading the matrix from SQLite: {first * 1e3:.0f} ms; filling took {filled:.1f} s)"
    )
    print(
        f"  baseline: numpy matmul + argpartition of the same shapes {bare * 1e3:.2f} ms median, "
        f"{bare_best * 1e3:.2f} ms best  target < 20 ms: {'ok' if ours < 0.020 else 'MISSED'}"
    )
    catalogue.close()


# fmt: off
WORDS = [
    "golden", "desert", "guardian", "cosmic", "void", "walker", "lantern", "signal", "lattice", "threshold",
    "ember", "tide", "archive", "moth", "crystal", "spiral", "glowing", "silent", "ancient", "river",
    "forest",
    "crown", "queen", "knight", "serpent", "spore", "coral", "cell", "nucleus",
]
# fmt: on


def synthetic(count: int) -> list[dict]:
    rng = random.Random(1)
    records = []
    for i in range(count):
        words = rng.sample(WORDS, 12)
        records.append(
            {
                "name": f"{words[0].title()} {words[1].title()} {i}",
                "type": words[2].title(),
                "domain": rng.choice(["Starhaven Reaches", "The Lattice", "The Threshold", "Verdant Hollow"]),
                "class_name": words[3].title(),
                "description": f"The {words[4]} {words[5]} of the {words[6]} {words[7]}. "
                f"It keeps {words[8]} and {words[9]} near the {words[10]} {words[11]}.",
                "sref": str(rng.randrange(1000, 1100)),
            }
        )
    return records


def importing(count: int, root: Path) -> None:
    from napari_talk.core.session import Session
    from napari_talk.packs.atlas.embeddings import HashedEmbedder

    records = synthetic(count)
    (root / "import.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    session = Session(None, workspace=root)
    start = time.perf_counter()
    result = session.execute({"action": "import_catalogue", "path": "import.jsonl"})
    ours = time.perf_counter() - start
    assert result.ok and result.data["added"] == count, result.message
    session.state("atlas").close()

    texts = [". ".join(v for k, v in r.items() if k != "sref") for r in records]
    start = time.perf_counter()
    HashedEmbedder().embed(texts)
    embed_only = time.perf_counter() - start
    db = sqlite3.connect(root / "bare.sqlite")
    columns = "name TEXT, type TEXT, domain TEXT, class_name TEXT, description TEXT, sref TEXT"
    db.execute(f"CREATE TABLE t ({columns})")
    start = time.perf_counter()
    with db:
        db.executemany("INSERT INTO t VALUES (?, ?, ?, ?, ?, ?)", [tuple(r.values()) for r in records])
    insert_only = time.perf_counter() - start
    print(
        f"import: {count:,} entities from JSONL with the offline embedder in {ours:.2f} s "
        f"({count / ours:,.0f} entities/s)  target < 10 s: {'ok' if ours < 10 else 'MISSED'}"
    )
    print(
        f"  baseline: offline embedding alone {embed_only:.2f} s; bare SQLite insert of the rows "
        f"{insert_only * 1e3:.0f} ms"
    )


def command(count: int, root: Path) -> None:
    """The find_similar command as a person runs it (parse aside), against the bare search of
    the same catalogue: what the command adds is the embedding of the query and the reply."""
    from napari_talk.core.session import Session

    session = Session(None, workspace=root)
    line = {"action": "find_similar", "query": "a keeper of lanterns in the salt marsh", "limit": 10}
    start = time.perf_counter()
    first_result = session.execute(line)
    first = time.perf_counter() - start
    assert first_result.ok, first_result.message
    ours, _ = timed(30, lambda: session.execute(line))
    atlas = session.state("atlas")
    embedder = atlas.embedder()
    query = embedder.embed([line["query"]])[0]
    bare, _ = timed(30, lambda: atlas.catalogue.search(query, embedder.name, 10))
    print(
        f"find_similar command over {count:,} entities: {ours * 1e3:.2f} ms median "
        f"(first call {first * 1e3:.0f} ms: loads the matrix)"
    )
    print(f"  baseline: the catalogue's search alone {bare * 1e3:.2f} ms median")
    atlas.close()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        search(20_000 if args.quick else 100_000, root)
        importing(2_000 if args.quick else 10_000, root)
        command(2_000 if args.quick else 10_000, root)


if __name__ == "__main__":
    main()
