"""The dock's engine (the ray-optics simulator, ``engine.trace``) beside the earlier vectorized
tracer (``tracer.trace``) on the same scenes, in the same process: segments per second of each.

    python benchmarks/rays_engine.py

The simulator is the engine because it traces every kind as ray-optics does (65/65 of its scene
tests); this prints what that costs in speed until its inner loop is vectorized. The large scenes
are cut to fewer rays (the figures are rates, so they compare).
"""

from __future__ import annotations

import copy
import time
from collections.abc import Callable

from rays_suite import BALL_LENS, many_glasses

from napari_talk.packs.rays import engine, tracer
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


def main() -> None:
    scenes = {
        "prism demo": prism_demo_scene(),
        "ball lens, 1,000 rays": with_rays(BALL_LENS, 1000),
        "1,000 glasses, 20 rays": with_rays(many_glasses(), 20),
    }
    print(f"{'scene':<26} {'simulator seg/s':>16} {'vectorized seg/s':>17} {'ratio':>7}")
    for name, scene in scenes.items():
        ours, n = rate(engine.trace, scene)
        old, m = rate(tracer.trace, scene)
        print(f"{name:<26} {ours:16,.0f} {old:17,.0f} {old / ours:6.1f}x  ({n:,} / {m:,} segments)")


if __name__ == "__main__":
    main()
