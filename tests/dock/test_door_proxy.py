"""Through the door napari gives a plugin: the dock on a PublicOnlyProxy of the viewer, samples
opened as File > Open Sample opens them, lines typed and Enter pressed. Through the proxy every
access to a layer makes a new object, so nothing may compare layers by identity."""

from __future__ import annotations

import pytest
from support.door import at_default_width, open_door, said, type_line

pytestmark = pytest.mark.filterwarnings("error:Private attribute access:FutureWarning")


@pytest.fixture
def door(make_napari_viewer_proxy, workspace):
    return open_door(make_napari_viewer_proxy, workspace)


def visible(viewer) -> set[str]:
    return {layer.name for layer in viewer.layers if layer.visible}


@pytest.mark.parametrize(
    ("line", "shown"),
    [
        ("show only actin", {"actin"}),
        ("hide all but GFP", {"GFP"}),
        ("solo GFP", {"GFP"}),
        ("show only GFP and nuclei", {"GFP", "nuclei"}),
    ],
)
def test_show_only_through_the_proxy(qtbot, door, line, shown):
    door.viewer.open_sample("napari-talk", "cells")
    before = visible(door.viewer)
    entry = type_line(qtbot, door, line)
    assert entry.kind == "reply", entry.text
    assert visible(door.viewer) == shown
    type_line(qtbot, door, "undo")
    if " and " in line:
        type_line(qtbot, door, "undo")
    assert visible(door.viewer) == before


def surfaces(viewer) -> list[str]:
    return [layer.name for layer in viewer.layers if type(layer).__name__ == "Surface"]


def test_a_new_primitive_replaces_the_model_and_undo_adds_nothing(qtbot, door):
    off_the_gui_thread = []
    run_job = door.session.jobs.wait
    door.session.jobs.wait = lambda job: off_the_gui_thread.append(job.label) or run_job(job)
    type_line(qtbot, door, "spawn a torus")
    assert surfaces(door.viewer) == ["model"]
    type_line(qtbot, door, "spawn a body")
    assert surfaces(door.viewer) == ["model"], "the body replaces the torus, not stands inside it"
    for line in ("segment it", "isolate segment 2", "show the whole model", "apply gold to segment 1"):
        entry = type_line(qtbot, door, line)
        assert entry.kind in ("reply", "table"), (line, entry.text)
    assert surfaces(door.viewer) == ["model"], "one model after isolating and showing it whole"
    assert off_the_gui_thread == ["building a Torus", "building a Body", "segmenting the Body"]
    for _ in range(4):
        type_line(qtbot, door, "undo")
    assert surfaces(door.viewer) == ["model"]


def test_the_mesh_sample_is_the_model_the_mesh_lines_work_on(qtbot, door, workspace):
    door.viewer.open_sample("napari-talk", "mesh")
    assert surfaces(door.viewer) == ["model"]
    faces_shown = len(door.viewer.layers["model"].data[1])
    type_line(qtbot, door, "segment it")
    entry = said(door)
    assert entry.kind == "reply" and "Segmented" in entry.text, entry.text
    assert surfaces(door.viewer) == ["model"], "the sample's layer is the model's layer"
    assert door.viewer.dims.ndisplay == 3
    entry = type_line(qtbot, door, "export it")
    assert entry.kind == "reply", entry.text
    assert list(workspace.glob("**/*.glb"))
    type_line(qtbot, door, "undo")
    type_line(qtbot, door, "undo")
    assert surfaces(door.viewer) == ["model"] and len(door.viewer.layers["model"].data[1]) >= faces_shown


def test_the_prism_sample_opens_with_its_light_source_and_prism_in_view(door):
    from napari_talk.core.viewer.access import camera, canvas_size

    door.viewer.open_sample("napari-talk", "prism_demo")
    cam = camera(door.viewer)
    height, width = canvas_size(door.viewer)
    center, zoom = cam.center[-2:], cam.zoom
    prism = door.viewer.layers["rays: glasses"].data[0]
    for row, col in [*door.viewer.layers["rays: light sources"].data, *prism]:
        assert abs(row - center[0]) * zoom <= height / 2 and abs(col - center[1]) * zoom <= width / 2


def test_samples_open_drawn_as_their_packs_draw_them_before_any_line(door):
    """File > Open Sample gives layer data only: the dock sets up the camera a pack draws with."""
    from napari_talk.core.viewer.access import camera

    door.viewer.open_sample("napari-talk", "prism_demo")
    assert tuple(str(getattr(v, "value", v)) for v in camera(door.viewer).orientation2d) == ("up", "right")
    assert door.viewer.dims.ndisplay == 2
    door.viewer.open_sample("napari-talk", "mesh")
    assert door.viewer.dims.ndisplay == 3


def test_a_ray_query_through_the_proxy_does_not_redraw_the_scene(qtbot, door):
    door.viewer.open_sample("napari-talk", "prism_demo")
    names = [layer.name for layer in door.viewer.layers]
    entry = type_line(qtbot, door, "which rays cross edge N of Main Prism")
    assert entry.kind == "reply" and "cross or touch edge N" in entry.text
    last_line = entry.text.splitlines()[-1]  # the ray list: fixed-width, its spaces kept
    last_row = door.transcript.document().find(last_line).block()
    assert "monospace" in (last_row.charFormat().fontFamilies() or [])
    assert last_row.text() == last_line
    assert "energy of each segment listed" in door.transcript.document().lastBlock().text(), "then its chart"
    type_line(qtbot, door, "rays inside Main Prism")
    after = [layer.name for layer in door.viewer.layers]
    assert [n for n in after if n in names] == names, "the sample's layers stay, in place"
    assert len(after) <= len(names) + 1, "at most a selection layer is added"


def test_a_ray_scene_is_drawn_with_y_up_so_north_is_on_top(qtbot, door):
    from napari_talk.core.viewer.access import camera

    before = tuple(str(getattr(v, "value", v)) for v in camera(door.viewer).orientation2d)
    type_line(qtbot, door, "load the prism demo")
    oriented = tuple(str(getattr(v, "value", v)) for v in camera(door.viewer).orientation2d)
    assert oriented == ("up", "right")
    labels = next(layer for layer in door.viewer.layers if "label" in layer.features)
    rows = dict(zip(labels.features["label"], (float(p[0]) for p in labels.data), strict=True))
    assert rows["N"] == max(rows.values()), "N has the largest y, drawn at the top"
    type_line(qtbot, door, "undo")
    assert tuple(str(getattr(v, "value", v)) for v in camera(door.viewer).orientation2d) == before


def test_a_ray_list_fits_the_dock_at_its_default_width(qtbot, door):
    at_default_width(door)
    door.viewer.open_sample("napari-talk", "prism_demo")
    entry = type_line(qtbot, door, "which rays cross edge N of Main Prism")
    qtbot.wait(200)  # the transcript lays the table out
    assert door.transcript.viewport().width() < 340
    assert door.transcript.horizontalScrollBar().maximum() == 0, "no column is cut off or scrolled to"
    header, *rows = [line for line in entry.text.splitlines() if line.startswith("  ") and "more" not in line]
    column = header.index("from")
    starts, ends = rows[0::2], rows[1::2]
    assert len(starts) == len(ends) == 8
    assert all(row[column] == "(" and row[column - 3].isdigit() for row in starts), "starts in a column"
    assert all(row[:column].strip() == "→" and row[column] == "(" for row in ends), "its end point under it"


def test_catalogue_results_fit_the_dock_with_their_words_whole(qtbot, door):
    at_default_width(door)
    door.viewer.open_sample("napari-talk", "atlas")
    entry = type_line(qtbot, door, "find similar to a golden desert guardian")
    assert entry.kind == "table" and entry.text == "5 rows"
    qtbot.wait(200)
    assert door.transcript.horizontalScrollBar().maximum() == 0, "the table fits, thumbnails and all"
    document, found, position = door.transcript.document(), None, 0
    while not (at := document.find("Dune Warden", position)).isNull():
        found, position = at, at.position()  # the last one: the table's cell, after the reply
    assert found is not None
    block = found.block()  # a name that must wrap in its narrow column
    text, layout = block.text(), block.layout()
    breaks = [layout.lineAt(i).textStart() for i in range(1, layout.lineCount())]
    assert breaks and all(text[at - 1] == " " for at in breaks), f"{text!r} broken at {breaks}"
