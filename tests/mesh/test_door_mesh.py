"""The mesh pack through the door napari gives a plugin (the dock on a PublicOnlyProxy of the
viewer, lines typed and Enter pressed), over a long session: whatever is spawned, segmented,
painted, isolated or shown whole, the viewer holds one model (two Surface layers only while a
segment is isolated), and undo walks back through exactly what was seen."""

from __future__ import annotations

import pytest
from qtpy.QtCore import Qt
from support.door import open_door, type_line

pytestmark = pytest.mark.filterwarnings("error:Private attribute access:FutureWarning")

MODEL = "model"

LINES = (  # (line, the Surface layers that show after it)
    ("spawn a torus", [MODEL]),
    ("spawn a body", [MODEL]),
    ("segment it", [MODEL]),
    ("select segment 2", [MODEL]),
    ("apply dark rusty metal to segment 2", [MODEL]),
    ("apply gold to segment 1", [MODEL]),
    ("isolate segment 2", [MODEL, "segment 2 (isolated)"]),
    ("show the whole model", [MODEL]),
    ("isolate part 3", [MODEL, "segment 3 (isolated)"]),
    ("make segment 3 shiny gold", [MODEL, "segment 3 (isolated)"]),
    ("unisolate", [MODEL]),
    ("spawn a sphere", [MODEL]),
    ("segment it", [MODEL]),
    ("isolate segment 1", [MODEL, "segment 1 (isolated)"]),
    ("spawn a cube", [MODEL]),
    ("describe the model", [MODEL]),
)

REPLACES_WORK = {"spawn a sphere"}
"""Lines whose new model would replace a segmented, painted one: the person is asked first."""


@pytest.fixture
def door(make_napari_viewer_proxy, workspace):
    return open_door(make_napari_viewer_proxy, workspace)


def models(viewer) -> list[tuple[str, int, float, bool]]:
    """Each Surface layer the person sees: name, faces, opacity, visible."""
    return [
        (layer.name, len(layer.data[1]), round(float(layer.opacity), 3), bool(layer.visible))
        for layer in viewer.layers
        if layer.__class__.__name__ == "Surface"
    ]


def test_a_long_mesh_session_keeps_one_model_and_undo_walks_back(qtbot, door):
    from napari_talk.packs.mesh.primitives import build

    door.viewer.open_sample("napari-talk", "cells")
    others = [layer.name for layer in door.viewer.layers]
    napari_own = len(door.viewer.mouse_drag_callbacks)
    seen = [models(door.viewer)]
    for line, surfaces in LINES:
        entry = type_line(qtbot, door, line)
        asked = door.run_button.isVisibleTo(door)
        assert asked == (line in REPLACES_WORK), f"{line}: asked {asked}"
        if asked:
            qtbot.mouseClick(door.run_button, Qt.MouseButton.LeftButton)
            qtbot.waitUntil(lambda: door.job is None and door.task is None, timeout=120_000)
            entry = door.transcript.entries[-1]
        assert entry.kind in ("reply", "table"), (line, entry.text)  # segments come with a table
        shown = models(door.viewer)
        assert [name for name, *_ in shown] == surfaces, line
        if line.startswith("spawn a "):
            assert shown[0][1] == build(line.removeprefix("spawn a ").capitalize()).n_faces, line
        isolated = len(surfaces) == 2
        assert shown[0][2] == (0.15 if isolated else 1.0), f"{line}: the rest is dimmed only while isolated"
        assert all(visible for *_, visible in shown)
        assert [layer.name for layer in door.viewer.layers if layer.name in others] == others
        picking = len(door.viewer.mouse_drag_callbacks) - napari_own
        assert picking == 1, "one picking callback, however many models"
        seen.append(shown)
    assert len(seen) - 1 >= 14
    seen.pop()  # "describe the model" changes nothing: nothing to undo
    while door.session.history.can_undo:
        entry = type_line(qtbot, door, "undo")
        assert entry.kind == "reply" and entry.text.startswith("undid"), entry.text
        seen.pop()
        assert models(door.viewer) == seen[-1], f"after {entry.text!r}"
    assert models(door.viewer) == [], "undoing the first spawn leaves no model"
    assert [layer.name for layer in door.viewer.layers] == others


def test_glass_shows_what_is_behind_it_and_undo_makes_it_solid_again(qtbot, door):
    for line in ("spawn a sphere", "make it glass"):
        assert type_line(qtbot, door, line).kind == "reply", line
    (layer,) = [layer for layer in door.viewer.layers if layer.name == MODEL]
    assert float(layer.vertex_colors[:, 3].max()) < 0.5, "glass is drawn see-through"
    entry = type_line(qtbot, door, "undo")
    assert entry.text.startswith("undid"), entry.text
    (layer,) = [layer for layer in door.viewer.layers if layer.name == MODEL]
    assert float(layer.vertex_colors[:, 3].min()) == 1.0
