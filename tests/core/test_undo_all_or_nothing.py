"""A command changes all or nothing, and a failed undo keeps its entry."""

from __future__ import annotations

import numpy as np
import pytest
from napari.components import ViewerModel
from napari.layers import Points

from napari_talk.core.running.history import Changes
from napari_talk.core.running.session import Session
from napari_talk.core.viewer.access import camera


class StuckPoints(Points):
    """A layer that refuses to be hidden (a plugin's layer, a broken callback...)."""

    @Points.visible.setter  # type: ignore[attr-defined]
    def visible(self, value: bool) -> None:
        if not value:
            raise RuntimeError("this layer cannot be hidden")
        Points.visible.fset(self, value)  # type: ignore[attr-defined]


@pytest.fixture
def viewer():
    model = ViewerModel()
    model.add_points(np.zeros((1, 2)), name="a")
    model.add_points(np.ones((1, 2)), name="b")
    model.layers.append(StuckPoints(np.ones((1, 2)), name="stuck"))
    model.add_points(np.ones((1, 2)), name="d")
    return model


def test_a_fault_half_way_changes_nothing_and_records_nothing(viewer):
    session = Session(viewer)
    assert session.run("zoom to 2").ok
    turn = session.run("hide all layers")
    assert not turn.ok and "cannot be hidden" in turn.message
    assert [layer.visible for layer in viewer.layers] == [True, True, True, True], "all or nothing"
    assert session.run("undo").ok
    assert session.history.can_undo is False, "the next undo reverted the zoom, not a half change"


def test_a_failed_undo_keeps_its_entry():
    state = {"value": 1, "refuse": True}

    def undo() -> None:
        if state["refuse"]:
            raise RuntimeError("not now")
        state["value"] = 0

    session = Session(None)
    command = session.registry.validate({"action": "set_zoom", "zoom": 2})
    changes = Changes()
    changes.add(undo)
    session.history.record(command, changes)
    failed = session.undo()
    assert not failed.ok and "stays undoable" in failed.message
    assert session.history.can_undo and not session.history.can_redo
    state["refuse"] = False
    assert session.undo().ok and state["value"] == 0


def test_changes_undo_what_was_done_newest_first():
    done = []
    with pytest.raises(ValueError), Changes() as changes:
        changes.add(lambda: done.append("first"))
        changes.add(lambda: done.append("second"))
        raise ValueError("the third step failed")
    assert done == ["second", "first"]


def test_undo_of_a_file_never_writes_over_the_persons_edit(workspace):
    session = Session(None, workspace=workspace)
    target = workspace / "notes.md"
    assert session.run("write notes.md with v1").ok
    assert session.run("write notes.md with v2").ok
    target.write_text("v3, typed in an editor")
    refused = session.run("undo")
    assert not refused.ok and "was changed since" in refused.message
    assert target.read_text() == "v3, typed in an editor", "the person's edit is kept"
    assert session.history.can_undo, "the refused undo keeps its entry"
    target.write_text("v2")  # the person puts back what napari-talk wrote
    assert session.run("undo").ok and target.read_text() == "v1"


def test_undo_of_a_file_someone_removed_is_refused(workspace):
    session = Session(None, workspace=workspace)
    assert session.run("write gone.md with hello").ok
    (workspace / "gone.md").unlink()
    refused = session.run("undo")
    assert not refused.ok and "is gone since" in refused.message and session.history.can_undo


# -- handlers that change several layers: all of them, or none ------------------------------------


def _layers(viewer):
    return [(layer.name, layer.unique_id, layer.visible) for layer in viewer.layers]


def _fault_on_the_rays_layer(monkeypatch):
    """Drawing a scene puts the glasses, the edge labels, then the rays: the third fails."""
    from napari_talk.packs.rays import display

    def broken(*args, **kwargs):
        raise RuntimeError("the rays layer could not be made")

    monkeypatch.setattr(display, "ray_layer", broken)


def test_a_scene_that_fails_on_its_third_layer_leaves_nothing(monkeypatch):
    viewer = ViewerModel()
    viewer.add_points(np.zeros((1, 2)), name="mine")
    session = Session(viewer)
    assert session.run("zoom to 2").ok
    before = _layers(viewer)
    _fault_on_the_rays_layer(monkeypatch)
    turn = session.run("load the prism demo")
    assert not turn.ok and "could not be made" in turn.message
    assert _layers(viewer) == before, "no glasses or edge labels left behind"
    assert session.state("rays").current is None, "no scene kept"
    assert session.history.next_undo().command.action == "set_zoom", "no entry for a half change"


def test_a_second_scene_that_fails_half_way_keeps_the_first_whole(monkeypatch):
    viewer = ViewerModel()
    session = Session(viewer)
    assert session.run("load the prism demo").ok
    first = session.state("rays").current
    before = _layers(viewer)
    orientation = camera(viewer).orientation2d
    _fault_on_the_rays_layer(monkeypatch)
    assert not session.execute({"action": "load_sample_scene", "name": "slab"}).ok
    assert _layers(viewer) == before, "the first scene's own layers, in their places, with their names"
    assert session.state("rays").current is first
    assert camera(viewer).orientation2d == orientation
    monkeypatch.undo()
    assert session.run("rays inside the prism").ok, "the first scene still answers"
    assert session.run("undo").ok and session.state("rays").current is None
    assert _layers(viewer) == []


def test_a_retrace_that_fails_half_way_keeps_the_traced_scene(monkeypatch):
    viewer = ViewerModel()
    session = Session(viewer)
    assert session.run("load the prism demo").ok
    traced = session.state("rays").current
    before = _layers(viewer)
    _fault_on_the_rays_layer(monkeypatch)
    assert not session.run("retrace").ok
    assert _layers(viewer) == before and session.state("rays").current is traced
    assert session.history.next_undo().command.action == "load_sample_scene"


def test_a_mesh_change_that_fails_while_shown_changes_nothing(monkeypatch, workspace):
    from napari_talk.packs.mesh import display

    viewer = ViewerModel()
    session = Session(viewer, workspace=workspace)
    assert session.run("spawn a sphere").ok
    faces = len(viewer.layers[-1].data[1])
    state_file = (workspace / "mesh" / "state.json").read_text()

    def broken(*args, **kwargs):
        raise RuntimeError("the isolated part could not be shown")

    monkeypatch.setattr(display, "_sync_isolated", broken)
    turn = session.run("spawn a torus")
    assert not turn.ok and "could not be shown" in turn.message
    assert session.state("mesh").model.source == "primitive Sphere"
    assert len(viewer.layers) == 1 and len(viewer.layers[-1].data[1]) == faces, "the sphere is shown"
    assert (workspace / "mesh" / "state.json").read_text() == state_file
    assert session.history.next_undo().command.action == "spawn_primitive"
    monkeypatch.undo()
    assert session.run("undo").ok and session.state("mesh").model.mesh is None


# -- undo of a file change refuses when the file changed since, in every pack ----------------------


def _refused_and_kept(session, path, content: bytes):
    entry = session.history.next_undo()
    refused = session.run("undo")
    assert not refused.ok and "changed since" in refused.message, refused.message
    assert path.read_bytes() == content, "the person's edit is kept"
    assert session.history.next_undo() is entry, "the refused undo keeps its entry"


def test_undo_of_a_screenshot_keeps_the_persons_edit(make_napari_viewer, workspace):
    viewer = make_napari_viewer()
    viewer.add_points(np.zeros((1, 2)), name="a")
    session = Session(viewer, workspace=workspace)
    figure = workspace / "figures" / "fig.png"
    assert session.run("screenshot figures/fig.png").ok
    figure.write_bytes(b"the person's annotated figure")
    _refused_and_kept(session, figure, b"the person's annotated figure")
    (workspace / "figures" / "old.png").write_bytes(b"the person's older figure")
    agreed = session.execute({"action": "screenshot", "path": "figures/old.png"})
    assert agreed.ok, "the person's own screenshot over their file runs"
    assert session.run("undo").ok, "unchanged since: the undo puts the older figure back"
    assert (workspace / "figures" / "old.png").read_bytes() == b"the person's older figure"


def test_undo_of_an_export_keeps_the_persons_edit(workspace):
    session = Session(None, workspace=workspace)
    assert session.run("load the sample catalogue").ok
    assert session.execute({"action": "export_catalogue", "path": "out.jsonl"}).ok
    exported = workspace / "out.jsonl"
    exported.write_text("the person's edited export\n")
    _refused_and_kept(session, exported, b"the person's edited export\n")


def test_undo_of_the_sample_catalogue_keeps_a_picture_the_person_edited(workspace):
    session = Session(None, workspace=workspace)
    assert session.run("load the sample catalogue").ok
    count = session.state("atlas").catalogue.count()
    picture = sorted((workspace / "atlas").rglob("*.png"))[0]
    picture.write_bytes(b"the person's retouched picture")
    _refused_and_kept(session, picture, b"the person's retouched picture")
    assert session.state("atlas").catalogue.count() == count, "nothing taken out of the catalogue either"
    assert len(list((workspace / "atlas").rglob("*.png"))) > 1, "no other picture removed"
