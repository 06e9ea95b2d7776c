"""Mirrors, detectors, lenses and light sources added by typing into the dock with a ray scene in
play: each a ray object of the scene's own kinds (not a mesh material), drawn in the layers already
there, traced, and undone."""

from __future__ import annotations

import numpy as np
import pytest
from support.door import open_door, type_line, typed_ok

from napari_talk.packs.rays import agent, display
from napari_talk.packs.rays.roles import layer_role
from napari_talk.packs.rays.scene import Detector, IdealLens, Mirror, PointSource


def glasses_layer(viewer):
    return next(layer for layer in viewer.layers if layer_role(layer.metadata) == "glasses")


def scene(dock):
    return dock.session.state("rays").current.scene


@pytest.fixture
def dock(make_napari_viewer_proxy, workspace, qtbot):
    dock = open_door(make_napari_viewer_proxy, workspace)
    typed_ok(qtbot, dock, "load the prism demo")
    yield dock
    agent.clear_context()


def test_a_mirror_a_detector_and_a_lens_are_added_drawn_and_undone(dock, qtbot):
    layer = glasses_layer(dock.viewer)
    shapes = len(layer.data)
    said = typed_ok(qtbot, dock, "add a mirror from 300, 400 to 300, 450")
    assert "Added Mirror 1 from (300, 400) to (300, 450)" in said
    assert scene(dock).elements == (Mirror((300.0, 400.0), (300.0, 450.0)),)
    same = glasses_layer(dock.viewer)
    assert same.unique_id == layer.unique_id and len(same.data) == shapes + 1, "drawn in the same layer"
    assert np.allclose(same.data[-1], [[400.0, 300.0], [450.0, 300.0]])
    assert np.allclose(same.edge_color[-1][:3], display.MIRROR_COLOR)

    typed_ok(qtbot, dock, "add a detector at 500, 200")
    assert scene(dock).detectors == (Detector((500.0, 150.0), (500.0, 250.0)),), "100 long, upright"
    typed_ok(qtbot, dock, "add a lens at 600, 200, 80 units long, with focal length 50")
    lens = scene(dock).elements[-1]
    assert isinstance(lens, IdealLens) and lens.focal_length == 50
    assert np.allclose([lens.p1, lens.p2], [(600.0, 160.0), (600.0, 240.0)])

    for _ in range(3):
        typed_ok(qtbot, dock, "undo")
    assert scene(dock).elements == () and scene(dock).detectors == ()
    assert len(glasses_layer(dock.viewer).data) == shapes


def test_another_light_source_is_a_ray_source_not_a_material(dock, qtbot):
    said = typed_ok(qtbot, dock, "add another light source at 100, 100")
    assert "Added Point source 2" in said
    assert isinstance(scene(dock).sources[-1], PointSource)
    assert (scene(dock).sources[-1].x, scene(dock).sources[-1].y) == (100.0, 100.0)


def test_an_element_that_cannot_be_is_refused_and_nothing_changes(dock, qtbot):
    before = scene(dock)
    refused = type_line(qtbot, dock, "add a mirror from 10, 10 to 10, 10")
    assert refused.kind == "error" and "two different end points" in refused.text
    assert "Traceback" not in refused.text and scene(dock) == before
