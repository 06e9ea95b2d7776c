"""The dock's engine (the ray-optics simulator, ``engine.trace``) on three scenes: segments per
second of each.

    python benchmarks/rays_engine.py            # rates on three scenes
    python benchmarks/rays_engine.py --memory   # the engine on the two large scenes, each in its
                                                # own process: time, rate and peak memory

The simulator is the engine because it traces every kind as ray-optics does (65/65 of its scene
tests); its nearest-object search is vectorized, the physics of each hit is not. The large
scenes are cut to fewer rays for the rates (the figures are rates, so they compare); ``--memory``
traces them whole.
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

from rays_suite import BALL_LENS, many_glasses

from napari_talk.packs.rays import engine
from napari_talk.packs.rays.samples import prism_demo_scene
from napari_talk.packs.rays.scene import Scene
from napari_talk.packs.rays.scene_json import scene_from_dict


def with_rays(data: dict, rays: int) -> Scene:
    data = copy.deepcopy(data)
    for obj in data["objs"]:
        if obj["type"] == "Beam":
            obj["numRays"] = rays
    return scene_from_dict(data)


def rate(trace: Callable[[Scene], object], scene: Scene) -> tuple[float, int]:
    start = time.perf_counter()
    result = trace(scene)
    seconds = time.perf_counter() - start
    segments = len(result.segments)  # type: ignore[attr-defined]
    return segments / seconds, segments


MEMORY_TARGETS_MB = {"ball lens, 10,000 rays": 100, "1,000 glasses, 1,000 rays": 300}


def _measure(label: str) -> dict:
    """Trace one large scene with the engine in this process (run as a child)."""
    data = BALL_LENS if label.startswith("ball") else many_glasses()
    scene = scene_from_dict(copy.deepcopy(data))
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    start = time.perf_counter()
    result = engine.trace(scene)
    seconds = time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return {"segments": len(result.segments), "seconds": seconds, "peak_mb": peak / 1024,
            "growth_mb": (peak - before) / 1024}  # fmt: skip


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
        print(
            f"{label}: {m['segments']:,} segments in {m['seconds']:.1f} s = "
            f"{m['segments'] / m['seconds']:,.0f} segments/s; memory +{m['growth_mb']:.0f} MB while "
            f"tracing (peak {m['peak_mb']:.0f} MB)  target <= {target} MB: {verdict}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--memory", action="store_true", help="the two large scenes, whole")
    if parser.parse_args().memory:
        memory()
        return
    scenes = {
        "prism demo": prism_demo_scene(),
        "ball lens, 1,000 rays": with_rays(BALL_LENS, 1000),
        "1,000 glasses, 20 rays": with_rays(many_glasses(), 20),
    }
    print(f"{'scene':<26} {'simulator seg/s':>16}")
    for name, scene in scenes.items():
        ours, n = rate(engine.trace, scene)
        print(f"{name:<26} {ours:16,.0f}  ({n:,} segments)")


if __name__ == "__main__":
    main()
