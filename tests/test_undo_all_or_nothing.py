"""A command changes all or nothing, and a failed undo keeps its entry."""

from __future__ import annotations

import numpy as np
import pytest
from napari.components import ViewerModel
from napari.layers import Points

from napari_talk.core.history import Changes
from napari_talk.core.session import Session


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
    session.history.record(command, undo)
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
