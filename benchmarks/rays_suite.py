"""ray-optics' own scene tests, and the engine's speed and memory on large scenes.

    python benchmarks/rays_suite.py            # suite score, then speed and peak memory
    python benchmarks/rays_suite.py --suite    # only the suite
    python benchmarks/rays_suite.py --memory   # only speed and memory

Suite: every scene of ``../shared/raysuite`` (ray-optics' test scenes with the detector reading its
simulator produced) is loaded and traced by ``rays.rayoptics`` (what ``napari-talk rays detect``
runs) and compared by ray-optics' rule (positions within 1e-3, values within relative error 1e-3).

Speed and memory: the dock's engine (``engine.trace``, the ray-optics simulator) on a ball lens (a
``CircleGlass``) hit by 10,000 rays, and on 1,000 glasses crossed by 1,000 rays, each in its own
process so peak memory (max RSS) is its own; the baseline beside each is the per-ray plain-Python
tracer (``rays_reference.py``) on a slice. ray_tracing_shapely itself runs on the same scenes in
``rays_peer.py``.
"""

from __future__ import annotations

import argparse
import copy
import json
import resource
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SUITES = [
    REPO.parent / "shared" / "raysuite" / "scenes",
    REPO.parent.parent / "shared" / "raysuite" / "scenes",
]
MEMORY_TARGETS = {"ball_lens": 100, "glasses": 300}


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
    from napari_talk.packs.rays.engine import simulator_scene
    from napari_talk.packs.rays.rayoptics.simulator import simulate
    from napari_talk.packs.rays.scene_json import load_scene

    root = next((p for p in SUITES if p.is_dir()), None)
    if root is None:
        print("suite: ../shared/raysuite not found; skipped")
        return
    scenes = sorted(p for p in root.rglob("*.json") if p.with_suffix(".csv").exists())
    passed, timings, failures = 0, [], []
    for path in scenes:
        start = time.process_time()
        try:
            model = load_scene(path)
            scene = simulator_scene(model)
            outcome = simulate(scene.objs, scene.settings, max_depth=scene.max_depth)
            mapped = next(d for d in model.detectors if d.irrad_map)
            detector = next(o for o, owner in zip(scene.objs, scene.owners, strict=True) if owner is mapped)
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


def with_ray_count(data: dict, rays: int) -> dict:
    """A copy of the scene ``data`` whose light sources each emit ``rays`` rays."""
    data = copy.deepcopy(data)
    for obj in data["objs"]:
        if obj["type"] in ("Beam", "PointSource"):
            obj["numRays"] = rays
    return data


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


def load_kernels() -> float:
    """Load the engine's compiled kernels (a small trace that uses them all); returns the peak
    memory it added, in MB."""
    from napari_talk.packs.rays import kernels

    start = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    kernels.load_kernels()
    return (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - start) / 1024


def _measure(which: str) -> dict:
    """Trace one large scene in this process (run as a child) and report time and memory (the
    compiled kernels loaded first: a fixed cost per process, given apart)."""
    from napari_talk.packs.rays import engine
    from napari_talk.packs.rays.scene_json import scene_from_dict

    data = BALL_LENS if which == "ball_lens" else many_glasses()
    scene = scene_from_dict(data)
    kernels_mb = load_kernels()
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    start = time.perf_counter()
    result = engine.trace(scene)
    seconds = time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return {
        "segments": len(result.segments),
        "seconds": seconds,
        "peak_mb": peak / 1024,
        "growth_mb": (peak - before) / 1024,
        "edges": sum(len(g.vertices) for g in scene.glasses),
        "kernels_mb": kernels_mb,
    }


def _child(which: str) -> dict:
    code = (
        f"import json, sys; sys.path.insert(0, {str(Path(__file__).parent)!r}); import rays_suite; "
        f"print(json.dumps(rays_suite._measure({which!r})))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=1800)
    if done.returncode:
        return {"error": done.stderr.strip().splitlines()[-1] if done.stderr.strip() else "failed"}
    return json.loads(done.stdout.strip().splitlines()[-1])


def _reference_rate(which: str) -> float:
    from rays_reference import trace_reference

    from napari_talk.packs.rays.scene_json import scene_from_dict

    data = json.loads(json.dumps(BALL_LENS if which == "ball_lens" else many_glasses()))
    for obj in data["objs"]:
        if obj["type"] == "Beam":
            obj["numRays"] = 100 if which == "ball_lens" else 20
    scene = scene_from_dict(data)
    start = time.perf_counter()
    segments = trace_reference(scene)
    return len(segments) / (time.perf_counter() - start)


def memory() -> None:
    for which, label in (("ball_lens", "ball lens, 10,000 rays"), ("glasses", "1,000 glasses x 1,000 rays")):
        ours = _child(which)
        if "error" in ours:
            print(f"{label}: {ours['error']}")
            continue
        rate = ours["segments"] / ours["seconds"]
        target = MEMORY_TARGETS[which]
        verdict = "ok" if ours["growth_mb"] <= target else "MISSED"
        print(
            f"{label} ({ours['edges']:,} glass edges): {ours['segments']:,} segments "
            f"in {ours['seconds']:.2f} s "
            f"= {rate:,.0f} segments/s; memory +{ours['growth_mb']:.0f} MB while tracing "
            f"(peak {ours['peak_mb']:.0f} MB; the compiled kernels' load before it: "
            f"+{ours['kernels_mb']:.0f} MB)  target <= {target} MB: {verdict}"
        )
        ref = _reference_rate(which)
        print(f"  baseline per-ray Python tracer: {ref:,.0f} segments/s ({rate / ref:.0f}x slower than ours)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--suite", action="store_true", help="only the suite")
    parser.add_argument("--memory", action="store_true", help="only speed and memory")
    args = parser.parse_args()
    if not args.memory:
        suite()
    if not args.suite:
        memory()


if __name__ == "__main__":
    main()
