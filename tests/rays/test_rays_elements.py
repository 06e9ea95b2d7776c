"""Mirrors and ideal lenses against hand formulas: reflection angles, the focal length, imaging."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from napari_talk.packs.rays.engine import trace
from napari_talk.packs.rays.scene import Glass, IdealLens, Mirror, PointSource, Scene, SingleRay
from napari_talk.packs.rays.scene_json import scene_from_dict
from napari_talk.packs.rays.simulation import REFLECT, REFRACT
from napari_talk.packs.rays.writer import scene_to_dict


def unit(v) -> np.ndarray:
    v = np.asarray(v, dtype=float)
    return v / np.linalg.norm(v)


def directions(segments) -> np.ndarray:
    d = segments.p2 - segments.p1
    return d / np.linalg.norm(d, axis=1, keepdims=True)


@pytest.mark.parametrize("tilt", [0.0, 20.0, 135.0])
@pytest.mark.parametrize("incidence", [0.0, 30.0, 75.0, -50.0])
@pytest.mark.parametrize("side", [1, -1])
def test_a_mirror_reflects_at_the_angle_of_incidence_with_all_the_energy(tilt, incidence, side):
    t = math.radians(tilt)
    tangent, normal = np.array([math.cos(t), math.sin(t)]), np.array([-math.sin(t), math.cos(t)]) * side
    mirror = Mirror(tuple(-50 * tangent), tuple(50 * tangent))
    i = math.radians(incidence)
    towards = -(math.cos(i) * normal) + math.sin(i) * tangent  # coming in against the normal
    start = tuple(-40 * towards + 5 * tangent)
    result = trace(Scene(sources=(SingleRay(start, tuple(np.add(start, towards)), 1.0),), elements=(mirror,)))
    segments = result.segments
    assert len(segments) == 2 and segments.interaction[1] == REFLECT and segments.parent[1] == 0
    assert np.allclose(segments.p2[0], 5 * tangent, atol=1e-9)
    out = directions(segments)[1]
    # the tangential part is kept, the normal part turned over: angle out = angle in, on the same side
    assert out @ tangent == pytest.approx(towards @ tangent, abs=1e-12)
    assert out @ normal == pytest.approx(-(towards @ normal), abs=1e-12)
    assert math.degrees(math.atan2(abs(out @ tangent), out @ normal)) == pytest.approx(
        abs(incidence), abs=1e-9
    )
    assert segments.brightness_s[1] == segments.brightness_s[0] == 0.5
    assert segments.brightness_p[1] == segments.brightness_p[0] == 0.5
    assert result.summary["escaped_energy"] == pytest.approx(1.0)


def test_two_mirrors_at_a_right_angle_send_light_back_the_way_it_came():
    corner = (Mirror((0, 0), (100, 0)), Mirror((0, 0), (0, 100)))
    ray = SingleRay((80, 60), (70, 50))
    segments = trace(Scene(sources=(ray,), elements=corner)).segments
    assert len(segments) == 3 and list(segments.interaction[1:]) == [REFLECT, REFLECT]
    assert np.allclose(directions(segments)[2], -unit((-10, -10)))


@pytest.mark.parametrize("focal", [100.0, 40.0, -100.0])
@pytest.mark.parametrize("height", [10.0, 30.0, -20.0])
@pytest.mark.parametrize("travel", [1, -1])
def test_a_ray_parallel_to_the_axis_crosses_it_at_the_focal_length(focal, height, travel):
    """Lens on x = 0 from y = −50 to 50: a ray at height h along ±x leaves with slope −h/f, so it
    (or, diverging, its backward extension) crosses the axis y = 0 at x = ±f."""
    lens = IdealLens((0.0, -50.0), (0.0, 50.0), focal)
    ray = SingleRay((-60.0 * travel, height), (-59.0 * travel, height))
    segments = trace(Scene(sources=(ray,), elements=(lens,))).segments
    assert len(segments) == 2 and segments.interaction[1] == REFRACT
    assert np.allclose(segments.p1[1], (0.0, height))
    d = directions(segments)[1]
    crossing = -height / d[1] * d[0]  # x where the child's line meets y = 0
    assert crossing == pytest.approx(travel * focal, rel=1e-12)
    assert (d[0] > 0) == (travel > 0)  # the light goes on through the lens
    assert segments.total[1] == segments.total[0]


def test_an_ideal_lens_images_a_point_by_the_lens_equation():
    """Object 300 before a lens of f = 100: 1/v = 1/f − 1/u gives the image 150 behind it, where
    every ray through the lens must pass."""
    lens = IdealLens((0.0, -80.0), (0.0, 80.0), 100.0)
    source = PointSource(-300.0, 20.0, 360)
    segments = trace(Scene(sources=(source,), elements=(lens,))).segments
    through = np.flatnonzero(segments.interaction == REFRACT)
    assert len(through) > 20
    d = directions(segments.take(through))
    at_image = segments.p1[through] + d * ((150.0 - segments.p1[through, 0]) / d[:, 0])[:, None]
    assert np.allclose(at_image, (150.0, -20 * 150 / 300), atol=1e-9)  # magnification −v/u


def elements_scene() -> Scene:
    return Scene(
        glasses=(Glass("block", [(100, -40), (160, -40), (160, 40), (100, 40)], 1.5),),
        sources=(PointSource(-120.0, 10.0, 180), SingleRay((-50.0, 120.0), (0.0, 100.0))),
        name="elements",
        elements=(
            IdealLens((0.0, -60.0), (0.0, 60.0), 80.0),
            Mirror((220.0, -100.0), (240.0, 100.0)),
            Mirror((-200.0, 150.0), (200.0, 160.0)),
            IdealLens((60.0, -200.0), (160.0, -180.0), -50.0),
        ),
    )


def test_segments_ending_on_mirrors_and_lenses_are_marked_and_go_on():
    segments = trace(elements_scene()).segments
    ended_on_element = segments.end_glass == -2
    assert ended_on_element.any() and not segments.escaped[ended_on_element].any()


def test_mirrors_and_lenses_survive_a_round_trip_through_json():
    scene = elements_scene()
    again = scene_from_dict(json.loads(json.dumps(scene_to_dict(scene))))
    assert again.elements == scene.elements
    assert np.array_equal(trace(again).segments.p2, trace(scene).segments.p2)


@pytest.mark.parametrize(
    ("element", "message"),
    [
        (lambda: Mirror((1, 1), (1, 1)), "two different end points"),
        (lambda: IdealLens((0, 0), (0, 1), 0.0), "non-zero focal length"),
        (lambda: IdealLens((0, 0), (math.inf, 1), 10.0), "finite"),
    ],
)
def test_degenerate_elements_are_refused(element, message):
    with pytest.raises(ValueError, match=message):
        element()


def test_mirrors_and_lenses_are_drawn_as_lines_and_the_scene_reads_back_whole():
    from napari.components import ViewerModel

    from napari_talk.packs.rays import display, layers

    scene = elements_scene()
    data, kwargs, kind = display.glass_layer(scene)
    assert kind == "shapes"
    layer = ViewerModel().add_shapes(data, **kwargs)
    assert list(layer.shape_type) == ["polygon"] + ["line"] * 4
    assert list(layer.features["name"]) == [
        "block",
        "Ideal lens 1 (f = 80)",
        "Mirror 1",
        "Mirror 2",
        "Ideal lens 2 (f = -50)",
    ]
    assert np.allclose(layer.data[2], [[-100.0, 220.0], [100.0, 240.0]])  # (row, col) = (y, x)
    again = layers.scene_of(layer)
    assert again.elements == scene.elements and again.names == ["block"]
    assert np.array_equal(again.glasses[0].vertices, scene.glasses[0].vertices)
