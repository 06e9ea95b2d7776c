"""The dock's engine (the ray-optics simulator, ``engine.trace``) on the benchmark scenes: segments
per second beside the ray-by-ray baseline (the same simulator doing every hit by the objects' own
methods, in the same process). ray_tracing_shapely itself runs beside it in ``rays_peer.py``.

    python benchmarks/rays_engine.py            # rates on the scenes
    python benchmarks/rays_engine.py --memory   # the two large scenes whole, each in its own
                                                # process: time, rate and peak memory

The engine's compiled kernels are loaded first (numba's disk cache), outside the timings. The
prism demo itself is about a hundred segments, so its rate is mostly the fixed cost of a trace
(writing and loading the scene, building the segment table); the same prism lit by 20,000 rays
gives the tracing rate. The baseline runs on cut scenes (the figures are rates).
"""

from __future__ import annotations

import argparse
import copy
import json
import resource
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from rays_suite import BALL_LENS, load_kernels, many_glasses, with_ray_count

from napari_talk.packs.rays import engine
from napari_talk.packs.rays.samples import prism_demo_scene
from napari_talk.packs.rays.scene import Scene
from napari_talk.packs.rays.scene_json import scene_from_dict


def with_rays(data: dict, rays: int) -> Scene:
    return scene_from_dict(with_ray_count(data, rays))


def rate(trace: Callable[[Scene], object], scene: Scene, repeat: int = 1) -> tuple[float, int]:
    """Segments per second (the best of ``repeat`` traces) and the segment count."""
    best = float("inf")
    segments = 0
    for _ in range(repeat):
        start = time.perf_counter()
        result = trace(scene)
        best = min(best, time.perf_counter() - start)
        segments = len(result.segments)  # type: ignore[attr-defined]
    return segments / best, segments


def ray_by_ray(scene: Scene) -> object:
    return engine.trace(scene, ray_by_ray=True)


MEMORY_TARGETS_MB = {"ball lens, 10,000 rays": 100, "1,000 glasses, 1,000 rays": 300}


def _measure(label: str) -> dict:
    """Trace one large scene with the engine in this process (run as a child), once a small
    trace has loaded the compiled kernels (numba and its code: a fixed cost per process, given
    apart as ``kernels_mb``)."""
    data = BALL_LENS if label.startswith("ball") else many_glasses()
    scene = scene_from_dict(copy.deepcopy(data))
    kernels_mb = load_kernels()
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    start = time.perf_counter()
    result = engine.trace(scene)
    seconds = time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return {"segments": len(result.segments), "seconds": seconds, "peak_mb": peak / 1024,
            "growth_mb": (peak - before) / 1024, "kernels_mb": kernels_mb}  # fmt: skip


def memory() -> None:
    for label, target in MEMORY_TARGETS_MB.items():
        code = (
            f"import json, sys; sys.path.insert(0, {str(Path(__file__).parent)!r}); import rays_engine; "
            f"print(json.dumps(rays_engine._measure({label!r})))"
        )
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=3600)
        if done.returncode:
            print(f"{label}: failed: {done.stderr.strip().splitlines()[-1:]}")
            continue
        m = json.loads(done.stdout.strip().splitlines()[-1])
        verdict = "ok" if m["growth_mb"] <= target else "MISSED"
        speed = m["segments"] / m["seconds"]
        print(
            f"{label}: {m['segments']:,} segments in {m['seconds']:.2f} s = {speed:,.0f} segments/s; "
            "memory "
            f"+{m['growth_mb']:.0f} MB while tracing (peak {m['peak_mb']:.0f} MB; loading the compiled "
            f"kernels before it: +{m['kernels_mb']:.0f} MB)  target <= {target} MB: {verdict}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--memory", action="store_true", help="the two large scenes, whole")
    if parser.parse_args().memory:
        memory()
        return
    scenes = {
        "prism demo (48 rays)": (prism_demo_scene(), prism_demo_scene()),
        "prism, 20,000 rays": (prism_demo_scene(20_000), prism_demo_scene(500)),
        "ball lens, 10,000 rays": (with_rays(BALL_LENS, 10_000), with_rays(BALL_LENS, 1000)),
        "1,000 glasses, 1,000 rays": (with_rays(many_glasses(), 1000), with_rays(many_glasses(), 20)),
    }
    started = time.perf_counter()
    load_kernels()  # once per process, before any timing (rays_peer.py reports it as "first")
    print(f"compiled kernels loaded in {time.perf_counter() - started:.2f} s")
    print(f"{'scene':<26} {'segments':>9} {'engine seg/s':>13} {'ray-by-ray seg/s':>17} {'speed-up':>8}")
    for name, (scene, cut) in scenes.items():
        ours, n = rate(engine.trace, scene, repeat=5 if n_small(scene) else 1)
        old, _ = rate(ray_by_ray, cut, repeat=5 if n_small(cut) else 1)
        print(f"{name:<26} {n:9,} {ours:13,.0f} {old:17,.0f} {ours / old:7.1f}x")
    print("ray_tracing_shapely on the same scenes: python benchmarks/rays_peer.py --peer PATH")


def n_small(scene: Scene) -> bool:
    return sum(s.n_rays for s in scene.sources if hasattr(s, "n_rays")) <= 100


if __name__ == "__main__":
    main()
