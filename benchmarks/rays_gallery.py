"""How ray-optics' gallery scenes fare in ``napari-talk rays check``: clean, loaded with warnings,
or refused, and the commonest warnings and refusals.

    python benchmarks/rays_gallery.py DIR [--timeout SECONDS]

DIR holds the gallery's scene files (``data/galleryScenes/*.json`` of the ray-optics repository,
copied locally; they are not part of this project). Each scene runs in its own process, as a
person would run the command; one that runs past the timeout is counted apart.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path


def cause(line: str) -> str:
    """A warning or refusal without its particulars (names, numbers), to count alike ones together."""
    line = re.sub(r"^(warning: |napari-talk rays check: \S+: )", "", line.strip())
    line = re.sub(r"'[^']*'", "'…'", line)
    return re.sub(r"-?\d[\d.,e+-]*", "#", line)[:110]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--timeout", type=float, default=120.0)
    args = parser.parse_args()
    scenes = sorted(args.folder.rglob("*.json"))
    if not scenes:
        sys.exit(f"no .json scenes under {args.folder}")
    tally: Counter[str] = Counter()
    causes: dict[str, Counter[str]] = {"warnings": Counter(), "refused": Counter()}
    started = time.perf_counter()
    timings: list[tuple[float, str]] = []
    for path in scenes:
        began = time.perf_counter()
        try:
            done = subprocess.run(
                [sys.executable, "-m", "napari_talk", "rays", "check", str(path)],
                capture_output=True,
                text=True,
                timeout=args.timeout,
            )
        except subprocess.TimeoutExpired:
            tally["timed out"] += 1
            timings.append((time.perf_counter() - began, path.name))
            print(f"timed out  {path.name}")
            continue
        seconds = time.perf_counter() - began
        timings.append((seconds, path.name))
        outcome = {0: "clean", 1: "warnings", 2: "refused"}.get(done.returncode, "crashed")
        tally[outcome] += 1
        lines = [line for line in done.stdout.splitlines() if line.startswith("warning: ")]
        if outcome == "refused":
            lines = done.stderr.strip().splitlines()[-1:]
        for line in lines:
            if outcome in causes:
                causes[outcome][cause(line)] += 1
        print(f"{outcome:<10} {seconds:6.1f} s  {path.name}" + (f"  ({lines[0][:90]})" if lines else ""))
    print(
        f"\n{len(scenes)} scenes in {time.perf_counter() - started:.0f} s: "
        + ", ".join(
            f"{tally[k]} {k}" for k in ("clean", "warnings", "refused", "timed out", "crashed") if tally[k]
        )
    )
    print("slowest (seconds, including the process's start):")
    for seconds, name in sorted(timings, reverse=True)[:6]:
        print(f"  {seconds:6.1f}  {name}")
    for outcome, counted in causes.items():
        if counted:
            print(f"commonest causes ({outcome}):")
            for text, n in counted.most_common(10):
                print(f"  {n:3} × {text}")


if __name__ == "__main__":
    main()
