"""``napari-talk rays detect SCENE.json`` and ``napari-talk rays check SCENE.json``.

``detect`` prints the scene's detector reading as ray-optics exports it (``Position,Irradiance``,
one row per bin): exit 0; no detector with an irradiance map, or a scene that cannot be read or
traced, is a message on stderr and exit 2. ``check`` loads and traces the scene and prints what it
holds (objects by kind, rays, segments, time), every note (what it did as ray-optics does, such as
stopping at the scene's ray count limit) and every warning: exit 0 clean (notes only), 1 loaded with
warnings, 2 refused.
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import TYPE_CHECKING

from .limits import MAX_SEGMENTS, MAX_TRACE_SECONDS

if TYPE_CHECKING:  # the simulator is imported when a rays command runs, not for every command line
    from .rayoptics.loader import LoadedScene
    from .rayoptics.simulator import Outcome
    from .scene import Scene

EXIT_OK, EXIT_WARNINGS, EXIT_REFUSED = 0, 1, 2


def add_rays_command(sub: argparse._SubParsersAction) -> None:
    """Register ``rays detect`` and ``rays check`` on the main command line."""
    rays = sub.add_parser("rays", help="trace a ray-optics scene file without a viewer")
    actions = rays.add_subparsers(dest="rays_action", required=True)
    for name, helptext in (
        ("detect", "print the detector's irradiance map as CSV"),
        ("check", "load and trace a scene; print its contents and every warning"),
    ):
        p = actions.add_parser(name, help=helptext)
        p.add_argument("scene", help="a ray-optics scene (.json, format version 5)")
        p.add_argument(
            "--budget",
            type=int,
            default=None,
            help=f"the most ray segments to trace before refusing the scene (default {MAX_SEGMENTS:,})",
        )
        p.add_argument(
            "--max-seconds",
            type=float,
            default=MAX_TRACE_SECONDS,
            help=f"the longest a trace may run before it is refused (default {MAX_TRACE_SECONDS:g} s)",
        )
        p.set_defaults(func=_run)


def _trace(path: str, budget: int | None, seconds: float) -> tuple[Scene, LoadedScene, Outcome, float]:
    """The scene read as every door reads it, and handed to the simulator as the engine hands it."""
    from .engine import simulator_scene
    from .rayoptics.simulator import simulate
    from .scene_json import load_scene

    model = load_scene(path)
    scene = simulator_scene(model)
    t0 = time.perf_counter()
    budget = MAX_SEGMENTS if budget is None else max(1, budget)
    outcome = simulate(
        scene.objs,
        scene.settings,
        max_depth=scene.max_depth,
        budget=budget,
        ray_limit=scene.ray_limit,
        max_seconds=max(0.0, seconds),
    )
    return model, scene, outcome, time.perf_counter() - t0


def _run(args: argparse.Namespace) -> int:
    from .rayoptics.base import SceneError
    from .rayoptics.simulator import BudgetExceeded

    try:
        model, scene, outcome, seconds = _trace(args.scene, args.budget, args.max_seconds)
    except (SceneError, BudgetExceeded, ValueError) as exc:  # the reader's SceneFormatError is a ValueError
        print(f"napari-talk rays {args.rays_action}: {args.scene}: {exc}", file=sys.stderr)
        return EXIT_REFUSED
    except RecursionError:
        print(
            f"napari-talk rays {args.rays_action}: {args.scene}: the scene nests too deeply", file=sys.stderr
        )
        return EXIT_REFUSED
    warnings = list(dict.fromkeys([*model.warnings, *scene.warnings, *outcome.warnings]))
    if outcome.brightness_scale == -1 and (scene.detectors() or scene.settings.simulate_colors):
        warnings.append(
            "the light sources' rays have different brightness scales, so detector readings "
            "and colours are not comparable between them (use colorMode 'linear')"
        )
    if args.rays_action == "detect":
        mapped = {id(d) for d in model.detectors if d.irrad_map}
        detectors = [d for d, owner in zip(scene.objs, scene.owners, strict=True) if id(owner) in mapped]
        if not detectors:
            what = "no Detector" if not scene.detectors() else "no Detector with irradMap on"
            print(f"napari-talk rays detect: {args.scene}: {what}; nothing to print", file=sys.stderr)
            return EXIT_REFUSED
        for warning in warnings:
            print(f"warning: {warning}", file=sys.stderr)
        print(detectors[0].csv())
        return EXIT_OK
    kinds = ", ".join(f"{n} {k}" for k, n in sorted(scene.kinds.items())) or "none"
    print(f"scene: {scene.name}")
    print(f"objects: {kinds}")
    if scene.skipped:
        print("not traced: " + ", ".join(f"{n} {k}" for k, n in sorted(scene.skipped.items())))
    print(f"rays emitted: {outcome.emitted}")
    print(f"segments traced: {outcome.segments}")
    print(f"time: {seconds:.3f} s")
    for det in scene.detectors():
        print(f"detector {det.name or ''}: power {det.power:.6g}".replace("detector :", "detector:"))
    for note in outcome.notes:
        print(f"note: {note}")
    for warning in warnings:
        print(f"warning: {warning}")
    return EXIT_WARNINGS if warnings else EXIT_OK
