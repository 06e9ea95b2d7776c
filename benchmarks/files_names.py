"""Names as people say them, on a generated workspace: what each typed line costs the files pack.

    python benchmarks/files_names.py [--files 5000]

The pack offers the parser the tree's names on every line it reads (``names``: walked afresh, or
kept for two seconds), and a handler looks a name up in the tree when no path fits (``find``).
Each figure is the best of five warm runs, beside a baseline from the same run: listing the same
tree with ``list_entries`` (what list_files does) and nothing else.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from napari_talk.core.running.session import Session
from napari_talk.packs.files import PACK
from napari_talk.packs.files.listing import list_entries
from napari_talk.packs.files.naming import find, forget_names, spoken_names


def build(root: Path, files: int) -> None:
    for index in range(files):
        folder = root / f"book{index // 100:02d}"
        folder.mkdir(exist_ok=True)
        (folder / f"ch{index % 100:02d}.md").write_text(f"# Chapter {index}\n\nThe castle stood.\n")
    (root / "notes").mkdir()
    (root / "notes" / "plan.md").write_text("# Plan\n")


def best(work: Callable[[], object], runs: int = 5) -> float:
    work()
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=5000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        build(root, args.files)
        session = Session(workspace=root)
        ctx = session.context(PACK)
        baseline = best(lambda: list_entries(ctx.workspace.root, ctx.workspace.root, True, 5000))
        fresh = best(lambda: (forget_names(ctx), spoken_names(ctx)))
        kept = best(lambda: spoken_names(ctx))
        by_path = best(lambda: find(ctx, "notes/plan.md"))
        by_stem = best(lambda: find(ctx, "the plan"))
        count = sum(len(v) for v in spoken_names(ctx).values())
        print(f"{args.files:,} files; {count:,} names offered")
        print(f"baseline: list the tree             {baseline * 1000:8.1f} ms")
        print(f"names offered to the parser, walked  {fresh * 1000:8.1f} ms")
        print(f"names offered to the parser, kept    {kept * 1000:8.3f} ms")
        print(f"find 'notes/plan.md' (a path)        {by_path * 1000:8.1f} ms")
        print(f"find 'the plan' (a name)             {by_stem * 1000:8.1f} ms")


if __name__ == "__main__":
    main()
