"""Scene files for the viewer's tracer: declared ray counts are bounded before any ray exists, and
thousands of glasses load without testing every pair for overlap."""

from __future__ import annotations

import time

import pytest

from napari_talk.packs.rays.scene_json import MAX_SOURCE_RAYS, SceneFormatError, scene_from_dict


def square(x: float, y: float, size: float = 20) -> dict:
    return {
        "type": "Glass",
        "path": [
            {"x": x, "y": y},
            {"x": x + size, "y": y},
            {"x": x + size, "y": y + size},
            {"x": x, "y": y + size},
        ],
    }


@pytest.mark.parametrize(
    "scene",
    [
        {"version": 5, "rayModeDensity": 1e5, "objs": [{"type": "PointSource", "x": 0, "y": 0}]},
        {
            "version": 5,
            "objs": [{"type": "Beam", "p1": {"x": 0, "y": 0}, "p2": {"x": 0, "y": 1}, "numRays": 5e7}],
        },
    ],
)
def test_a_scene_declaring_too_many_rays_is_refused_before_making_them(scene):
    with pytest.raises(SceneFormatError, match="limit of 2,000,000") as caught:
        scene_from_dict(scene)
    assert "max_rays" in str(caught.value)


def test_the_limit_can_be_raised():
    scene = {"version": 5, "rayModeDensity": 5000, "objs": [{"type": "PointSource", "x": 0, "y": 0}]}
    assert MAX_SOURCE_RAYS < 500 * 5000
    loaded = scene_from_dict(scene, max_rays=3_000_000)
    assert loaded.sources[0].n_rays == 2_500_000


def test_thousands_of_separate_glasses_load_in_linear_time():
    def load(n: int) -> float:
        objs = [square((k % 100) * 30, (k // 100) * 30) for k in range(n)]
        start = time.perf_counter()
        scene = scene_from_dict({"version": 5, "objs": objs})
        assert len(scene.glasses) == n
        return time.perf_counter() - start

    small, large = load(500), load(5000)
    assert large < 30 * small  # a pairwise check would be ~100x


def test_overlapping_glasses_are_still_found_among_many():
    objs = [square((k % 50) * 30, (k // 50) * 30) for k in range(1000)]
    objs.append(square(35, 35, 10))  # inside the glass at (30, 30)
    scene = scene_from_dict({"version": 5, "objs": objs})
    assert len(scene.glasses) == 999 and len(scene.others) == 2  # the pair, left to the simulator
    assert {o.points[0] for o in scene.others} == {(30.0, 30.0), (35.0, 35.0)}
