"""The rays pack in a real napari viewer: the sample's layers, highlighted queries, retrace after
editing a glass, loading scenes, and undo."""

from __future__ import annotations

import json

import numpy as np
import pytest

from napari_talk.core.running.session import Session
from napari_talk.packs.rays import agent, display
from napari_talk.packs.rays.analysis import find_rays_inside_glass
from napari_talk.packs.rays.display import LAYER_NAMES
from napari_talk.packs.rays.engine import trace
from napari_talk.packs.rays.roles import ROLE_KEY, layer_role
from napari_talk.packs.rays.samples import prism_demo, prism_demo_scene
from napari_talk.packs.rays.scene import Glass
from napari_talk.packs.rays.writer import scene_to_dict


def roles(viewer) -> dict[str, object]:
    return {layer_role(layer.metadata): layer for layer in viewer.layers if layer_role(layer.metadata)}


def run_ok(session, text):
    turn = session.run(text)
    assert turn.ok, turn.message
    return turn


@pytest.fixture
def demo_viewer(make_napari_viewer):
    viewer = make_napari_viewer()
    for data, kwargs, kind in prism_demo():
        getattr(viewer, f"add_{kind}")(data, **kwargs)
    yield viewer
    agent.clear_context()


def test_the_prism_demo_sample_is_glasses_labels_and_rays():
    layers = prism_demo()
    assert [(kwargs["name"], kind) for _, kwargs, kind in layers] == [
        ("rays: segments", "vectors"),
        ("rays: glasses", "shapes"),
        ("rays: edge labels", "points"),
        ("rays: light sources", "points"),
    ]
    (lines, _, _), (glasses, glass_kwargs, _), (points, label_kwargs, _), (sources, _, _) = layers
    source = prism_demo_scene().sources[0]
    assert sources.tolist() == [[source.y, source.x]], "the light source is drawn where the rays start"
    starts = np.array([line[0] for line in lines])
    assert np.isclose(starts, sources[0]).all(axis=1).sum() >= 40
    assert glass_kwargs["features"]["name"] == ["Main Prism"]
    assert np.allclose(glasses[0], prism_demo_scene().glasses[0].vertices[:, ::-1])  # (row, col) = (y, x)
    assert label_kwargs["features"]["label"] == ["W", "E", "N"] and points.shape == (3, 2)
    assert 80 <= len(lines) <= 130
    json.dumps(glass_kwargs["metadata"])  # the scene travels as JSON in the layer


def test_alpha_follows_brightness_and_colour_follows_polarization():
    result = trace(prism_demo_scene())
    segments = result.segments
    by_brightness = display.ray_colors(segments, "brightness")
    order = np.argsort(segments.total)
    assert np.all(np.diff(by_brightness[order, 3]) >= 0) and by_brightness[:, 3].max() == 1.0
    assert np.ptp(by_brightness[:, :3], axis=0).max() == 0  # one colour
    by_polarization = display.ray_colors(segments, "polarization")
    dop = segments.degree_of_polarization
    assert np.array_equal(by_polarization[:, 3], by_brightness[:, 3])
    polarized, unpolarized = np.argmax(dop), np.argmin(dop)
    assert by_polarization[polarized, 1] < by_polarization[unpolarized, 1]  # less yellow, more magenta


def test_a_query_highlights_its_rays_and_replies_with_a_count_and_a_table(demo_viewer):
    session = Session(demo_viewer)
    assert session.known_names()["glasses"] == ["Main Prism"]
    turn = run_ok(session, "rays inside the prism")
    result = session.state("rays").current.result
    expected = find_rays_inside_glass(result.segments, result_scene(session).glasses[0])
    message = turn.message
    assert message.startswith(
        f"{len(expected)} of {len(result.segments)} ray segments are inside Main Prism."
    )
    assert "kind" in message and "refract" in message
    data = turn.results[0].data
    assert data["count"] == len(expected) and [r["id"] for r in data["rays"]] == list(expected.ids)
    json.dumps(data)
    selection = roles(demo_viewer)["selection"]
    assert len(selection.data) == len(expected)
    assert np.allclose(np.array(selection.data)[:, 0], expected.p1[:, ::-1])
    # a glow over the rays, not an opaque band: the rays' own colours show through
    assert selection.blending == "additive" and np.all(np.asarray(selection.edge_color)[:, 3] < 0.5)
    run_ok(session, "rays crossing edge N of Main Prism")
    assert (
        len(roles(demo_viewer)["selection"].data)
        == session.run("rays crossing edge N of Main Prism").results[0].data["count"]
    )
    assert agent.get_context() == {}  # the scene lives in the session's state alone


def result_scene(session):
    return session.state("rays").current.scene


def test_every_query_runs_in_the_viewer(demo_viewer):
    session = Session(demo_viewer)
    for line in (
        "rays at 0 to 30 degrees to edge N of Main Prism",
        "rays with polarization between 0 and 0.1",
        "top 3 paths by energy",
        "is energy conserved",
        "fresnel from 1.5 to 1 at 30 degrees",
        "describe the edges of the prism",
    ):
        turn = run_ok(session, line)
        json.dumps(turn.results[0].data)
    ranked = run_ok(session, "top 3 paths by energy").results[0]
    assert ranked.meta["chart"]["image"].startswith("data:image/png;base64,")
    assert "energy of each path" in ranked.meta["chart"]["caption"]
    listed = run_ok(session, "rays inside Main Prism").results[0]
    assert "energy of each segment listed" in listed.meta["chart"]["caption"]
    assert "Energy is conserved" in session.run("check energy conservation").message
    assert "R_s = 0.105773" in session.run("fresnel from 1.5 to 1 at 30 degrees").message
    failed = session.run("rays crossing edge Q of Main Prism")
    assert not failed.ok and "Available labels: ['W', 'E', 'N']" in failed.message


def test_retrace_after_editing_a_glass_and_undo(demo_viewer):
    session = Session(demo_viewer)
    before = run_ok(session, "rays inside the prism").results[0].data["count"]
    traced_before = session.state("rays").current.result.segments
    glasses = roles(demo_viewer)["glasses"]
    moved = [np.array(d) for d in glasses.data]
    moved[0][1] += [-80, 30]  # drag the apex (row, col)
    glasses.data = moved
    assert "retrace" in session.run("rays inside the prism").message  # the rays are stale
    run_ok(session, "retrace")
    edited = session.state("rays").current.scene
    assert np.allclose(edited.glasses[0].vertices, moved[0][:, ::-1])
    after = run_ok(session, "rays inside the prism").results[0].data["count"]
    expected = find_rays_inside_glass(trace(edited).segments, edited.glasses[0])
    assert after == len(expected)
    traced_after = session.state("rays").current.result.segments
    assert len(traced_after) != len(traced_before) or not np.allclose(traced_after.p2, traced_before.p2)
    assert len(roles(demo_viewer)["rays"].data) == len(trace(edited).segments)
    run_ok(session, "undo")  # takes back the retrace; the person's own drag stays theirs
    stale = session.run("rays inside the prism")
    assert stale.results[0].data["count"] == before and "retrace" in stale.message
    assert np.allclose(roles(demo_viewer)["glasses"].data[0], moved[0])


def test_a_new_shape_becomes_a_glass(demo_viewer):
    session = Session(demo_viewer)
    run_ok(session, "rays inside the prism")
    glasses = roles(demo_viewer)["glasses"]
    glasses.add_polygons([np.array([[350.0, 150.0], [350.0, 220.0], [420.0, 220.0], [420.0, 150.0]])])
    turn = run_ok(session, "retrace")
    assert "Glass 1" in turn.message
    assert session.known_names()["glasses"] == ["Main Prism", "Glass 1"]
    assert list(roles(demo_viewer)["glasses"].features["name"]) == ["Main Prism", "Glass 1"]
    run_ok(session, "rays inside Glass 1")


def test_colour_by_polarization_and_clear_the_selection_with_undo(demo_viewer):
    session = Session(demo_viewer)
    run_ok(session, "color rays by polarization")
    rays = roles(demo_viewer)["rays"]
    assert rays.metadata[ROLE_KEY]["color_by"] == "polarization"
    assert len({tuple(np.round(c[:3], 3)) for c in rays.edge_color}) > 1
    run_ok(session, "undo")
    assert roles(demo_viewer)["rays"].metadata[ROLE_KEY]["color_by"] == "brightness"
    run_ok(session, "rays inside the prism")
    run_ok(session, "clear the ray selection")
    assert "selection" not in roles(demo_viewer)
    run_ok(session, "undo")
    assert "selection" in roles(demo_viewer)


def test_load_a_scene_file_from_the_workspace_and_undo(make_napari_viewer, workspace):
    viewer = make_napari_viewer()
    session = Session(viewer)
    missing = session.run("rays inside the prism")
    assert not missing.ok and "Prism demo" in missing.message and "load scene" in missing.message
    scene = prism_demo_scene().with_glasses(
        (Glass("Slab 1", [(200, 100), (500, 100), (500, 140), (200, 140)]),)
    )
    (workspace / "scenes").mkdir()
    (workspace / "scenes" / "slab.json").write_text(json.dumps(scene_to_dict(scene)))
    turn = run_ok(session, "load scene scenes/slab.json")
    assert "Slab 1" in turn.message
    assert set(roles(viewer)) == {"glasses", "edge labels", "rays", "sources"}
    source = scene.sources[0]
    assert viewer.layers[LAYER_NAMES["sources"]].data.tolist() == [[source.y, source.x]]
    run_ok(session, "rays inside Slab 1")
    refused = session.run("load scene ../outside.json")
    assert not refused.ok and "outside the workspace" in refused.message
    run_ok(session, "undo")  # the load (the failed one recorded nothing)
    assert roles(viewer).keys() <= {"selection"} and session.state("rays").current is None
    run_ok(session, "load the prism demo")
    assert session.known_names()["glasses"] == ["Main Prism"]


def test_a_scene_of_more_glasses_than_the_label_limit_is_drawn_without_labels_and_says_so(
    make_napari_viewer, workspace, monkeypatch
):
    """napari lays out every label (a Shapes layer's text at a cost growing with the square of its
    shapes), so past the setting's number of glasses their names and edge labels are not drawn;
    the reply says so and how to raise it, names only the first glasses, and the glasses stay
    queryable by name."""
    monkeypatch.setenv(display.LABELS_VARIABLE, "50")
    glasses = [
        {"type": "Glass", "refIndex": 1.5, "path": [{"x": x, "y": y, "arc": False} for x, y in corners]}
        for n in range(60)
        for corners in [[(10 * n, 0), (10 * n + 5, 0), (10 * n + 5, 5)]]
    ]
    beam = {"type": "Beam", "p1": {"x": -20, "y": 0}, "p2": {"x": -20, "y": 5}, "numRays": 5}
    (workspace / "many.json").write_text(json.dumps({"version": 5, "objs": [beam, *glasses]}))
    viewer = make_napari_viewer()
    session = Session(viewer)
    turn = run_ok(session, "load scene many.json")
    assert f"{display.LABELS_VARIABLE}=60" in turn.message and "not drawn for more than 50" in turn.message
    assert "and 20 more (60 glasses)" in turn.message and len(turn.message) < 1500
    shown = roles(viewer)
    assert len(shown["glasses"].data) == 60 and len(shown["edge labels"].data) == 0
    assert not shown["glasses"].text.values.any(), "no name is laid out"
    assert len(session.known_names()["glasses"]) == 60
    monkeypatch.setenv(display.LABELS_VARIABLE, "60")
    turn = run_ok(session, "load scene many.json")
    assert "not drawn" not in turn.message
    shown = roles(viewer)
    assert len(shown["edge labels"].data) == 180 and shown["glasses"].text.values[59] == "Glass 60"


def test_big_traces_are_drawn_as_vectors(make_napari_viewer):
    scene = prism_demo_scene(n_rays=8000)
    data, kwargs, kind = display.ray_layer(scene, trace(scene))
    assert kind == "vectors" and len(data) > 5000
    layer = make_napari_viewer().add_vectors(data, **kwargs)
    assert np.allclose(layer.edge_color[:, 3], kwargs["edge_color"][:, 3])


def test_a_session_without_a_viewer_still_answers():
    session = Session(None)
    run_ok(session, "load the prism demo")
    turn = run_ok(session, "rays crossing edge N of the prism")
    assert turn.results[0].data["count"] > 0
    lines = session.context_lines(["rays"])
    assert "Main Prism" in lines[0] and "segments traced" in lines[0]
    assert lines[1] == "  glass 'Main Prism': n = 1.5, edges W, E, N"
    agent.clear_context()
