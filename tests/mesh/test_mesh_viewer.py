"""The mesh pack in a real napari viewer: Surface layers, colours, clicking a segment, isolation,
undo restoring the layers and the camera, and export renders taken from the canvas."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

from napari_talk.core.running.session import Session
from napari_talk.core.viewer.access import camera
from napari_talk.packs.mesh import humanoid
from napari_talk.packs.mesh.display import to_napari


@pytest.fixture
def viewer(make_napari_viewer):
    return make_napari_viewer()


@pytest.fixture
def session(viewer, workspace):
    return Session(viewer, workspace=workspace)


def _ok(session: Session, line: str):
    turn = session.run(line)
    assert turn.ok, (line, turn.message)
    return turn.results[-1]


def _layers(viewer):
    """What the viewer shows: each layer's name, kind, data, colours and opacity."""
    shown = []
    for layer in viewer.layers:
        data = layer.data if isinstance(layer.data, tuple) else (layer.data,)
        colours = getattr(layer, "vertex_colors", None)
        shown.append((layer.name, type(layer).__name__, [np.array(d) for d in data],
                      None if colours is None else np.array(colours), layer.opacity))  # fmt: skip
    return shown


def _same(a, b) -> bool:
    if len(a) != len(b):
        return False
    for (n1, k1, d1, c1, o1), (n2, k2, d2, c2, o2) in zip(a, b, strict=True):
        if (n1, k1, o1) != (n2, k2, o2) or len(d1) != len(d2):
            return False
        if not all(np.array_equal(x, y) for x, y in zip(d1, d2, strict=True)):
            return False
        if (c1 is None) != (c2 is None) or (c1 is not None and not np.array_equal(c1, c2)):
            return False
    return True


def test_spawn_shows_a_surface_in_3d_framed_on_the_model(session, viewer):
    _ok(session, "spawn a torus")
    (layer,) = viewer.layers
    assert type(layer).__name__ == "Surface" and layer.name == "model"
    vertices, faces = layer.data[:2]
    mesh = session.state("mesh").model.mesh
    assert len(faces) == mesh.n_faces and vertices.shape[1] == 3
    assert viewer.dims.ndisplay == 3
    assert np.allclose(np.asarray(camera(viewer).center)[-3:], to_napari(mesh.center), atol=1e-6)
    assert np.allclose(vertices.min(axis=0), to_napari(mesh.bounds).min(axis=0))


def test_segments_get_distinct_colours_and_materials_show(session, viewer):
    _ok(session, "spawn a human body")
    _ok(session, "segment it")
    layer = viewer.layers["model"]
    faces = layer.data[1]
    colours = layer.vertex_colors
    labels = session.state("mesh").model.face_labels()
    per_segment = [colours[faces[labels == s]].reshape(-1, 4) for s in range(7)]
    assert all(np.allclose(c, c[0]) for c in per_segment), "each segment is one colour"
    assert len({tuple(np.round(c[0], 3)) for c in per_segment}) == 7
    _ok(session, "make segment 1 red brick")
    brick = viewer.layers["model"].vertex_colors[faces[labels == 0]].reshape(-1, 4)[0]
    assert brick[0] > brick[1] and brick[0] > brick[2], "brick is reddish"


def _click(session, viewer, origin, direction, *, drag=False):
    callback = session.state("mesh").view["picking_callback"]
    event = SimpleNamespace(
        position=to_napari(np.asarray(origin, float)),
        view_direction=to_napari(np.asarray(direction, float)),
        dims_displayed=[0, 1, 2],
        type="mouse_press",
    )
    steps = callback(viewer, event)
    next(steps)
    if drag:
        event.type = "mouse_move"
        next(steps)
    event.type = "mouse_release"
    with pytest.raises(StopIteration):
        next(steps)


def test_clicking_the_surface_selects_the_segment_under_the_cursor(session, viewer, workspace):
    import json

    _ok(session, "spawn a human body")
    _ok(session, "segment it")
    state = session.state("mesh").model
    head = humanoid.body_landmarks()["head"]
    near = np.argsort(np.linalg.norm(state.mesh.face_centers - head, axis=1))[:1]
    head_segment = int(state.labels[near[0]]) + 1
    _click(session, viewer, (head[0], head[1], 5.0), (0.0, 0.0, -1.0), drag=True)
    assert session.state("mesh").model.selected is None, "a drag rotates the view, it selects nothing"
    _click(session, viewer, (head[0], head[1], 5.0), (0.0, 0.0, -1.0))
    assert session.state("mesh").model.selected == head_segment
    assert json.loads((workspace / "mesh" / "state.json").read_text())["selected_segment"] == head_segment
    _click(session, viewer, (5.0, 5.0, 5.0), (0.0, 0.0, -1.0))
    assert session.state("mesh").model.selected == head_segment, "a click beside the model changes nothing"
    reply = _ok(session, "isolate the selected segment")
    assert reply.data["segment"] == head_segment


def test_isolation_adds_a_centred_layer_dims_the_rest_and_undo_restores_layers_and_camera(session, viewer):
    _ok(session, "spawn a human body")
    _ok(session, "segment it")
    before = _layers(viewer)
    before_camera = (tuple(camera(viewer).center), camera(viewer).zoom, tuple(camera(viewer).angles))
    _ok(session, "isolate part 2")
    assert [layer.name for layer in viewer.layers] == ["model", "segment 2 (isolated)"]
    assert viewer.layers["model"].opacity < 0.5
    part = viewer.layers["segment 2 (isolated)"].data[0]
    assert np.allclose(
        (part.min(axis=0) + part.max(axis=0)) / 2, to_napari(session.state("mesh").model.mesh.center)
    )
    assert camera(viewer).zoom != before_camera[1], "framed on the segment"
    _ok(session, "undo")
    assert _same(_layers(viewer), before)
    assert (tuple(camera(viewer).center), camera(viewer).zoom, tuple(camera(viewer).angles)) == before_camera


def test_undo_of_every_step_puts_the_layers_back_exactly(session, viewer):
    viewer.add_image(np.zeros((8, 8)), name="other")
    snapshots = [_layers(viewer)]
    for line in ["spawn a head", "segment it", "make it worn leather", "spawn a sphere"]:
        turn = session.run(line, ask=lambda approval: True)  # the sphere replaces the painted head: asked
        assert turn.ok, (line, turn.message)
        snapshots.append(_layers(viewer))
    for expected in reversed(snapshots[:-1]):
        _ok(session, "undo")
        assert _same(_layers(viewer), expected)
    assert [layer.name for layer in viewer.layers] == ["other"]


def _show_off_screen(viewer) -> None:
    from qtpy.QtCore import Qt

    from napari_talk._qt.panels import main_window

    window = main_window(viewer)
    window.setAttribute(Qt.WidgetAttribute.WA_DontShowOnScreen, True)
    window.resize(900, 700)
    window.show()


@pytest.mark.parametrize("shown", [True, False])
def test_export_renders_come_from_the_canvas_and_leave_the_view_as_it_was(session, viewer, workspace, shown):
    from PIL import Image

    if shown:
        _show_off_screen(viewer)
    other = viewer.add_image(np.random.default_rng(0).random((16, 16)), name="other")
    _ok(session, "spawn a cube")
    _ok(session, "segment it")
    before_camera = (tuple(camera(viewer).center), camera(viewer).zoom)
    reply = _ok(session, "export the model")
    assert other.visible and viewer.layers["model"].visible
    assert (tuple(camera(viewer).center), camera(viewer).zoom) == before_camera
    for path in reply.data["renders"]:
        pixels = np.asarray(Image.open(workspace / path).convert("RGB"))
        assert pixels.std() > 5, "a picture of the model"
        corner = tuple(pixels[0, 0])
        # napari's canvas is black; without a visible canvas the software renderer draws its own backdrop
        assert (corner == (0, 0, 0)) == shown
