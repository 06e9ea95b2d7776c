"""The engine beside ray_tracing_shapely, the Python port of ray-optics this pack's seed came from,
on the same scenes, in the same process.

    pip install shapely sympy svgwrite          # the peer's dependencies
    git clone https://github.com/micheleben/ray_tracing_shapely /tmp/rts
    python benchmarks/rays_peer.py --peer /tmp/rts/src-python

ray_tracing_shapely is not on the package index, so it is run from a checkout named by ``--peer``.
Each scene is given to both as ray-optics JSON: the engine reads it with its loader; the peer's
objects take the same JSON objects, with the ray count expressed as the peer's ray density (a
point source emits ``density × 500`` rays, a beam ``length × density``) and each ray's brightness
set to the engine's (1). A ``CircleGlass`` is given to the peer as a glass of two half-circle arcs
(it has no circle glass). Both count segments; the figure is segments per second, the best of
``--repeat`` runs, each scene traced once before timing (its time is "first": the first scene of
the process also loads the engine's compiled kernels from numba's disk cache, or with ``--cold``
compiles them, as a fresh install does). The peer traces the large scenes on fewer rays (the
figure is a rate), as said in the table.

The two do not trace the same number of segments on the same rays (the engine's tracing is
ray-optics' own; the peer traces fewer per ray through the ball lens and three times more among
many glasses), hence two ratios: segments per second, and rays per second (the same scene's time
per ray), which does not reward extra segments.
"""

from __future__ import annotations

import argparse
import copy
import math
import os
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from rays_suite import BALL_LENS, many_glasses, with_ray_count

from napari_talk.packs.rays import engine
from napari_talk.packs.rays.samples import prism_demo_scene
from napari_talk.packs.rays.scene_json import scene_from_dict
from napari_talk.packs.rays.writer import scene_to_dict


def prism(rays: int) -> dict:
    return scene_to_dict(prism_demo_scene(rays))


def scenes() -> dict[str, tuple[dict, dict]]:
    """label -> (the scene the engine traces, the same scene with the peer's ray count)."""
    return {
        "prism demo (48 rays)": (prism(48), prism(48)),
        "prism, 20,000 rays": (prism(20_000), prism(20_000)),
        "ball lens, 10,000 rays": (with_ray_count(BALL_LENS, 10_000), with_ray_count(BALL_LENS, 2_000)),
        "1,000 glasses, 1,000 rays": (
            with_ray_count(many_glasses(), 1_000),
            with_ray_count(many_glasses(), 5),
        ),
    }


class Peer:
    """Builds and runs ray_tracing_shapely's scenes from ray-optics JSON."""

    def __init__(self, path: Path) -> None:
        sys.path.insert(0, str(path))
        from ray_tracing_shapely.core import scene_objs
        from ray_tracing_shapely.core.scene import Scene
        from ray_tracing_shapely.core.simulator import Simulator

        self.objs, self.Scene, self.Simulator = scene_objs, Scene, Simulator

    def scene(self, data: dict) -> object:
        scene = self.Scene()
        for obj in data["objs"]:
            obj = dict(obj)
            kind = obj.pop("type")
            rays = obj.pop("numRays", None)
            obj.pop("rayBrightness", None)
            if kind == "CircleGlass":
                index = obj.get("refIndex", 1.5)
                kind, obj = "Glass", {"path": _two_arcs(obj["p1"], obj["p2"]), "refIndex": index}
            if kind == "PointSource":
                scene.ray_density = (rays + 0.5) / 500
                obj["brightness"] = scene.ray_density
            elif kind == "Beam":
                length = math.dist((obj["p1"]["x"], obj["p1"]["y"]), (obj["p2"]["x"], obj["p2"]["y"]))
                scene.ray_density = (rays + 0.5) / length
                obj["brightness"] = scene.ray_density
            scene.add_object(getattr(self.objs, kind)(scene, obj))
        return scene

    def trace(self, data: dict) -> int:
        scene = self.scene(data)
        return len(self.Simulator(scene, max_rays=10_000_000).run())


def _two_arcs(center: dict, rim: dict) -> list[dict]:
    cx, cy = center["x"], center["y"]
    r = math.dist((cx, cy), (rim["x"], rim["y"]))
    return [
        {"x": cx + r, "y": cy, "arc": False},
        {"x": cx, "y": cy + r, "arc": True},
        {"x": cx - r, "y": cy, "arc": False},
        {"x": cx, "y": cy - r, "arc": True},
    ]


def best_rate(run: Callable[[], int], repeat: int) -> tuple[float, int, float]:
    """(segments per second of the best run, segments, first run's seconds)."""
    start = time.perf_counter()
    segments = run()
    first = time.perf_counter() - start
    best = first
    for _ in range(repeat):
        start = time.perf_counter()
        segments = run()
        best = min(best, time.perf_counter() - start)
    return segments / best, segments, first


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--peer", type=Path, required=True, help="ray_tracing_shapely's src-python folder")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--only", help="scenes whose label contains this text")
    parser.add_argument("--cold", action="store_true", help="compile the kernels (an empty cache)")
    args = parser.parse_args()
    if args.cold:  # read by numba when the first trace imports it
        os.environ["NUMBA_CACHE_DIR"] = tempfile.mkdtemp(prefix="rays-peer-cold-")
    peer = Peer(args.peer)
    print(
        f"{'scene':<27} {'peer rays':>9} {'peer segs':>9} {'peer seg/s':>11} {'engine segs':>11} "
        f"{'engine seg/s':>12} {'first':>7} {'x peer, segments':>16} {'x peer, rays':>12}"
    )
    for label, (ours, theirs) in scenes().items():
        if args.only and args.only not in label:
            continue
        peer_rate, peer_segments, _ = best_rate(lambda d=theirs: peer.trace(d), max(1, args.repeat - 2))
        rate, segments, first = best_rate(
            lambda d=ours: len(engine.trace(scene_from_dict(copy.deepcopy(d))).segments), args.repeat
        )
        peer_rays, rays = (next(o["numRays"] for o in d["objs"] if "numRays" in o) for d in (theirs, ours))
        by_rays = (rate / segments * rays) / (peer_rate / peer_segments * peer_rays)
        print(
            f"{label:<27} {peer_rays:>9,} {peer_segments:>9,} {peer_rate:>11,.0f} {segments:>11,} "
            f"{rate:>12,.0f} {first:>6.2f}s {rate / peer_rate:>15.1f}x {by_rays:>11.1f}x"
        )


if __name__ == "__main__":
    main()
