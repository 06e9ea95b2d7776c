"""The simulator's vectorized nearest-object search traces exactly what testing every object
against every ray traces: the same segments, in the same order, with the same numbers."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from support.simulated import simulated, simulated_file

from napari_talk.packs.rays.rayoptics.simulator import Recorder, simulate

REPO = Path(__file__).resolve().parents[2]
SUITE = next(
    (
        p
        for p in (
            REPO.parent / "shared" / "raysuite" / "scenes",
            REPO.parent.parent / "shared" / "raysuite" / "scenes",
        )
        if p.is_dir()
    ),
    None,
)


def _pt(x: float, y: float) -> dict[str, float]:
    return {"x": x, "y": y}


def _square(x: float, y: float, size: float) -> dict[str, Any]:
    return {
        "type": "Glass",
        "path": [_pt(x, y), _pt(x + size, y), _pt(x + size, y + size), _pt(x, y + size)],
    }


def tiled_glasses() -> dict[str, Any]:
    """Squares sharing their sides (coincident surfaces merge), a mirror along one shared side and
    a blocker touching a corner: the merging rules decide every hit."""
    objs: list[dict[str, Any]] = [_square(20 * i, 20 * j, 20) for i in range(6) for j in range(4)]
    objs.append({"type": "Mirror", "p1": _pt(120, -10), "p2": _pt(120, 90)})
    objs.append({"type": "Blocker", "p1": _pt(60, 80), "p2": _pt(70, 120)})
    objs.append({"type": "Beam", "p1": _pt(-30, -5), "p2": _pt(-20, 85), "numRays": 40, "brightness": 0.5})
    return {"version": 5, "objs": objs}


def curved() -> dict[str, Any]:
    """A ball lens, a biconvex lens of arcs, an arc mirror and a circle blocker."""
    lens = [
        _pt(100, -40),
        _pt(110, -40),
        _pt(
            120,
            0,
        ),
        _pt(110, 40),
        _pt(100, 40),
        _pt(90, 0),
    ]
    lens[2]["arc"], lens[5]["arc"] = True, True  # type: ignore[assignment]
    return {
        "version": 5,
        "objs": [
            {"type": "CircleGlass", "p1": _pt(0, 0), "p2": _pt(30, 0)},
            {"type": "Glass", "path": lens},
            {"type": "ArcMirror", "p1": _pt(200, -60), "p2": _pt(200, 60), "p3": _pt(230, 0)},
            {"type": "CircleBlocker", "p1": _pt(150, 70), "p2": _pt(160, 70)},
            {"type": "Beam", "p1": _pt(-60, -35), "p2": _pt(-60, 35), "numRays": 60, "brightness": 1},
        ],
    }


def _rows(data: dict[str, Any] | Path, exhaustive: bool) -> np.ndarray:
    scene = simulated_file(data) if isinstance(data, Path) else simulated(data)
    record = Recorder()
    simulate(scene.objs, scene.settings, max_depth=scene.max_depth, record=record, exhaustive=exhaustive)
    return record.table()


def _same(data: dict[str, Any] | Path) -> None:
    fast, slow = _rows(data, False), _rows(data, True)
    assert fast.shape == slow.shape and len(fast) > 0
    assert np.array_equal(fast, slow, equal_nan=True)


@pytest.mark.parametrize("build", [tiled_glasses, curved], ids=["tiled", "curved"])
def test_vectorized_search_traces_what_testing_every_object_traces(build: Any) -> None:
    _same(build())


def test_a_ray_starting_on_a_surface_it_shares_with_another_is_traced_the_same() -> None:
    data = tiled_glasses()
    data["objs"].append(
        {"type": "SingleRay", "p1": _pt(40, 10), "p2": _pt(41, 10 + math.tan(0.3)), "brightness": 1}
    )
    _same(data)


SUITE_SCENES = (
    sorted(p for p in SUITE.rglob("*.json") if p.with_suffix(".csv").exists())[::6] if SUITE else []
)


@pytest.mark.skipif(not SUITE_SCENES, reason="ray-optics' test scenes (../shared/raysuite) are absent")
@pytest.mark.parametrize("path", SUITE_SCENES, ids=lambda p: p.stem)
def test_suite_scenes_trace_the_same_either_way(path: Path) -> None:
    _same(path)
