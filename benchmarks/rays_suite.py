"""ray-optics' own scene tests, and the two large scenes the engine's figures use.

    python benchmarks/rays_suite.py            # the suite score

Suite: every scene of ``../shared/raysuite`` (ray-optics' test scenes with the detector reading its
simulator produced) is loaded and traced by ``rays.rayoptics`` (what ``napari-talk rays detect``
runs) and compared by ray-optics' rule (positions within 1e-3, values within relative error 1e-3).

The large scenes (a ball lens hit by 10,000 rays, 1,000 glasses crossed by 1,000 rays) are
defined here; ``rays_engine.py`` measures the engine's speed and memory on them.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SUITES = [
    REPO.parent / "shared" / "raysuite" / "scenes",
    REPO.parent.parent / "shared" / "raysuite" / "scenes",
]


def compare(actual: str, expected: str, tol: float = 1e-3) -> str | None:
    a = [line for line in actual.strip().splitlines() if line.strip()]
    e = [line for line in expected.strip().splitlines() if line.strip()]
    if a[:1] != e[:1] or len(a) != len(e):
        return "header or row count"
    for la, le in zip(a[1:], e[1:], strict=True):
        pa, va = map(float, la.split(","))
        pe, ve = map(float, le.split(","))
        if abs(pa - pe) > tol or abs(va - ve) / (abs(ve) + tol) > tol:
            return f"max relative error above {tol}"
    return None


def suite() -> None:
    from napari_talk.packs.rays.rayoptics.loader import load_file
    from napari_talk.packs.rays.rayoptics.simulator import simulate

    root = next((p for p in SUITES if p.is_dir()), None)
    if root is None:
        print("suite: ../shared/raysuite not found; skipped")
        return
    scenes = sorted(p for p in root.rglob("*.json") if p.with_suffix(".csv").exists())
    passed, timings, failures = 0, [], []
    for path in scenes:
        start = time.process_time()
        try:
            scene = load_file(path)
            outcome = simulate(scene.objs, scene.settings, max_depth=scene.max_depth)
            detector = next(d for d in scene.detectors() if d.irradMap)
            why = compare(detector.csv(), path.with_suffix(".csv").read_text())
            if scene.warnings or outcome.warnings:
                why = why or f"warnings: {(scene.warnings + outcome.warnings)[0]}"
        except Exception as exc:  # a benchmark reports every failure and goes on
            why = f"{type(exc).__name__}: {exc}"
        seconds = time.process_time() - start
        timings.append((seconds, str(path.relative_to(root))))
        if why is None:
            passed += 1
        else:
            failures.append(f"{path.relative_to(root)}: {why}")
    print(f"suite: {passed}/{len(scenes)} scenes match ray-optics' detector output (target {len(scenes)})")
    for line in failures:
        print(f"  FAIL {line}")
    total = sum(s for s, _ in timings)
    print(f"  CPU time {total:.1f} s for the suite; slowest:")
    for seconds, name in sorted(timings, reverse=True)[:5]:
        print(f"    {seconds:6.2f} s  {name}")


BALL_LENS = {
    "version": 5,
    "objs": [
        {"type": "CircleGlass", "p1": {"x": 0, "y": 0}, "p2": {"x": 50, "y": 0}},
        {"type": "Beam", "p1": {"x": -100, "y": -45}, "p2": {"x": -100, "y": 45}, "numRays": 10_000,
         "brightness": 1},
    ],
}  # fmt: skip


def many_glasses() -> dict:
    objs: list[dict] = []
    for k in range(1000):
        x, y = (k % 40) * 30, (k // 40) * 30
        objs.append(
            {
                "type": "Glass",
                "path": [
                    {"x": x, "y": y},
                    {"x": x + 20, "y": y + 3},
                    {"x": x + 18, "y": y + 21},
                    {"x": x - 2, "y": y + 17},
                ],
            }
        )
    objs.append({"type": "Beam", "p1": {"x": -50, "y": -10}, "p2": {"x": -50, "y": 760}, "numRays": 1000})
    return {"version": 5, "objs": objs}


def main() -> None:
    argparse.ArgumentParser(description=__doc__.split("\n\n")[0]).parse_args()
    suite()


if __name__ == "__main__":
    main()
