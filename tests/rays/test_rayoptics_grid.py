"""The grid the nearest-hit search walks in scenes of many objects: it lists every primitive a
ray's half-line crosses in a cell the ray passes before the crossing, and a scene traced through it
gives the segment table ray-by-ray tracing gives, bit for bit."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from support.simulated import simulated

from napari_talk.packs.rays import engine
from napari_talk.packs.rays.rayoptics.base import line_crossings
from napari_talk.packs.rays.rayoptics.grid import Grid
from napari_talk.packs.rays.rayoptics.vector import VectorStage
from napari_talk.packs.rays.scene_json import scene_from_dict


def _pt(x: float, y: float) -> dict[str, float]:
    return {"x": x, "y": y}


def many_glasses(glasses: int = 200, rays: int = 24) -> dict[str, Any]:
    """Quadrilateral glasses in rows of 20 with a ball lens and a curved lens among them, lit by a
    slanted beam from outside and a beam starting among them."""
    objs: list[dict[str, Any]] = []
    for k in range(glasses):
        x, y = (k % 20) * 30, (k // 20) * 30
        path = [_pt(x, y), _pt(x + 20, y + 3), _pt(x + 18, y + 21), _pt(x - 2, y + 17)]
        objs.append({"type": "Glass", "path": path, "refIndex": 1.4 + 0.001 * k})
    objs.append({"type": "CircleGlass", "p1": _pt(305, 315), "p2": _pt(318, 315)})
    lens = {"d": 20, "r1": 150, "r2": -150}
    objs.append({"type": "SphericalLens", "p1": _pt(640, 100), "p2": _pt(640, 300), "params": lens})
    objs.append({"type": "Blocker", "p1": _pt(700, -50), "p2": _pt(700, 500)})
    objs.append({"type": "Beam", "p1": _pt(-60, -20), "p2": _pt(-40, 310), "numRays": rays, "brightness": 1})
    objs.append({"type": "Beam", "p1": _pt(284, 150), "p2": _pt(286, 180), "numRays": 12, "brightness": 1})
    return {"version": 5, "objs": objs, "randomSeed": "3"}


def test_a_scene_of_many_glasses_is_searched_through_a_grid() -> None:
    scene = simulated(many_glasses())
    stage = VectorStage(scene.objs, scene.settings, math.sqrt(scene.settings.min_len_sq))
    assert stage.grid is not None
    assert stage.grid.shape[0] * stage.grid.shape[1] > 400


def test_a_scene_of_many_glasses_traces_the_segments_ray_by_ray_tracing_gives() -> None:
    scene = scene_from_dict(many_glasses())
    fast, slow = engine.trace(scene), engine.trace(scene, ray_by_ray=True)
    assert len(fast.segments) > 5000
    columns = ("ids", "p1", "p2", "brightness_s", "brightness_p", "parent", "interaction", "depth")
    for name in (*columns, "source", "end_glass", "end_edge", "lost"):
        ours, theirs = getattr(fast.segments, name), getattr(slow.segments, name)
        assert np.array_equal(ours, theirs, equal_nan=True), name


def _random_segments(rng: np.random.Generator, n: int) -> tuple[np.ndarray, np.ndarray]:
    a = rng.uniform(0, 1000, (n, 2))
    b = a + rng.normal(0, 15, (n, 2))
    return a, b


def test_the_whole_line_lists_every_segment_the_half_line_crosses() -> None:
    rng = np.random.default_rng(5)
    a, b = _random_segments(rng, 2000)
    grid = Grid(np.minimum(a, b), np.maximum(a, b), 1e-4)
    starts = rng.uniform(-200, 1200, (300, 2))
    xy = np.c_[starts, starts + rng.normal(0, 1, (300, 2))]
    xy[:20, 2] = xy[:20, 0]  # upright rays
    xy[20:40, 3] = xy[20:40, 1]  # level rays
    ray, prim = grid.line(xy)
    listed = set(zip(ray.tolist(), prim.tolist(), strict=True))
    crossed, _, _ = line_crossings(*(xy[:, None, k] for k in range(4)), a[:, 0], a[:, 1], b[:, 0], b[:, 1])
    expected = set(zip(*(v.tolist() for v in np.nonzero(crossed)), strict=True))
    assert len(expected) > 1000
    assert expected <= listed
    assert len(listed) < 0.2 * len(xy) * len(a)  # and far from every pair


def test_a_walk_hands_out_every_crossing_within_reach_nearest_cells_first() -> None:
    rng = np.random.default_rng(8)
    a, b = _random_segments(rng, 1000)
    grid = Grid(np.minimum(a, b), np.maximum(a, b), 1e-4)
    starts = rng.uniform(0, 1000, (200, 2))
    xy = np.c_[starts, starts + rng.normal(0, 1, (200, 2))]
    reach = np.full(len(xy), 150.0)
    walk = grid.walk(xy)
    listed: set[tuple[int, int]] = set()
    rounds = 0
    while walk.active:
        ray, prim = walk.step(3, reach)
        listed |= set(zip(ray.tolist(), prim.tolist(), strict=True))
        rounds += 1
    crossed, px, py = line_crossings(*(xy[:, None, k] for k in range(4)), a[:, 0], a[:, 1], b[:, 0], b[:, 1])
    near = crossed & (np.hypot(px - xy[:, None, 0], py - xy[:, None, 1]) <= reach[:, None])
    expected = set(zip(*(v.tolist() for v in np.nonzero(near)), strict=True))
    assert len(expected) > 100
    assert expected <= listed
    assert 1 < rounds < 40  # the rays stopped once past reach, long before the grid's far side


def test_large_primitives_spanning_the_scene_leave_the_search_to_the_boxes() -> None:
    centres = np.random.default_rng(2).uniform(0, 10, (300, 2))
    radius = 1000.0
    grid = Grid(centres - radius, centres + radius, 1e-4)
    assert not grid.worth


def test_primitives_crowded_in_a_corner_of_a_large_scene_leave_the_search_to_the_boxes() -> None:
    corner = np.random.default_rng(4).uniform(0, 10, (400, 2))
    low = np.vstack([corner, [[5000.0, 5000.0]]])
    grid = Grid(low, low + 1, 1e-4)
    assert not grid.worth
