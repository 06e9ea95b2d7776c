"""A trace made before the compiled kernels are loaded runs the same passes in plain Python: the
same segments, bit for bit, with no numba imported; a scene too large for it is traced by the
kernels after all."""

from __future__ import annotations

import subprocess
import sys
from typing import Any

import numpy as np
import pytest
from test_rayoptics_grid import many_glasses
from test_rayoptics_vector import coloured_lenses

from napari_talk.packs.rays import engine
from napari_talk.packs.rays.samples import prism_demo_scene
from napari_talk.packs.rays.scene import Scene
from napari_talk.packs.rays.scene_json import scene_from_dict

COLUMNS = (
    "ids", "p1", "p2", "brightness_s", "brightness_p", "wavelength", "parent", "interaction", "depth",
    "source", "end_glass", "end_edge", "lost", "weight",
)  # fmt: skip


def random_beams() -> dict[str, Any]:
    """A random beam (its draws taken in a block by the compiled kernel, or by calls) through a slab."""
    slab = [{"x": 0, "y": 0}, {"x": 200, "y": 0}, {"x": 200, "y": 40}, {"x": 0, "y": 40}]
    beam = {"type": "Beam", "p1": {"x": 50, "y": -60}, "p2": {"x": 150, "y": -60}, "brightness": 1}
    objs = [{"type": "Glass", "path": slab}, {**beam, "random": True, "emisAngle": 20}]
    return {"version": 5, "objs": objs, "randomSeed": "5", "rayModeDensity": 1}


SCENES = {
    "prism demo": prism_demo_scene(),
    "prism of 300 rays": prism_demo_scene(300),
    "many glasses": scene_from_dict(many_glasses()),
    "coloured lenses": scene_from_dict(coloured_lenses()),
    "random beam": scene_from_dict(random_beams()),
}


@pytest.mark.parametrize("scene", SCENES.values(), ids=SCENES.keys())
def test_a_plain_trace_gives_the_segments_the_kernels_give(scene: Scene) -> None:
    plain, fast = engine.trace(scene, compiled=False), engine.trace(scene, compiled=True)
    assert len(plain.segments) == len(fast.segments) > 50
    for name in COLUMNS:
        ours, theirs = getattr(plain.segments, name), getattr(fast.segments, name)
        assert np.array_equal(ours, theirs, equal_nan=True), name
    assert plain.summary["balance_error"] == fast.summary["balance_error"]


def test_a_scene_too_large_for_plain_python_is_traced_by_the_kernels(monkeypatch) -> None:
    monkeypatch.setattr(engine, "_kernels_loaded", False)
    monkeypatch.setattr(engine, "PLAIN_SEGMENTS", 200)
    passes: list[bool] = []
    segments = engine._segments
    monkeypatch.setattr(engine, "_segments", lambda *a: passes.append(a[-1]) or segments(*a))
    small, large = engine.trace(prism_demo_scene()), engine.trace(prism_demo_scene(300))
    assert passes == [False, True]  # the large one's plain trace stopped at the budget, before its table
    assert len(small.segments) < 200 < len(large.segments)
    with pytest.raises(ValueError, match="budget of 150"):
        engine.trace(prism_demo_scene(300), max_segments=150)


def test_a_trace_before_the_kernels_are_loaded_imports_no_numba() -> None:
    script = (
        "import sys\n"
        "from napari_talk.packs.rays.samples import prism_demo\n"
        "layers = prism_demo()\n"
        "rays = next(data for data, kwargs, kind in layers if kwargs['name'] == 'rays: segments')\n"
        "print(len(rays), 'numba' in sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split() == ["99", "False"]
