"""Scenes: the data model's checks, edge labels, and the ray-optics JSON (version 5) format."""

from __future__ import annotations

import json

import numpy as np
import pytest

from napari_talk.packs.rays.edges import cardinal_labels, edge_labels, get_edge_descriptions, resolve_edge
from napari_talk.packs.rays.engine import trace
from napari_talk.packs.rays.samples import prism_demo_scene
from napari_talk.packs.rays.scene import (
    Beam,
    Glass,
    IdealLens,
    Mirror,
    PointSource,
    Scene,
    SingleRay,
    get_object_by_name,
)
from napari_talk.packs.rays.scene_json import SceneFormatError, load_scene, scene_from_dict
from napari_talk.packs.rays.writer import scene_to_dict

SQUARE = [(0, 0), (10, 0), (10, 10), (0, 10)]


def ray_optics_scene() -> dict:
    """A scene as the ray-optics app saves it (defaults left out, as it does)."""
    return {
        "version": 5,
        "objs": [
            {
                "type": "Glass",
                "path": [
                    {"x": 300, "y": 200, "arc": False},
                    {"x": 400, "y": 200, "arc": False},
                    {"x": 350, "y": 280, "arc": False},
                ],
                "refIndex": 1.6,
            },
            {"type": "PointSource", "x": 100, "y": 240},
            {"type": "SingleRay", "p1": {"x": 0, "y": 0}, "p2": {"x": 10, "y": 5}, "brightness": 0.8},
            {"type": "Beam", "p1": {"x": 500, "y": 300}, "p2": {"x": 500, "y": 400}, "brightness": 0.05},
            {"type": "Mirror", "p1": {"x": 0, "y": 0}, "p2": {"x": 1, "y": 1}},
            {"type": "IdealLens", "p1": {"x": 600, "y": 300}, "p2": {"x": 600, "y": 400}},
            {"type": "BeamSplitter", "p1": {"x": 0, "y": 0}, "p2": {"x": 1, "y": 1}},
            {
                "type": "Glass",
                "path": [{"x": 0, "y": 0, "arc": False}, {"x": 5, "y": 5, "arc": True}, {"x": 9, "y": 0}],
            },
        ],
        "rayModeDensity": 0.2,
    }


def test_a_ray_optics_scene_loads_with_its_defaults(tmp_path):
    path = tmp_path / "demo.json"
    path.write_text(json.dumps(ray_optics_scene()))
    scene = load_scene(path)
    assert scene.name == "demo"
    glass, curved = scene.glasses
    assert curved.name == "Glass 2" and curved.outline is not None and len(curved.outline.sides) == 2
    assert glass.name == "Glass 1" and glass.ref_index == 1.6 and glass.cauchy_b == 0.004
    assert np.array_equal(glass.vertices, [[300, 200], [400, 200], [350, 280]])
    point, single, beam = scene.sources
    assert (
        isinstance(point, PointSource) and point.n_rays == 100 and point.brightness == 1.0
    )  # min(0.5 / 0.2, 1)
    assert isinstance(single, SingleRay) and single.brightness == 0.8 and single.p2 == (10.0, 5.0)
    assert isinstance(beam, Beam) and beam.n_rays == 20 and beam.brightness == pytest.approx(0.25)
    assert scene.elements == (
        Mirror((0.0, 0.0), (1.0, 1.0)),
        IdealLens((600.0, 300.0), (600.0, 400.0), 100.0),
    )
    assert [o.type for o in scene.others] == ["BeamSplitter"]  # kept for the simulator, not dropped
    assert not any("BeamSplitter" in w for w in scene.warnings)
    assert not any("arc" in w or "Glass" in w for w in scene.warnings)
    origins, directions, _ = beam.emit()
    assert np.allclose(directions, [[1, 0]])  # ray-optics: p1 → p2 downward, rays go right
    assert np.allclose(origins[[0, -1], 1], [302.5, 397.5])
    result = trace(scene)
    assert result.summary["warnings"] == list(scene.warnings)


def test_writing_and_reading_back_keeps_the_scene_and_its_trace():
    scene = prism_demo_scene()
    again = scene_from_dict(json.loads(json.dumps(scene_to_dict(scene))))
    assert again.name == "Prism demo" and again.names == ["Main Prism"]
    assert again.glasses[0].labels == "cardinal"
    assert again.sources == scene.sources
    first, second = trace(scene).segments, trace(again).segments
    assert np.array_equal(first.p2, second.p2) and np.array_equal(first.brightness_p, second.brightness_p)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"version": 4, "objs": []}, "version 4"),
        ({"objs": []}, "version None"),
        ([], "JSON object"),
        ({"version": 5, "objs": [{"type": "Glass"}]}, "missing 'path'"),
        ({"version": 5, "objs": [{"type": "PointSource", "x": "a", "y": 0}]}, "x must be a number"),
        (
            {"version": 5, "objs": [{"type": "Glass", "path": [{"x": 0, "y": 0}, {"x": 1, "y": 1}]}]},
            "3 distinct",
        ),
    ],
)
def test_what_cannot_be_read_is_refused_with_a_reason(data, message):
    with pytest.raises(SceneFormatError, match=message):
        scene_from_dict(data)


def test_invalid_json_names_the_file_and_line(tmp_path):
    path = tmp_path / "broken.json"
    path.write_text('{"version": 5,\n "objs": [}')
    with pytest.raises(SceneFormatError, match=r"broken.json is not valid JSON \(line 2"):
        load_scene(path)


def test_glasses_must_be_simple_polygons_with_unique_names():
    with pytest.raises(ValueError, match="cross each other"):
        Glass("bow tie", [(0, 0), (10, 10), (10, 0), (0, 12)])
    with pytest.raises(ValueError, match="no area"):
        Glass("flat", [(0, 0), (5, 0), (10, 0)])
    with pytest.raises(ValueError, match="refractive index"):
        Glass("void", SQUARE, ref_index=0)
    with pytest.raises(ValueError, match="unique"):
        Scene((Glass("A", SQUARE), Glass("A", SQUARE)))
    closed = Glass("closed", [*SQUARE, (0, 0)])  # a repeated closing vertex is not an edge
    assert closed.n_edges == 4


def test_outward_normals_point_out_whatever_the_winding():
    for vertices in (SQUARE, SQUARE[::-1]):
        glass = Glass("g", vertices)
        midpoints = (glass.starts + glass.ends) / 2
        assert np.all(np.einsum("ij,ij->i", glass.outward_normals, midpoints - glass.vertex_centroid) > 0)


def test_cardinal_labels_take_plus_y_as_north():
    assert cardinal_labels(np.array(SQUARE, float)) == [
        ("S", "South Edge"),
        ("E", "East Edge"),
        ("N", "North Edge"),
        ("W", "West Edge"),
    ]
    assert [s for s, _ in edge_labels(prism_demo_scene().glasses[0])] == ["W", "E", "N"]
    octagon = np.c_[np.cos(np.arange(8) * np.pi / 4 + 0.39), np.sin(np.arange(8) * np.pi / 4 + 0.39)]
    assert [s for s, _ in cardinal_labels(octagon)] == ["NE", "N", "NW", "W", "SW", "S", "SE", "E"]


def test_cardinal_labels_stay_unique_when_the_compass_is_too_coarse():
    crowded = np.array([(0, 0), (10, 0), (10, 1), (9, 2), (10, 3), (10, 4), (0, 4)], float)
    labels = [s for s, _ in cardinal_labels(crowded)]
    assert len(set(labels)) == len(labels)


def test_index_labels_by_default_and_resolution_rules():
    glass = Glass("g", SQUARE)
    assert [e.short_label for e in get_edge_descriptions(glass)] == ["0", "1", "2", "3"]
    cardinal = Glass("c", SQUARE, labels="cardinal")
    assert resolve_edge(cardinal, "N").index == 2
    assert resolve_edge(cardinal, "North Edge").index == 2
    assert resolve_edge(cardinal, "2").index == 2
    assert resolve_edge(cardinal, "n").index == 2
    assert resolve_edge(cardinal, "north").index == 2
    with pytest.raises(ValueError, match=r"No edge matching 'Q'. Available labels: \['S', 'E', 'N', 'W'\]"):
        resolve_edge(cardinal, "Q")
    explicit = Glass("x", SQUARE, labels=[("in", "Entry"), ("top", "Top"), ("out", "Exit"), ("base", "Base")])
    assert resolve_edge(explicit, "Exit").short_label == "out"
    assert Glass("x", SQUARE, labels=explicit.labels).moved_to([(0, 0), (5, 0), (0, 5)]).labels == "index"


def test_get_object_by_name_lists_the_names_there_are():
    scene = prism_demo_scene()
    assert get_object_by_name(scene, "Main Prism") is scene.glasses[0]
    with pytest.raises(ValueError) as error:
        get_object_by_name(scene, "Nonexistent")
    assert str(error.value) == "No object named 'Nonexistent'. Named objects: ['Main Prism']"
    with pytest.raises(ValueError, match=r"Named objects: \(none\)"):
        get_object_by_name(Scene(), "x")


def test_sources_emit_what_they_promise():
    origins, directions, brightness = PointSource(1, 2, n_rays=4, brightness=0.5).emit()
    assert np.allclose(directions, [[0, 1], [1, 0], [0, -1], [-1, 0]], atol=1e-15)  # ray-optics order
    assert np.allclose(origins, [[1, 2]] * 4) and np.all(brightness == 0.5)
    with pytest.raises(ValueError):
        SingleRay((0, 0), (0, 0)).emit()


def _square(name: str, x: float, y: float, side: float, n: float = 1.5) -> Glass:
    return Glass(name, np.array([(x, y), (x + side, y), (x + side, y + side), (x, y + side)]), n)


@pytest.mark.parametrize(
    ("first", "second"),
    [
        (_square("Outer", 0, 0, 10), _square("Inner", 3, 3, 2, 1.8)),  # nested
        (_square("A", 0, 0, 10), _square("B", 5, 5, 10)),  # crossing
        (_square("A", 0, 0, 10), _square("B", 0, 0, 10)),  # the same place
    ],
    ids=["nested", "crossing", "coincident"],
)
def test_overlapping_glasses_are_refused_with_both_names(first, second):
    with pytest.raises(ValueError, match=rf"glasses '{first.name}' and '{second.name}' overlap"):
        Scene((first, second), (PointSource(-5, 5),))


@pytest.mark.parametrize(
    "second",
    [_square("B", 10, 0, 10), _square("B", 10, 2, 4), _square("B", 10, 10, 5), _square("B", 30, 0, 5)],
    ids=["shared edge", "part of an edge", "corner", "apart"],
)
def test_glasses_that_only_touch_are_a_scene(second):
    assert Scene((_square("A", 0, 0, 10), second)).names == ["A", "B"]


def test_a_scene_file_with_nested_glasses_is_traced_as_ray_optics_merges_them(workspace):
    from napari_talk.core.running.session import Session

    nested = {
        "version": 5,
        "objs": [
            {
                "type": "Glass",
                "name": "Outer",
                "p1": {"x": 0, "y": 0},
                "refIndex": 1.5,
                "path": [
                    {"x": 0, "y": 0, "arc": False},
                    {"x": 100, "y": 0, "arc": False},
                    {"x": 100, "y": 100, "arc": False},
                    {"x": 0, "y": 100, "arc": False},
                ],
            },
            {
                "type": "Glass",
                "name": "Core",
                "refIndex": 1.8,
                "path": [
                    {"x": 40, "y": 40, "arc": False},
                    {"x": 60, "y": 40, "arc": False},
                    {"x": 60, "y": 60, "arc": False},
                    {"x": 40, "y": 60, "arc": False},
                ],
            },
            {"type": "PointSource", "x": -50, "y": 50, "brightness": 0.5},
        ],
    }
    (workspace / "nested.json").write_text(json.dumps(nested))
    session = Session(workspace=workspace)
    turn = session.run("load scene nested.json")
    assert turn.ok, turn.message
    state = session.state("rays").current
    assert [o.name for o in state.scene.others] == ["Outer", "Core"]
    segments = state.result.segments
    assert (segments.end_glass == -2).sum() >= 4  # into Outer, into Core, out of Core, out of Outer


def beam_scene(length: float, brightness: float = 0.5, **settings) -> Scene:
    beam = {"type": "Beam", "p1": {"x": 0, "y": 0}, "p2": {"x": 0, "y": length}, "brightness": brightness}
    return scene_from_dict({"version": 5, "objs": [beam], **settings})


@pytest.mark.parametrize(
    ("length", "settings", "count", "first", "spacing"),
    [
        # n = length × density / lengthScale; a ray at each i = 0.5, 1.5, ... <= n, i × (length / n) along
        (100.0, {}, 10, 5.0, 10.0),  # n = 10: i = 0.5 … 9.5
        (4.0, {}, 0, None, None),  # n = 0.4: not even i = 0.5
        (5.0, {}, 1, 5.0, None),  # n = 0.5: i = 0.5 only, which lands on p2
        (14.9, {}, 1, 5.0, None),  # n = 1.49: 1.5 > n
        (15.0, {}, 2, 5.0, 10.0),  # n = 1.5: i = 0.5 and 1.5 (the second on p2)
        (100.0, {"lengthScale": 2}, 5, 10.0, 20.0),  # n = 5, spacing lengthScale / density = 20
        (100.0, {"rayModeDensity": 0.25}, 25, 2.0, 4.0),
        (10.0, {"mode": "images"}, 10, 0.5, 1.0),  # imageModeDensity, default 1
    ],
)
def test_beam_rays_are_counted_and_placed_as_ray_optics_does(length, settings, count, first, spacing):
    scene = beam_scene(length, **settings)
    (beam,) = scene.sources
    origins, directions, _ = beam.emit()
    assert beam.n_rays == len(origins) == count
    if count:
        assert origins[0, 1] == pytest.approx(first) and np.allclose(origins[:, 0], 0)
        assert np.allclose(directions, [[1, 0]])
    if spacing is not None:
        assert np.allclose(np.diff(origins[:, 1]), spacing)
    assert any("emits no rays" in w for w in scene.warnings) == (count == 0)


def test_a_beam_with_no_rays_traces_to_nothing_and_survives_a_round_trip():
    scene = beam_scene(4.0)
    result = trace(scene)
    assert len(result.segments) == 0 and result.summary["source_energy"] == 0
    again = scene_from_dict(json.loads(json.dumps(scene_to_dict(scene))))
    assert again.sources == scene.sources


@pytest.mark.parametrize(
    ("brightness", "settings", "per_ray"),
    [
        (0.5, {}, 1.0),  # min(0.5 × 1 / 0.1, 1)
        (0.05, {}, 0.5),
        (0.01, {"lengthScale": 2}, 0.2),  # 0.01 × 2 / 0.1
        (0.05, {"lengthScale": 0.5, "rayModeDensity": 0.5}, 0.05),
    ],
)
def test_beam_ray_brightness_follows_the_length_scale(brightness, settings, per_ray):
    (beam,) = beam_scene(100.0, brightness, **settings).sources
    assert beam.brightness == pytest.approx(per_ray)


def test_a_point_source_below_one_ray_at_its_density_still_emits_one():
    """ray-optics steps 2π / parseInt(500 × density): an infinite step, so one ray at angle 0."""
    scene = scene_from_dict(
        {"version": 5, "objs": [{"type": "PointSource", "x": 0, "y": 0}], "rayModeDensity": 0.001}
    )
    assert scene.sources[0].n_rays == 1
