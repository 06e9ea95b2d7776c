"""Edits typed into the dock update the rays pack's layers in place: the same layer objects before
and after an edit, their data changed; undo brings the drawing back; no layer is added or removed
unless the set of layers changes (removing one holds napari for seconds)."""

from __future__ import annotations

import numpy as np
import pytest
from support.door import open_door, typed_ok

from napari_talk.packs.rays import agent
from napari_talk.packs.rays.roles import ROLE_KEY, layer_role


def roles(viewer) -> dict[str, object]:
    return {layer_role(layer.metadata): layer for layer in viewer.layers if layer_role(layer.metadata)}


def drawing(viewer) -> dict[str, object]:
    """What each rays layer shows: its data (shapes: with their types), colours and features."""
    found = {}
    for role, layer in roles(viewer).items():
        data = layer.data
        if isinstance(data, list):
            data = [
                (np.array(d).round(9).tolist(), kind) for d, kind in zip(data, layer.shape_type, strict=True)
            ]
        else:
            data = np.asarray(data).round(9).tolist()
        features = layer.features.to_dict("list") if hasattr(layer, "features") else None
        colour = np.asarray(getattr(layer, "edge_color", [])).round(6).tolist()
        found[role] = (data, colour, features)
    return found


@pytest.fixture
def dock(make_napari_viewer_proxy, workspace, qtbot):
    dock = open_door(make_napari_viewer_proxy, workspace)
    typed_ok(qtbot, dock, "load the prism demo")
    typed_ok(qtbot, dock, "rays inside the prism")  # a highlight, which an edit empties in place
    yield dock
    agent.clear_context()


def test_edits_update_the_same_layers_and_undo_brings_the_drawing_back(dock, qtbot):
    viewer = dock.viewer
    ids = {role: layer.unique_id for role, layer in roles(viewer).items()}
    assert set(ids) == {"glasses", "edge labels", "rays", "sources", "selection"}
    names = [layer.name for layer in viewer.layers]
    before = drawing(viewer)
    assert len(before["selection"][0]) > 0

    typed_ok(qtbot, dock, "rotate the prism 10 degrees")
    typed_ok(qtbot, dock, "add a point source at 100, 100")
    typed_ok(qtbot, dock, "set the index of the prism to 1.7")

    assert {role: layer.unique_id for role, layer in roles(viewer).items()} == ids, "the same layers"
    assert [layer.name for layer in viewer.layers] == names, "none added, none removed, none moved"
    now = roles(viewer)
    prism = dock.session.state("rays").current.scene.glasses[0]
    assert np.allclose(now["glasses"].data[0], prism.vertices[:, ::-1]), "the glass drawn turned"
    assert now["glasses"].features["ref_index"].iloc[0] == 1.7
    assert [100.0, 100.0] in now["sources"].data.tolist(), "the new source drawn"
    traced = dock.session.state("rays").current.result.segments
    assert len(now["rays"].data) == len(traced) and len(now["rays"].edge_color) == len(traced)
    assert len(now["selection"].data) == 0, "the old highlight emptied, the layer kept"
    edited = drawing(viewer)
    for role in ("glasses", "edge labels", "rays", "sources"):
        assert edited[role] != before[role], role

    for _ in range(3):
        typed_ok(qtbot, dock, "undo")
    assert {role: layer.unique_id for role, layer in roles(viewer).items()} == ids
    assert drawing(viewer) == before, "undo draws the scene as it was, the highlight too"

    typed_ok(qtbot, dock, "redo")  # the turn again: drawn as the edits left the prism's outline
    assert drawing(viewer)["glasses"][0] == edited["glasses"][0]


def test_undoing_the_load_after_edits_removes_the_layers_without_asking(dock, qtbot):
    """The layers' data set by an edit is napari-talk's, not the person's: undoing the load that
    added them removes them without a question about data the person changed."""
    typed_ok(qtbot, dock, "move the prism up by 20")
    for _ in range(2):  # the move, the load (a query is not a step to undo)
        typed_ok(qtbot, dock, "undo")
    assert set(roles(dock.viewer)) <= {"selection"}
    assert dock.session.state("rays").current is None


def test_a_layer_of_another_type_is_replaced(dock, qtbot):
    """A layer with a rays role that is not the type the pack draws is put away, not updated."""
    viewer = dock.viewer
    old = roles(viewer)["sources"]
    viewer.layers.remove(old.name)
    viewer.add_shapes(
        [np.array([[0.0, 0.0], [1.0, 1.0]])],
        shape_type="line",
        name="rays: light sources",
        metadata={ROLE_KEY: {"role": "sources"}},
    )
    typed_ok(qtbot, dock, "more rays")
    sources = roles(viewer)["sources"]
    assert type(sources).__name__ == "Points" and len(sources.data) == 1
