"""What ray-optics defines for three things its gallery uses: ``random()`` in a module (the scene's
seeded generator), the cubic-Bézier curve type of parametric objects, and a ray reaching two
objects that cannot merge at one point (undefined behaviour, handed to the first of them)."""

from __future__ import annotations

import math

import pytest
from support.simulated import simulated

from napari_talk.packs.rays.rayoptics.formula import FormulaError, compile_tree, parse
from napari_talk.packs.rays.rayoptics.rng import SeededRandom
from napari_talk.packs.rays.rayoptics.simulator import Recorder, simulate


def _scattered(seed: str | None) -> dict:
    scene: dict = {
        "version": 5,
        "modules": {
            "Scatter": {
                "numPoints": 1,
                "params": ["n=1:1:10:3"],
                "objs": [
                    {
                        "for": "i=1:1:n",
                        "type": "Blocker",
                        "p1": {"x": "`x_1 + random()*100`", "y": "`y_1 + random()*100`"},
                        "p2": {"x": "`x_1 + 200`", "y": "`random()`"},
                    }
                ],
            }
        },
        "objs": [
            {"type": "ModuleObj", "module": "Scatter", "points": [{"x": 10, "y": 20}], "params": {"n": 3}}
        ],
    }
    if seed is not None:
        scene["randomSeed"] = seed
    return scene


def test_random_in_a_module_draws_the_scene_seed_in_ray_optics_order():
    objs = simulated(_scattered("42")).objs
    rng = SeededRandom("42")
    expected = []
    for _ in range(3):  # each object's keys in order: p1.x, p1.y, then p2.y
        x, y, y2 = rng(), rng(), rng()
        expected.append((10 + x * 100, 20 + y * 100, 210, y2))
    assert [(*o.p1, *o.p2) for o in objs] == expected
    again = simulated(_scattered("42")).objs
    assert [o.p1 for o in again] == [o.p1 for o in objs]
    assert [o.p1 for o in simulated(_scattered("7")).objs] != [o.p1 for o in objs]


def test_random_follows_the_scene_generator_into_the_simulation():
    # the module draws first; random beams traced after it continue the same generator
    loaded = simulated(_scattered("5"))
    rng = SeededRandom("5")
    for _ in range(9):
        rng()
    assert loaded.settings.rng() == rng()


def test_random_outside_a_module_is_refused_clearly():
    with pytest.raises(FormulaError, match="seeded generator"):
        compile_tree(parse("random()").tree)
    draws = iter([0.25, 0.5])
    assert compile_tree(parse("2*random() + random(9)").tree, lambda: next(draws))({}) == 1.0


def _room(curve_type: str, step: float) -> dict:
    circle = {"eqnX": "100\\cos\\left(t\\right)", "eqnY": "100\\sin\\left(t\\right)"}
    return {
        "version": 5,
        "objs": [
            {
                "type": "ParamMirror",
                "origin": {"x": 0, "y": 0},
                "pieces": [{**circle, "tMin": 0, "tMax": 2 * math.pi, "tStep": step}],
                "curveType": curve_type,
            },
            {"type": "SingleRay", "p1": {"x": 0, "y": 0}, "p2": {"x": math.cos(0.3), "y": math.sin(0.3)}},
        ],
        "maxRayDepth": 1,
    }


def _first_hit(scene: dict) -> tuple[float, float]:
    loaded = simulated(scene)
    assert loaded.warnings == []
    record = Recorder()
    simulate(loaded.objs, loaded.settings, max_depth=loaded.max_depth, record=record)
    row = record.table()[0]
    return float(row[4]), float(row[5])


def test_cubic_bezier_follows_the_curve_between_coarse_samples():
    # samples every 0.6 rad: a ray at 0.3 rad meets the chord well inside the circle, the cubic
    # matching the curve's slope at both samples almost on it
    chord = math.hypot(*_first_hit(_room("polygonal", 0.6)))
    cubic = math.hypot(*_first_hit(_room("cubicBezier", 0.6)))
    assert chord == pytest.approx(100 * math.cos(0.3), rel=1e-9)
    assert abs(cubic - 100) < 0.05 and abs(chord - 100) > 4


def test_cubic_bezier_reflects_with_the_cubics_normal():
    scene = _room("cubicBezier", 0.6)
    scene["maxRayDepth"] = 2
    loaded = simulated(scene)
    record = Recorder()
    simulate(loaded.objs, loaded.settings, max_depth=loaded.max_depth, record=record)
    rows = record.table()
    # the ray from the centre meets the cubic midway between samples, where by symmetry its
    # tangent is perpendicular to the radius: it comes straight back through the centre
    back = rows[1]
    direction = (back[2] - back[0], back[3] - back[1])
    assert direction[0] * math.cos(0.3) + direction[1] * math.sin(0.3) == pytest.approx(
        -math.hypot(*direction), rel=1e-9
    )


def test_cubic_bezier_needs_a_derivative_it_can_take():
    scene = _room("cubicBezier", 0.6)
    scene["objs"][0]["pieces"][0]["eqnX"] = "100\\operatorname{floor}\\left(t\\right)+\\max\\left(t,1\\right)"
    loaded = simulated(scene)
    assert any("derivative" in w for w in loaded.warnings)


def test_two_blockers_meeting_a_ray_at_one_point_is_undefined_and_the_first_takes_it():
    scene = {
        "version": 5,
        "objs": [
            {"type": "Blocker", "p1": {"x": 100, "y": -50}, "p2": {"x": 100, "y": 50}, "name": "short"},
            {"type": "Blocker", "p1": {"x": 100, "y": -500}, "p2": {"x": 100, "y": 500}, "name": "long"},
            {"type": "SingleRay", "p1": {"x": 0, "y": 0}, "p2": {"x": 1, "y": 0.1}},
        ],
    }
    loaded = simulated(scene)
    record = Recorder()
    outcome = simulate(loaded.objs, loaded.settings, record=record)
    short = next(i for i, obj in enumerate(loaded.objs) if obj.name == "short")
    assert [int(r[10]) for r in record.table()] == [short]
    assert outcome.undefined == pytest.approx(1.0)
    assert len(outcome.warnings) == 1
    assert "short and long meet" in outcome.warnings[0]
    assert "move them slightly apart" in outcome.warnings[0]
    # apart, nothing is undefined
    scene["objs"][0]["p1"]["x"] = scene["objs"][0]["p2"]["x"] = 101
    loaded = simulated(scene)
    assert simulate(loaded.objs, loaded.settings).warnings == []
