"""Parts by name, a new model that would replace the person's work, and a chained line run up to
the clause not understood: typed into the dock on the mesh sample (a body), as a person does,
with the effect checked on the model and in the viewer, and undo of each."""

from __future__ import annotations

import pytest
from qtpy.QtCore import Qt
from support.door import open_door, said, type_line

pytestmark = pytest.mark.filterwarnings("error:Private attribute access:FutureWarning")


@pytest.fixture
def door(make_napari_viewer_proxy, workspace):
    return open_door(make_napari_viewer_proxy, workspace)


def model(door):
    return door.session.state("mesh").model


def surfaces(viewer) -> list[str]:
    return [layer.name for layer in viewer.layers if layer.__class__.__name__ == "Surface"]


def segmented_sample(qtbot, door):
    door.viewer.open_sample("napari-talk", "mesh")
    type_line(qtbot, door, "segment it")
    state = model(door)
    assert state.labels is not None and "head" in state.names, said(door).text
    return state


def part(state, name: str) -> int:
    return state.names.index(name) + 1


def test_parts_are_painted_isolated_and_selected_by_name_and_undone(qtbot, door):
    state = segmented_sample(qtbot, door)
    head, left_arm = part(state, "head"), part(state, "left arm")
    legs = {part(state, "left leg"), part(state, "right leg")}

    type_line(qtbot, door, "make the head gold")
    assert model(door).materials[head].name == "gold", said(door).text
    type_line(qtbot, door, "paint the left arm red")
    assert left_arm in model(door).materials, said(door).text
    type_line(qtbot, door, "make the legs dark rusty metal")
    assert legs <= set(model(door).materials) and "left leg" in said(door).text
    type_line(qtbot, door, "undo")
    assert not legs & set(model(door).materials), "undo takes the legs' material off"

    type_line(qtbot, door, "show only the torso")
    assert model(door).isolated == part(state, "torso")
    assert surfaces(door.viewer) == ["model", f"segment {part(state, 'torso')} (isolated)"]
    type_line(qtbot, door, "undo")
    assert surfaces(door.viewer) == ["model"] and model(door).isolated is None
    type_line(qtbot, door, "isolate the head")
    assert surfaces(door.viewer) == ["model", f"segment {head} (isolated)"]
    type_line(qtbot, door, "show the whole model")

    type_line(qtbot, door, "select the left arm")
    assert model(door).selected == left_arm
    type_line(qtbot, door, "undo")
    assert model(door).selected != left_arm


def test_an_ambiguous_or_unknown_part_is_answered_in_one_line_and_changes_nothing(qtbot, door):
    state = segmented_sample(qtbot, door)
    type_line(qtbot, door, "make the leg gold")
    reply = said(door).text
    assert reply.startswith("Which leg:") and "left leg" in reply and "right leg" in reply, reply
    type_line(qtbot, door, "make the tail gold")  # no such part: not read as one (it may be a layer)
    reply = said(door).text
    assert "did not understand" in reply and "\n" not in reply, reply
    assert model(door) is state, "nothing changed"


def test_triangles_and_parts_are_told(qtbot, door):
    state = segmented_sample(qtbot, door)
    type_line(qtbot, door, "how many triangles")
    assert f"{state.mesh.n_faces:,}" in said(door).text
    type_line(qtbot, door, "what parts are there?")
    reply = said(door).text
    assert all(name in reply for name in state.names if name), reply


def test_a_new_model_asks_before_it_replaces_the_painted_body_and_undo_brings_it_back(qtbot, door):
    state = segmented_sample(qtbot, door)
    type_line(qtbot, door, "make the head gold")
    painted = model(door)
    type_line(qtbot, door, "add a sphere")
    assert door.run_button.isVisibleTo(door), "the person is asked"
    assert "Body" in door.confirm_label.text(), door.confirm_label.text()
    qtbot.mouseClick(door.cancel_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: door.job is None and door.task is None, timeout=60_000)
    assert model(door) is painted, "cancelled: the body stays"

    type_line(qtbot, door, "add a sphere")
    qtbot.mouseClick(door.run_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: model(door).mesh.name == "Sphere", timeout=60_000)
    qtbot.waitUntil(lambda: door.job is None and door.task is None, timeout=60_000)
    assert len(door.viewer.layers["model"].data[1]) == model(door).mesh.n_faces
    type_line(qtbot, door, "undo")
    assert model(door) is painted and len(door.viewer.layers["model"].data[1]) == state.mesh.n_faces


def test_a_painted_body_just_exported_is_replaced_without_a_question(qtbot, door, workspace):
    segmented_sample(qtbot, door)
    type_line(qtbot, door, "make the head gold")
    type_line(qtbot, door, "export the model")
    qtbot.waitUntil(lambda: door.job is None and door.task is None, timeout=120_000)
    assert list(workspace.rglob("*.glb")), "the export holds the work"
    type_line(qtbot, door, "add a sphere")
    qtbot.waitUntil(lambda: model(door).mesh.name == "Sphere", timeout=60_000)
    assert not door.run_button.isVisibleTo(door), "nothing unsaved to ask about"
    type_line(qtbot, door, "make segment 1 gold")
    qtbot.waitUntil(lambda: door.job is None and door.task is None, timeout=60_000)
    type_line(qtbot, door, "add a cube")
    assert door.run_button.isVisibleTo(door), "painted since: asked again"


def test_an_untouched_primitive_is_replaced_without_a_question(qtbot, door):
    type_line(qtbot, door, "spawn a cube")
    type_line(qtbot, door, "spawn a sphere")
    assert not door.run_button.isVisibleTo(door)
    assert model(door).mesh.name == "Sphere"


def test_a_chained_line_runs_up_to_the_clause_not_understood_and_says_which(qtbot, door):
    door.viewer.open_sample("napari-talk", "mesh")
    type_line(qtbot, door, "segment it then make the legs dark rusty blorp")
    assert model(door).labels is not None, "the first clause ran"
    replies = " ".join(entry.text for entry in door.transcript.entries[-3:])
    assert "Segmented" in replies and "'make the legs dark rusty blorp'" in replies, replies
    type_line(qtbot, door, "undo")
    assert model(door).labels is None
