"""Editing a ray scene by typing into the dock on napari's viewer proxy: each edit traced again,
drawn, undone and redone; the scene saved as ray-optics JSON and read back by the loader."""

from __future__ import annotations

import json

import numpy as np
import pytest
from support.door import open_door, said, type_line, typed_ok

from napari_talk.packs.rays import agent, display, editing
from napari_talk.packs.rays.analysis import find_rays_inside_glass
from napari_talk.packs.rays.engine import trace
from napari_talk.packs.rays.roles import layer_role
from napari_talk.packs.rays.samples import prism_demo_scene
from napari_talk.packs.rays.scene_json import load_scene


def roles(viewer) -> dict[str, object]:
    return {layer_role(layer.metadata): layer for layer in viewer.layers if layer_role(layer.metadata)}


@pytest.fixture
def dock(make_napari_viewer_proxy, workspace, qtbot):
    dock = open_door(make_napari_viewer_proxy, workspace)
    typed_ok(qtbot, dock, "load the prism demo")
    yield dock
    agent.clear_context()


def scene(dock):
    return dock.session.state("rays").current.scene


def test_add_move_rotate_reindex_each_traced_again_and_undone(dock, qtbot):
    viewer = dock.viewer
    original = scene(dock)
    said = typed_ok(qtbot, dock, "add a point source at 10, 10")
    assert "Point source 2" in said
    added = scene(dock).sources[-1]
    assert (added.x, added.y) == (10.0, 10.0)
    sources = roles(viewer)["sources"].data
    assert [10.0, 10.0] in sources.tolist(), "the new source is drawn"
    assert len(roles(viewer)["rays"].data) == len(trace(scene(dock)).segments) > len(trace(original).segments)

    typed_ok(qtbot, dock, "move the prism up by 20")
    moved = scene(dock).glasses[0].vertices
    assert np.allclose(moved, original.glasses[0].vertices + np.array([0, 20]))
    assert np.allclose(roles(viewer)["glasses"].data[0], moved[:, ::-1]), "drawn where it now is"

    typed_ok(qtbot, dock, "rotate the prism 15 degrees")
    turned = scene(dock).glasses[0]
    centre = moved.mean(axis=0)
    angle = np.radians(15)
    expected = (moved - centre) @ np.array(
        [[np.cos(angle), np.sin(angle)], [-np.sin(angle), np.cos(angle)]]
    ) + centre
    assert np.allclose(turned.vertices, expected), "counter-clockwise about its centre, y up"

    said = typed_ok(qtbot, dock, "set the index of the prism to 1.7")
    assert "1.5 → 1.7" in said and scene(dock).glasses[0].ref_index == 1.7
    inside = typed_ok(qtbot, dock, "rays inside the prism")
    expected = find_rays_inside_glass(trace(scene(dock)).segments, scene(dock).glasses[0])
    assert inside.startswith(f"{len(expected)} of "), "the query reads the new trace"

    for _ in range(4):
        typed_ok(qtbot, dock, "undo")
    back = scene(dock)
    assert len(back.sources) == 1 and back.glasses[0].ref_index == 1.5
    assert np.allclose(back.glasses[0].vertices, original.glasses[0].vertices)
    assert np.allclose(roles(viewer)["glasses"].data[0], original.glasses[0].vertices[:, ::-1])
    rays = roles(viewer)["rays"]
    assert len(rays.data) == len(trace(original).segments)
    assert np.allclose(rays.edge_color[:, :3], display.RAY_COLOR), "the rays keep their colour through undo"
    typed_ok(qtbot, dock, "redo")
    assert len(scene(dock).sources) == 2


def test_remove_and_more_rays(dock, qtbot):
    typed_ok(qtbot, dock, "add a beam at 100, 200 pointing at 45 degrees")
    beam = scene(dock).sources[-1]
    direction = beam.emit()[1][0]
    assert np.allclose(direction, [np.cos(np.radians(45)), np.sin(np.radians(45))])
    before = len(dock.session.state("rays").current.result.segments)
    typed_ok(qtbot, dock, "more rays")
    assert scene(dock).sources[0].n_rays == 2 * prism_demo_scene().sources[0].n_rays
    assert len(dock.session.state("rays").current.result.segments) > before
    said = typed_ok(qtbot, dock, "remove Beam 1")
    assert "Removed Beam 1" in said and len(scene(dock).sources) == 1
    missing = type_line(qtbot, dock, "remove Beam 1")
    assert missing.kind == "error"


def test_a_bad_edit_changes_nothing_and_says_why(dock, qtbot):
    before = scene(dock)
    typed_ok(qtbot, dock, "add a point source at 0, 0")
    reply = type_line(qtbot, dock, "set the index of Point source 2 to 1.6")
    assert reply.kind == "error" and "no refractive index" in reply.text
    assert scene(dock).glasses == before.glasses


def test_describe_scene_and_optics_angles(dock, qtbot):
    said = typed_ok(qtbot, dock, "describe the scene")
    assert "Main Prism: glass, at (350.0, 242.3)" in said and "n = 1.5" in said
    assert "Point source 1: point source, at (240.0, 390.0)" in said
    said = typed_ok(qtbot, dock, "what is the critical angle from glass 1.5 to air")
    assert "41.8103°" in said
    said = typed_ok(qtbot, dock, "critical angle from 1 to 1.5")
    assert "no critical angle" in said
    said = typed_ok(qtbot, dock, "brewster angle for 1.0 into 1.33")
    assert f"{np.degrees(np.arctan(1.33)):.4f}°" in said


def test_save_the_edited_scene_and_read_it_back(dock, qtbot, workspace):
    typed_ok(qtbot, dock, "add a point source at 10, 10")
    typed_ok(qtbot, dock, "rotate the prism 30 degrees")
    said = typed_ok(qtbot, dock, "save the scene as scenes/new.json")
    path = workspace / "scenes" / "new.json"
    assert str(path) in said
    data = json.loads(path.read_text())
    assert data["version"] == 5 and {o["type"] for o in data["objs"]} == {"Glass", "PointSource"}
    reread = load_scene(path)
    shown = scene(dock)
    assert [o.name for o in editing.objects(reread)] == [o.name for o in editing.objects(shown)]
    assert np.allclose(reread.glasses[0].vertices, shown.glasses[0].vertices)
    assert [(s.x, s.y, s.n_rays) for s in reread.sources] == [(s.x, s.y, s.n_rays) for s in shown.sources]
    assert len(trace(reread).segments) == len(dock.session.state("rays").current.result.segments)
    typed_ok(qtbot, dock, "undo")
    assert not path.exists(), "undo takes back the file it wrote"


def test_the_first_query_on_an_opened_sample_reads_in_a_job(make_napari_viewer_proxy, workspace, qtbot):
    """A sample opened from the menu is traced the first time a query needs it, off the GUI thread,
    and the query draws nothing but its highlight."""
    dock = open_door(make_napari_viewer_proxy, workspace)
    viewer = dock.viewer
    viewer.open_sample("napari-talk", "prism_demo")
    layers_before = {role: layer.unique_id for role, layer in roles(viewer).items()}
    jobs = []
    run = dock.session.jobs.wait
    dock.session.jobs.wait = lambda job: jobs.append(job.label) or run(job)
    said = typed_ok(qtbot, dock, "which rays cross edge N of Main Prism")
    assert jobs == ["tracing Prism demo"] and "ray segments cross" in said
    after = {role: layer.unique_id for role, layer in roles(viewer).items()}
    assert after.pop("selection") and after == layers_before, "only the highlight was added"
    assert dock.session.history.next_undo() is None, "a query records no change"
    jobs.clear()
    typed_ok(qtbot, dock, "rays inside Main Prism")
    assert jobs == [], "the trace is kept"


DETECTOR_SCENE = {
    "version": 5,
    "objs": [
        {"type": "Beam", "p1": {"x": 0, "y": 0}, "p2": {"x": 0, "y": 100}},
        {
            "type": "Detector",
            "p1": {"x": 50, "y": 0},
            "p2": {"x": 50, "y": 100},
            "irradMap": True,
            "binSize": 10,
        },
    ],
}


def test_detector_readings_as_a_plot_and_a_table(make_napari_viewer_proxy, workspace, qtbot):
    """A beam of ray-optics' default density (a ray every 10 units, each of brightness 1) crosses
    a detector at right angles: each bin of 10 holds one ray, an irradiance of 1 / 10."""
    (workspace / "det.json").write_text(json.dumps(DETECTOR_SCENE))
    dock = open_door(make_napari_viewer_proxy, workspace)
    typed_ok(qtbot, dock, "load scene det.json")
    listed = typed_ok(qtbot, dock, "describe the scene")
    assert "Detector 1: detector, at (50.0, 50.0)" in listed and "Beam 1: beam" in listed
    table = typed_ok(qtbot, dock, "show me a table of the detector readings")
    assert table == "10 rows" and dock.transcript.entries[-1].kind == "table"
    shown = dock.transcript.toPlainText()
    assert "Position" in shown.split("power")[-1] and "Irradiance" in shown.split("power")[-1]
    reply = said(dock).text
    rays = scene(dock).sources[0].emit()[0]
    assert len(rays) == 10
    assert f"power {len(rays):.4g} over 10 bins of 10" in reply
    assert "Position,Irradiance" in reply and "0,0.1\n" in reply and "90,0.1" in reply
    assert "data:image/png" not in dock.transcript.toHtml().split("power")[-1], "a table, not a chart"
    plot = roles(dock.viewer)["irradiance"]
    curve = np.asarray(plot.data[1])[:, ::-1]  # (x, y)
    assert np.allclose(curve[:, 1], np.repeat(np.arange(0, 101, 10), 2)[1:-1]), "steps along the detector"
    assert np.ptp(curve[:, 0]) == 0 and curve[0, 0] < 50, "a flat reading, drawn beside the detector"
    typed_ok(qtbot, dock, "move Detector 1 right by 20")
    again = typed_ok(qtbot, dock, "detector readings")
    assert "power 10 " in again, "the moved detector still meets every ray"
    typed_ok(qtbot, dock, "save the scene as saved.json")
    reread = load_scene(workspace / "saved.json")
    assert [(d.p1, d.p2, d.bin_size) for d in reread.detectors] == [((70.0, 0.0), (70.0, 100.0), 10.0)]


def test_no_detector_is_said_plainly(dock, qtbot):
    reply = type_line(qtbot, dock, "detector readings")
    assert reply.kind == "error" and "no detector" in reply.text


def test_an_angle_source_fans_about_its_direction_and_saves(dock, qtbot, workspace):
    typed_ok(qtbot, dock, "add an angle source at 100, 390 pointing at -30 degrees")
    source = scene(dock).sources[-1]
    origins, directions, _ = source.emit()
    angles = np.degrees(np.arctan2(directions[:, 1], directions[:, 0]))
    spread = np.radians(36.001)
    expected = np.arange(-spread / 2, spread / 2 - 1e-5, 2 * np.pi / 50)  # ray-optics' fan at its density
    assert len(angles) == len(expected) and np.allclose(angles, -30 + np.degrees(expected))
    assert np.allclose(origins, [100, 390])
    listed = typed_ok(qtbot, dock, "describe the scene")
    assert "Angle source 1: angle source, at (100.0, 390.0)" in listed
    typed_ok(qtbot, dock, "save the scene as fan.json")
    reread = load_scene(workspace / "fan.json").sources[-1]
    assert np.allclose(reread.emit()[1], directions)


KEPT_SOURCES_SCENE = {
    "version": 5,
    "colorMode": "linear",  # a colour mode the scene model does not emit for: its sources stay as given
    "objs": [
        {"type": "PointSource", "x": 10, "y": 20, "brightness": 0.1},
        {"type": "AngleSource", "p1": {"x": 0, "y": 0}, "p2": {"x": 10, "y": 0}, "emisAngle": 20},
        {"type": "Beam", "p1": {"x": 50, "y": -10}, "p2": {"x": 50, "y": 10}, "emisAngle": 10},
        {"type": "Blocker", "p1": {"x": 200, "y": -100}, "p2": {"x": 200, "y": 100}},
    ],
}


def test_sources_kept_from_the_file_are_drawn_moved_turned_and_removed(
    make_napari_viewer_proxy, workspace, qtbot
):
    """Sources the scene model does not emit are traced from the file as it gives them, and drawn
    as ray-optics draws them: a point where the light starts (a beam: its ends, and its line)."""
    (workspace / "kept.json").write_text(json.dumps(KEPT_SOURCES_SCENE))
    dock = open_door(make_napari_viewer_proxy, workspace)
    typed_ok(qtbot, dock, "load scene kept.json")
    assert scene(dock).sources == () and len(scene(dock).others) == 4

    def starts() -> set[tuple[float, float]]:
        return {(float(x), float(y)) for y, x in np.round(roles(dock.viewer)["sources"].data, 6)}

    assert starts() == {(10, 20), (0, 0), (50, -10), (50, 10)}
    glasses = roles(dock.viewer)["glasses"]
    beam_line = [d[:, ::-1] for d in glasses.data if np.allclose(d[:, 1], 50)]
    assert len(beam_line) == 1 and np.allclose(sorted(beam_line[0][:, 1]), [-10, 10]), "the beam as a line"
    assert len(roles(dock.viewer)["rays"].data) > 0, "their rays are traced"

    typed_ok(qtbot, dock, "move Point source 1 right by 5")
    assert (15, 20) in starts() and (10, 20) not in starts()
    typed_ok(qtbot, dock, "rotate Angle source 1 by 180 degrees")
    assert (10, 0) in starts() and (0, 0) not in starts(), (
        "turned about its centre, it starts at the other end"
    )
    typed_ok(qtbot, dock, "remove Beam 1")
    assert starts() == {(15, 20), (10, 0)}
    typed_ok(qtbot, dock, "save the scene as kept2.json")
    saved = json.loads((workspace / "kept2.json").read_text())
    point = next(o for o in saved["objs"] if o["type"] == "PointSource")
    assert (point["x"], point["y"], point["brightness"]) == (15, 20, 0.1)
    assert [o["type"] for o in saved["objs"]] == ["PointSource", "AngleSource", "Blocker"]
