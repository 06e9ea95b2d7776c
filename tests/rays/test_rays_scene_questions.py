"""Questions about the ray scene typed into the dock, answered from the scene: how many rays, an
object's index, place and size, and angle and Fresnel questions that name the scene's glass."""

from __future__ import annotations

import math

import pytest
from support.door import open_door, type_line, typed_ok

from napari_talk.core.grammar.parser import parse
from napari_talk.packs.rays import agent
from napari_talk.packs.rays.engine import trace
from napari_talk.packs.rays.fresnel import fresnel_transmittances
from napari_talk.packs.rays.samples import prism_demo_scene


@pytest.fixture
def dock(make_napari_viewer_proxy, workspace, qtbot):
    dock = open_door(make_napari_viewer_proxy, workspace)
    typed_ok(qtbot, dock, "load the prism demo")
    yield dock
    agent.clear_context()


def test_how_many_rays_counts_what_the_sources_emit_and_the_segments(dock, qtbot):
    demo = prism_demo_scene()
    said = typed_ok(qtbot, dock, "how many rays are there?")
    emitted = demo.sources[0].n_rays
    assert said.startswith(f"{emitted} rays leave the light sources (Point source 1: {emitted})")
    assert f"{len(trace(demo).segments):,} segments" in said
    typed_ok(qtbot, dock, "more rays")
    assert typed_ok(qtbot, dock, "count the rays").startswith(f"{2 * emitted} rays leave")


def test_an_objects_index_place_and_size_are_read_from_the_scene(dock, qtbot):
    assert typed_ok(qtbot, dock, "what's the prism's index") == "Main Prism: refractive index n = 1.5."
    typed_ok(qtbot, dock, "set the index of the prism to 1.7")
    assert "n = 1.7" in typed_ok(qtbot, dock, "what is the refractive index of Main Prism")
    source = prism_demo_scene().sources[0]
    assert f"({source.x:.1f}, {source.y:.1f})" in typed_ok(qtbot, dock, "where is Point source 1")
    width = 450.0 - 250.0
    assert f"{width:.4g} wide" in typed_ok(qtbot, dock, "how big is the prism")
    told = typed_ok(qtbot, dock, "tell me about the prism")
    assert told.startswith("Main Prism: glass,") and "n = 1.7" in told
    refused = type_line(qtbot, dock, "what is the index of Point source 1")
    assert refused.kind == "error" and "no refractive index" in refused.text
    assert "Traceback" not in refused.text


def test_angle_and_fresnel_questions_take_the_index_of_the_glass_they_name(dock, qtbot):
    said = typed_ok(qtbot, dock, "critical angle from glass to air")
    assert f"{math.degrees(math.asin(1 / 1.5)):.4f}°" in said and "Main Prism (n = 1.5)" in said
    typed_ok(qtbot, dock, "set the index of the prism to 1.7")
    said = typed_ok(qtbot, dock, "what is the critical angle of the prism")
    assert f"{math.degrees(math.asin(1 / 1.7)):.4f}°" in said
    said = typed_ok(qtbot, dock, "brewster angle from air into the prism")
    assert f"{math.degrees(math.atan2(1.7, 1.0)):.4f}°" in said
    said = typed_ok(qtbot, dock, "fresnel from the prism to water at 20 degrees")
    assert f"R_s = {fresnel_transmittances(1.7, 1.333, 20)['R_s']:.6f}" in said
    said = typed_ok(qtbot, dock, "critical angle from glass 1.5 to air")
    assert f"{math.degrees(math.asin(1 / 1.5)):.4f}°" in said, "an index typed is still the index"


def test_a_glass_named_without_a_scene_is_refused_in_a_sentence(make_napari_viewer_proxy, workspace):
    dock = open_door(make_napari_viewer_proxy, workspace)
    result = dock.session.execute({"action": "optics_angle", "kind": "critical", "n1": "glass", "n2": 1})
    assert not result.ok and "no ray scene" in result.message and "\n" not in result.message


OBJECT, ANGLE = "describe_scene_object", "optics_angle"
DEMO_LINES = [
    ("how many rays are there", {"action": "count_rays"}),
    ("what's the prism's index", {"action": OBJECT, "name": "Main Prism", "what": "index"}),
    ("where is the point source", {"action": OBJECT, "name": "point source", "what": "position"}),
    ("critical angle from glass to air", {"action": ANGLE, "kind": "critical", "n1": "glass", "n2": 1}),
    ("critical angle from glass 1.5 to air", {"action": ANGLE, "kind": "critical", "n1": 1.5, "n2": 1}),
    ("rays inside the prism", {"action": "find_rays_inside_glass", "glass_name": "Main Prism"}),
]


@pytest.mark.parametrize(("line", "expected"), DEMO_LINES)
def test_the_questions_parse_with_the_demo_scene(line, expected):
    """A word that names one object ("glass", "point source") is resolved by the handler."""
    context = {
        "layers": ["rays: glasses", "rays: segments"],
        "glasses": ["Main Prism"],
        "scene_objects": ["Main Prism", "Point source 1"],
        "scene_object_words": ["glass", "main", "point source", "prism"],
    }
    assert [c.to_wire() for c in parse(line, context)] == [expected]
