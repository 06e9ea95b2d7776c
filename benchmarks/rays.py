"""Prints the rays pack's speed figures, each beside a baseline measured in the same run.

    python benchmarks/rays.py            # tracing 100,000 source rays; queries over >= 1,000,000 segments
    python benchmarks/rays.py --quick    # a tenth of the sizes

Targets (2-core machine): tracing >= 1,000,000 segments/s on the prism demo scaled to 100,000
source rays traced to the brightness threshold; each query over 1,000,000 segments < 0.2 s.
Baselines: the per-ray plain-Python tracer of ``rays_reference.py`` beside this script (the way a
library making a geometry call per ray works) and per-segment Python loops, on a subset,
extrapolated.
"""

from __future__ import annotations

import argparse
import math
import time
from collections.abc import Callable

import numpy as np
from rays_reference import trace_reference

from napari_talk.packs.rays import analysis, lineage
from napari_talk.packs.rays.engine import trace
from napari_talk.packs.rays.samples import prism_demo_scene

TRACE_TARGET = 1_000_000
QUERY_TARGET = 0.2


def best_of(repeat: int, func: Callable[[], object]) -> tuple[float, object]:
    best, value = math.inf, None
    for _ in range(repeat):
        start = time.perf_counter()
        value = func()
        best = min(best, time.perf_counter() - start)
    return best, value


def tracing(source_rays: int) -> None:
    scene = prism_demo_scene(n_rays=source_rays)
    seconds, result = best_of(3, lambda: trace(scene))
    count = len(result.segments)
    rate = count / seconds
    subset = prism_demo_scene(n_rays=max(source_rays // 50, 100))
    base_seconds, base = best_of(1, lambda: trace_reference(subset))
    base_rate = len(base) / base_seconds
    print(
        f"trace: {rate:,.0f} segments/s ({count:,} segments from {source_rays:,} source rays "
        f"in {seconds:.3f} s, "
        f"{result.summary['generations']} generations)  target >= {TRACE_TARGET:,}: "
        f"{'ok' if rate >= TRACE_TARGET else 'MISSED'}"
    )
    print(
        f"  baseline per-ray Python tracer: {base_rate:,.0f} segments/s on {len(base):,} segments "
        f"(would take {count / base_rate:.2f} s for the full scene; {rate / base_rate:.1f}x slower)"
    )


def _inside_loop(segments, vertices) -> int:
    """Per-segment even-odd test in plain Python: the baseline of the inside query."""
    found = 0
    edges = list(zip(vertices.tolist(), np.roll(vertices, -1, axis=0).tolist(), strict=True))
    for (x1, y1), (x2, y2) in zip(segments.p1.tolist(), segments.p2.tolist(), strict=True):
        px, py, inside = (x1 + x2) / 2, (y1 + y2) / 2, False
        for (ax, ay), (bx, by) in edges:
            if (ay > py) != (by > py) and px < ax + (py - ay) * (bx - ax) / (by - ay):
                inside = not inside
        found += inside
    return found


def queries(min_segments: int) -> None:
    source_rays = int(min_segments / 1.6)
    while True:
        scene = prism_demo_scene(n_rays=source_rays)
        result = trace(scene)
        if len(result.segments) >= min_segments:
            break
        source_rays = int(source_rays * 1.2)
    segments, prism = result.segments, scene.glasses[0]
    print(f"queries over {len(segments):,} segments ({source_rays:,} source rays):")
    timed = {
        "find_rays_inside_glass": lambda: analysis.find_rays_inside_glass(segments, prism),
        "find_rays_crossing_edge": lambda: analysis.find_rays_crossing_edge(segments, prism, "N"),
        "find_rays_by_angle_to_edge": lambda: analysis.find_rays_by_angle_to_edge(
            segments, prism, "N", 0, 30
        ),
        "find_rays_by_polarization": lambda: analysis.find_rays_by_polarization(segments, 0.0, 0.1),
        "rank_paths_by_energy": lambda: lineage.rank_paths_by_energy(result.lineage, 10),
        "check_energy_conservation": lambda: lineage.check_energy_conservation(result.lineage),
    }
    for name, query in timed.items():
        if name in ("rank_paths_by_energy", "check_energy_conservation"):
            result.lineage.__dict__.pop("child_count", None)  # count building the tree each time
        seconds, found = best_of(3, query)
        size = len(found) if not isinstance(found, dict) else found["total_checks"]
        print(
            f"  {name:<28s} {seconds * 1000:8.1f} ms  ({size:,} found)  target < {QUERY_TARGET} s: "
            f"{'ok' if seconds < QUERY_TARGET else 'MISSED'}"
        )
    sample = segments.take(slice(0, 50_000))
    loop_seconds, _ = best_of(1, lambda: _inside_loop(sample, prism.vertices))
    print(
        f"  baseline per-segment Python loop (inside): {loop_seconds / len(sample) * len(segments):.2f} s "
        f"extrapolated from {len(sample):,} segments"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="a tenth of the sizes")
    args = parser.parse_args()
    scale = 10 if args.quick else 1
    tracing(100_000 // scale)
    queries(1_000_000 // scale)


if __name__ == "__main__":
    main()
