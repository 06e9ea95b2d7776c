"""search_code over a generated workspace of 10,000 files (~100 MB): MB/s and matches/s.

    python benchmarks/files.py [--files 10000] [--mean-kb 10]

Each figure is the best of three warm runs, beside a baseline from the same run: reading the
same files in the same loop and counting the query with ``bytes.count`` (no line numbers, no
case folding). Target: literal query >= 100 MB/s.

The walk: the descriptor walk searches and listings use (each folder opened relative to its
parent with ``O_NOFOLLOW``, files opened relative to their folder), beside the path walk they used
before (``os.scandir`` and ``os.open`` of joined paths), listing alone and listing plus reading.
"""

from __future__ import annotations

import argparse
import os
import random
import stat
import sys
import tempfile
import time
from pathlib import Path

from napari_talk.core.safety import tree
from napari_talk.packs.files.search import search, search_isolated

WORDS = (
    "the", "a", "of", "and", "to", "in", "was", "he", "she", "it", "that", "his", "her", "with", "as",
    "on", "for", "at", "by", "had", "from", "they", "king", "queen", "castle", "river", "stone", "dragon",
    "night", "light", "sword", "tower", "road", "forest", "winter", "fire", "shadow", "crown", "gate",
    "ancient", "silver", "whispered", "walked", "across", "beneath", "beyond", "against", "storm",
)  # fmt: skip
LITERAL = "castle gate"
FREQUENT = "castle"
REGEX = r"\b(?:dragon|sword)s?\b.{0,20}\btower\b"


def build(root: Path, files: int, mean_kb: float, seed: int = 3) -> int:
    rng = random.Random(seed)
    lines = [" ".join(rng.choices(WORDS, k=rng.randint(6, 18))).capitalize() + "." for _ in range(20_000)]
    total = 0
    for index in range(files):
        folder = root / f"part{index // 100:03d}"
        folder.mkdir(exist_ok=True)
        target = int(rng.uniform(0.2, 1.8) * mean_kb * 1024)
        chunk, size = [], 0
        while size < target:
            line = rng.choice(lines)
            chunk.append(line)
            size += len(line) + 1
        data = ("\n".join(chunk) + "\n").encode()
        (folder / f"chapter{index:05d}.md").write_bytes(data)
        total += len(data)
    return total


def baseline(root: Path, needle: bytes) -> tuple[float, int, int]:
    start, count, size = time.perf_counter(), 0, 0
    for folder, _, names in os.walk(root):
        for name in names:
            fd = os.open(os.path.join(folder, name), os.O_RDONLY)
            try:
                data = os.read(fd, os.fstat(fd).st_size + 1)
            finally:
                os.close(fd)
            size += len(data)
            count += data.count(needle)
    return time.perf_counter() - start, count, size


def path_walk(folder: str) -> list[tuple[str, os.stat_result]]:
    """The walk before: by joined paths (each one looked up again, through whatever is there now)."""
    found = []
    stack = [folder]
    while stack:
        with os.scandir(stack.pop()) as entries:
            for entry in sorted(entries, key=lambda e: e.name):
                if entry.name.startswith("."):
                    continue
                found.append((entry.path, entry.stat(follow_symlinks=False)))
                if entry.is_dir(follow_symlinks=False):
                    stack.append(entry.path)
    return found


def path_read(folder: str) -> int:
    size = 0
    for path, info in path_walk(folder):
        if stat.S_ISREG(info.st_mode):
            fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
            try:
                size += len(os.read(fd, os.fstat(fd).st_size + 1))
            finally:
                os.close(fd)
    return size


def descriptor_walk(folder_fd: int) -> list[tree.Entry]:
    return list(tree.walk(folder_fd))


def descriptor_read(folder_fd: int) -> int:
    size = 0
    for entry in tree.walk(folder_fd):
        if entry.kind == "file":
            data = tree.read_regular(entry.name, entry.dir_fd, 8 << 20)
            size += len(data) if isinstance(data, bytes) else 0
    return size


def walks(root: Path) -> None:
    folder_fd = os.open(root, os.O_RDONLY | os.O_DIRECTORY)
    try:
        for label, before, after in (
            (
                "walk (names + lstat)",
                lambda: len(path_walk(str(root))),
                lambda: len(descriptor_walk(folder_fd)),
            ),
            ("walk + read every file", lambda: path_read(str(root)), lambda: descriptor_read(folder_fd)),
        ):
            before_s = after_s = float("inf")
            for _ in range(7):  # alternated, so load from elsewhere falls on both alike
                seconds, counted = best(1, before)
                before_s = min(before_s, seconds)
                seconds, same = best(1, after)
                after_s = min(after_s, seconds)
            assert counted == same, (label, counted, same)
            print(
                f"{label:34} path walk (before) {before_s * 1e3:8.1f} ms   "
                f"descriptor walk {after_s * 1e3:8.1f} ms   ({after_s / before_s:.2f}x)"
            )
    finally:
        os.close(folder_fd)


def best(runs: int, func):
    timings = []
    for _ in range(runs):
        start = time.perf_counter()
        outcome = func()
        timings.append(time.perf_counter() - start)
    return min(timings), outcome


def report(label: str, seconds: float, outcome: dict, target: float | None = None) -> None:
    mb = outcome["bytes_searched"] / 1e6
    rate = mb / seconds
    verdict = (
        "" if target is None else f"  target >= {target:.0f} MB/s: {'ok' if rate >= target else 'MISSED'}"
    )
    print(
        f"{label:34} {rate:8.1f} MB/s  {len(outcome['matches']) / seconds:12,.0f} matches/s  "
        f"({len(outcome['matches']):,} matches, {outcome['files_searched']:,} files, {seconds:.3f} s)"
        f"{verdict}"
    )


def main() -> int:
    cli = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    cli.add_argument("--files", type=int, default=10_000)
    cli.add_argument("--mean-kb", type=float, default=10.0)
    args = cli.parse_args()
    with tempfile.TemporaryDirectory(prefix="napari-talk-bench-") as tmp:
        root = Path(tmp).resolve()
        started = time.perf_counter()
        total = build(root, args.files, args.mean_kb)
        built = time.perf_counter() - started
        print(f"tree: {args.files:,} files, {total / 1e6:.1f} MB, built in {built:.1f} s")
        walks(root)
        folder_fd = os.open(root, os.O_RDONLY | os.O_DIRECTORY)
        every = {"folder_fd": folder_fd, "folder": "", "max_results": 10**9, "max_file_bytes": 8 << 20}

        base_s, base_count, base_size = min(baseline(root, LITERAL.encode()) for _ in range(3))
        print(
            f"{'baseline: read + bytes.count':34} {base_size / 1e6 / base_s:8.1f} MB/s  "
            f"{base_count / base_s:12,.0f} matches/s  ({base_count:,} occurrences, {base_s:.3f} s)"
        )
        seconds, outcome = best(3, lambda: search(query=LITERAL, case_sensitive=True, **every))
        report("literal, case-sensitive", seconds, outcome, 100)
        seconds, outcome = best(3, lambda: search(query=LITERAL, **every))
        report("literal, case-insensitive", seconds, outcome, 100)
        seconds, outcome = best(3, lambda: search(query=FREQUENT, **every))
        report("literal, many matches", seconds, outcome)
        seconds, outcome = best(3, lambda: search(query=REGEX, regex=True, **every))
        report("regex, in-process", seconds, outcome)
        seconds, outcome = best(3, lambda: search_isolated({**every, "query": REGEX, "regex": True}, 60))
        report("regex, child process (as run)", seconds, outcome)
        os.close(folder_fd)
    return 0


if __name__ == "__main__":
    sys.exit(main())
