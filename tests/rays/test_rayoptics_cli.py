"""``napari-talk rays detect`` and ``rays check`` as a person runs them, including hostile scenes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

LIMIT_MB = 400


def rays(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "napari_talk", "rays", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        env={**os.environ, "PYTHONWARNINGS": "ignore"},
    )


def write(tmp_path: Path, scene: dict, name: str = "scene.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(scene))
    return path


def beam_onto_detector(**extra) -> dict:
    return {
        "version": 5,
        "rayModeDensity": 1,
        "objs": [
            {"type": "Beam", "p1": {"x": 0, "y": 0}, "p2": {"x": 0, "y": 10}},
            {
                "type": "Detector",
                "p1": {"x": 50, "y": -5},
                "p2": {"x": 50, "y": 15},
                "irradMap": True,
                "binSize": 5,
            },
            *extra.get("objs", []),
        ],
        **{k: v for k, v in extra.items() if k != "objs"},
    }


def rows(csv: str) -> list[tuple[float, float]]:
    lines = csv.strip().splitlines()
    assert lines[0] == "Position,Irradiance"
    return [tuple(map(float, line.split(","))) for line in lines[1:]]  # type: ignore[misc]


def test_detect_prints_the_irradiance_map(tmp_path):
    done = rays("detect", str(write(tmp_path, beam_onto_detector())))
    assert done.returncode == 0, done.stderr
    table = rows(done.stdout)
    assert [p for p, _ in table] == [0, 5, 10, 15]
    # a beam 10 units long at density 1 sends 10 rays of brightness 0.5 along +x; they cross the
    # detector (bins of 5, counted from its p1 at y=-5) between y=0.5 and y=9.5
    assert sum(v * 5 for _, v in table) == pytest.approx(5.0)
    assert table[0][1] == 0 and table[3][1] == 0


def test_check_reports_contents_and_exits_clean(tmp_path):
    done = rays("check", str(write(tmp_path, beam_onto_detector())))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "1 Beam" in done.stdout and "1 Detector" in done.stdout
    assert "rays emitted: 10" in done.stdout
    assert "warning" not in done.stdout


def test_numbers_written_as_strings_are_read_as_numbers(tmp_path):
    scene = beam_onto_detector(
        objs=[
            {
                "type": "Glass",
                "refIndex": "1.5",
                "path": [
                    {"x": "20", "y": "-20", "arc": False},
                    {"x": "30", "y": "-20", "arc": False},
                    {"x": "30", "y": "30", "arc": False},
                    {"x": "20", "y": "30", "arc": False},
                ],
            }
        ]
    )
    scene["rayModeDensity"] = "1"
    done = rays("check", str(write(tmp_path, scene)))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "1 Glass" in done.stdout


def test_an_unsupported_object_is_named_and_the_exit_says_warnings(tmp_path):
    scene = beam_onto_detector(objs=[{"type": "Teleporter", "p1": {"x": 1, "y": 1}}])
    done = rays("check", str(write(tmp_path, scene)))
    assert done.returncode == 1
    assert "Teleporter" in done.stdout


def test_a_formula_that_is_not_math_is_refused_without_running_it(tmp_path):
    marker = tmp_path / "pwned"
    scene = beam_onto_detector(
        objs=[
            {
                "type": "CustomMirror",
                "p1": {"x": 20, "y": 0},
                "p2": {"x": 20, "y": 10},
                "eqn": f"__import__('os').system('touch {marker}')",
            }
        ]
    )
    done = rays("check", str(write(tmp_path, scene)))
    assert done.returncode == 1
    assert "CustomMirror" in done.stdout
    assert not marker.exists()


@pytest.mark.parametrize(
    "text, why",
    [
        ("{not json", "not valid JSON"),
        (json.dumps({"version": 9, "objs": []}), "version"),
        (json.dumps([1, 2]), "objs"),
    ],
)
def test_unreadable_scenes_are_refused_with_exit_2(tmp_path, text, why):
    path = tmp_path / "bad.json"
    path.write_text(text)
    for action in ("detect", "check"):
        done = rays(action, str(path))
        assert done.returncode == 2
        assert why in done.stderr
        assert "Traceback" not in done.stderr


def test_detect_without_a_detector_is_exit_2(tmp_path):
    scene = {"version": 5, "objs": [{"type": "Beam", "p1": {"x": 0, "y": 0}, "p2": {"x": 0, "y": 10}}]}
    done = rays("detect", str(write(tmp_path, scene)))
    assert done.returncode == 2
    assert "no Detector" in done.stderr


def test_a_tiny_scene_asking_for_fifty_million_rays_is_refused_fast_and_small(tmp_path):
    scene = {"version": 5, "rayModeDensity": 1e5, "objs": [{"type": "PointSource", "x": 0, "y": 0}]}
    path = write(tmp_path, scene)
    assert path.stat().st_size < 120
    code = (
        "import resource, sys\n"
        f"resource.setrlimit(resource.RLIMIT_AS, ({LIMIT_MB} << 20, {LIMIT_MB} << 20))\n"
        "from napari_talk.cli import main\n"
        f"sys.exit(main(['rays', 'check', {str(path)!r}]))\n"
    )
    t0 = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert time.perf_counter() - t0 < 30
    assert done.returncode == 2, done.stderr
    assert "rays" in done.stderr and "limit" in done.stderr


def trapped_ray(*more: dict, **settings) -> dict:
    """A ray between two facing mirrors: it would bounce forever."""
    return {
        "version": 5,
        **settings,
        "objs": [
            {"type": "SingleRay", "p1": {"x": 0, "y": 0}, "p2": {"x": 1, "y": 0}},
            {"type": "Mirror", "p1": {"x": 10, "y": -5}, "p2": {"x": 10, "y": 5}},
            {"type": "Mirror", "p1": {"x": -10, "y": -5}, "p2": {"x": -10, "y": 5}},
            *more,
        ],
    }


CROP_BOX_OF_30_RAYS = {
    "type": "CropBox",
    "p1": {"x": -20, "y": -20},
    "p4": {"x": 20, "y": 20},
    "rayCountLimit": 30,
}


def test_a_trapped_ray_hits_the_segment_budget(tmp_path):
    done = rays("check", "--budget", "2000", str(write(tmp_path, trapped_ray())))
    assert done.returncode == 2
    assert "2,000 ray segments" in done.stderr


def test_max_ray_depth_stops_the_trapped_ray(tmp_path):
    done = rays("check", str(write(tmp_path, trapped_ray(maxRayDepth=50))))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "segments traced: 51" in done.stdout


def test_a_crop_box_ray_limit_is_a_note_not_a_warning(tmp_path):
    # ray-optics stops at a crop box's ray count limit by design: the scene is traced as it would be
    done = rays("check", str(write(tmp_path, trapped_ray(CROP_BOX_OF_30_RAYS))))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "segments traced: 31" in done.stdout
    assert "note: the simulation stopped at the scene's ray count limit (31 rays" in done.stdout
    assert "warning" not in done.stdout


def test_a_module_loop_is_bounded(tmp_path):
    scene = {
        "version": 5,
        "modules": {
            "Many": {
                "numPoints": 0,
                "params": [],
                "objs": [
                    {
                        "for": "i=0:1:1e7",
                        "type": "Blocker",
                        "p1": {"x": "`i`", "y": 0},
                        "p2": {"x": "`i`", "y": 1},
                    }
                ],
            }
        },
        "objs": [{"type": "ModuleObj", "module": "Many", "points": [], "params": {}}],
    }
    done = rays("check", str(write(tmp_path, scene)), timeout=60)
    assert done.returncode == 1
    assert "more than 1000" in done.stdout


def test_dark_sources_are_traced_not_a_crash(tmp_path):
    scene = {
        "version": 5,
        "objs": [
            {"type": "Beam", "p1": {"x": 0, "y": 0}, "p2": {"x": 0, "y": 100}, "brightness": 0},
            {"type": "PointSource", "x": 50, "y": 50, "brightness": 0},
            {"type": "AngleSource", "p1": {"x": 5, "y": 5}, "p2": {"x": 6, "y": 5}, "brightness": 0},
        ],
    }
    done = rays("check", str(write(tmp_path, scene)))
    assert done.returncode == 0, done.stderr
    assert "rays emitted: " in done.stdout and "rays emitted: 0" not in done.stdout
