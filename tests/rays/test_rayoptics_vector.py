"""The simulator's vector stage (a chunk of rays per step, by compiled kernels) traces exactly what
the objects' own methods trace ray by ray; the seeded draws it takes in blocks are the ones single
calls give; a scene's crop box stops a trapped ray where ray-optics stops it."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from support.simulated import simulated

from napari_talk.packs.rays.rayoptics.rng import SeededRandom
from napari_talk.packs.rays.rayoptics.simulator import Recorder, simulate


def _pt(x: float, y: float, *, arc: bool = False) -> dict[str, Any]:
    return {"x": x, "y": y, "arc": True} if arc else {"x": x, "y": y}


def glasses_and_lenses() -> dict[str, Any]:
    """Quadrilateral glasses in a grid, a ball lens and a spherical lens of arcs, lit by a beam
    and a point source: refraction, total reflection and faint reflections kept one in ``amp``."""
    objs: list[dict[str, Any]] = []
    for k in range(30):
        x, y = (k % 6) * 30, (k // 6) * 30
        path = [_pt(x, y), _pt(x + 20, y + 3), _pt(x + 18, y + 21), _pt(x - 2, y + 17)]
        objs.append({"type": "Glass", "path": path, "refIndex": 1.3 + 0.02 * k})
    objs.append({"type": "CircleGlass", "p1": _pt(260, 60), "p2": _pt(290, 60)})
    objs.append(
        {
            "type": "SphericalLens",
            "p1": _pt(340, 20),
            "p2": _pt(340, 120),
            "params": {"d": 20, "r1": 80, "r2": -80},
        }
    )
    objs.append({"type": "Blocker", "p1": _pt(420, -40), "p2": _pt(420, 200)})
    objs.append({"type": "Beam", "p1": _pt(-40, -10), "p2": _pt(-40, 150), "numRays": 200, "brightness": 1})
    objs.append({"type": "PointSource", "x": 230, "y": 20, "brightness": 0.5})
    return {"version": 5, "objs": objs, "randomSeed": "7"}


def _rows(data: dict[str, Any], vector: bool) -> np.ndarray:
    scene = simulated(data)
    record = Recorder()
    simulate(scene.objs, scene.settings, max_depth=scene.max_depth, record=record, vector=vector)
    return record.table()


def test_the_vector_stage_traces_what_ray_by_ray_tracing_traces() -> None:
    fast, slow = _rows(glasses_and_lenses(), True), _rows(glasses_and_lenses(), False)
    assert len(fast) > 2000
    assert fast.shape == slow.shape
    assert np.array_equal(fast, slow, equal_nan=True)
    assert (fast[:, 13] > 1).any()  # some faint reflections were kept as samples


def coloured_lenses() -> dict[str, Any]:
    """Colours (dispersion by ``cauchyB``), a glass without partial reflection, a negative index,
    a ball lens of arcs and a circle glass touching a slab, in the linear colour mode: every
    branch of the compiled glass physics, against the objects' own methods."""
    arc_ball = [_pt(100, 0), _pt(130, 30, arc=True), _pt(100, 60), _pt(70, 30, arc=True)]
    objs: list[dict[str, Any]] = [
        {"type": "Glass", "path": arc_ball, "refIndex": 1.7, "cauchyB": 0.01},
        {"type": "Glass", "path": [_pt(160, -20), _pt(190, -20), _pt(190, 80), _pt(160, 80)],
         "partialReflect": False},
        {"type": "Glass", "path": [_pt(220, -20), _pt(240, -20), _pt(240, 80), _pt(220, 80)],
         "refIndex": -1.4},
        {"type": "CircleGlass", "p1": _pt(280, 30), "p2": _pt(300, 30), "refIndex": 2.2},
        {"type": "Glass", "path": [_pt(300, 0), _pt(330, 0), _pt(330, 60), _pt(300, 60)]},
    ]  # fmt: skip
    for wavelength in (420, 540, 650):
        beam = {"type": "Beam", "p1": _pt(0, -10), "p2": _pt(10, 70), "numRays": 30, "brightness": 1}
        objs.append({**beam, "wavelength": wavelength})
    objs.append({"type": "PointSource", "x": 200, "y": 30, "brightness": 0.5, "wavelength": 500})
    settings = {"simulateColors": True, "colorMode": "linear", "maxRayDepth": 7}
    return {"version": 5, "objs": objs, "randomSeed": "11", **settings}


def test_the_compiled_glass_physics_traces_colours_negative_indices_and_arcs_as_ray_by_ray() -> None:
    fast, slow = _rows(coloured_lenses(), True), _rows(coloured_lenses(), False)
    assert len(fast) > 3000
    assert fast.shape == slow.shape
    assert np.array_equal(fast, slow, equal_nan=True)
    assert len(np.unique(fast[:, 8])) >= 4  # the wavelengths travelled


@pytest.mark.parametrize("seed", ["0", "abc", "0.123456789"])
def test_draws_taken_in_blocks_are_the_draws_of_single_calls(seed: str) -> None:
    one, block, python = SeededRandom(seed), SeededRandom(seed), SeededRandom(seed, fast=False)
    singles = [one() for _ in range(3000)]
    taken = np.r_[block.take(1), [block()], block.take(1998), block.take(1000)]
    assert taken.tolist() == singles
    assert [python() for _ in range(3000)] == singles


def test_draws_taken_in_blocks_of_any_size_follow_draws_that_read_more_bytes() -> None:
    one, block = SeededRandom("0"), SeededRandom("0")
    singles = [one() for _ in range(40_000)]
    taken: list[float] = []
    while len(taken) < len(singles):
        for size in (17, 4096, 3, 5000, 16, 9000):
            taken += block.take(size).tolist()
    assert taken[: len(singles)] == singles
    # about one draw in 4,096 reads more than 8 bytes: some were taken inside blocks
    assert sum(1 for v in singles if v < 2.0**-8 / 16) > 0


def cavity(limit: int | None) -> dict[str, Any]:
    crop: dict[str, Any] = {"type": "CropBox", "p1": _pt(-10, -10), "p4": _pt(110, 110)}
    if limit is not None:
        crop["rayCountLimit"] = limit
    return {
        "version": 5,
        "objs": [
            {"type": "Mirror", "p1": _pt(0, 0), "p2": _pt(0, 100)},
            {"type": "Mirror", "p1": _pt(100, 0), "p2": _pt(100, 100)},
            {"type": "SingleRay", "p1": _pt(50, 50), "p2": _pt(60, 50)},
            crop,
        ],
    }


def test_a_crop_box_stops_a_trapped_ray_after_its_ray_count_limit() -> None:
    scene = simulated(cavity(500))
    assert scene.ray_limit == 500
    outcome = simulate(scene.objs, scene.settings, max_depth=scene.max_depth, ray_limit=scene.ray_limit)
    assert outcome.segments == 501 and outcome.stopped
    assert any("ray count limit" in n for n in outcome.notes) and not outcome.warnings
    assert simulated(cavity(None)).ray_limit == 1e7
    assert simulated({"version": 5, "objs": cavity(5)["objs"][:3]}).ray_limit == float("inf")
