"""The relative viewer commands on a real viewer, typed into the dock napari gives a plugin, each
undone after: pan, gamma, brightness, contrast, view side, rotation."""

from __future__ import annotations

import numpy as np
import pytest
from qtpy.QtCore import Qt

from napari_talk.core.viewer.access import camera, canvas_size

pytestmark = pytest.mark.filterwarnings("error:Private attribute access:FutureWarning")


@pytest.fixture
def dock(make_napari_viewer_proxy, qtbot):
    from napari_talk._qt.dock import ChatDock

    viewer = make_napari_viewer_proxy()
    viewer.open_sample("napari-talk", "cells")
    widget = ChatDock(viewer)
    viewer.window.add_dock_widget(widget, name="Chat")
    return widget


def say(qtbot, dock, text):
    qtbot.keyClicks(dock.input, text)
    qtbot.keyClick(dock.input, Qt.Key.Key_Return)
    entry = dock.transcript.entries[-1]
    assert entry.kind == "reply", (text, entry.text)
    return entry.text


def test_pan_left_shows_what_lies_to_the_left(qtbot, dock):
    cam = camera(dock.viewer)
    row, col = tuple(cam.center)[-2:]
    width_world = canvas_size(dock.viewer)[1] / cam.zoom
    say(qtbot, dock, "pan left")
    assert tuple(cam.center)[-1] == pytest.approx(col - 0.25 * width_world)
    assert tuple(cam.center)[-2] == pytest.approx(row)
    say(qtbot, dock, "pan up a lot")
    assert tuple(cam.center)[-2] < row, "up shows what lies above: smaller rows"
    say(qtbot, dock, "undo")
    say(qtbot, dock, "undo")
    assert tuple(cam.center)[-2:] == pytest.approx((row, col))


def test_gamma_brightness_and_contrast_and_their_undo(qtbot, dock):
    gfp = dock.viewer.layers["GFP"]
    low, high = (float(v) for v in gfp.contrast_limits)
    say(qtbot, dock, "gamma GFP 0.5")
    assert gfp.gamma == pytest.approx(0.5)
    say(qtbot, dock, "brighter GFP")
    assert tuple(gfp.contrast_limits) == pytest.approx((low, high / 1.5))
    say(qtbot, dock, "make GFP twice as bright")
    assert tuple(gfp.contrast_limits)[1] == pytest.approx(high / 3)
    bright = tuple(gfp.contrast_limits)
    say(qtbot, dock, "increase contrast on GFP")
    centre, half = sum(bright) / 2, (bright[1] - bright[0]) / 2 / 1.5
    assert tuple(gfp.contrast_limits) == pytest.approx((centre - half, centre + half))
    for _ in range(4):
        say(qtbot, dock, "undo")
    assert tuple(gfp.contrast_limits) == pytest.approx((low, high)) and gfp.gamma == pytest.approx(1)


def test_dimmer_is_the_inverse_of_brighter(qtbot, dock):
    actin = dock.viewer.layers["actin"]
    before = tuple(actin.contrast_limits)
    say(qtbot, dock, "make actin dimmer")
    assert tuple(actin.contrast_limits)[1] == pytest.approx(before[1] * 1.5)
    say(qtbot, dock, "brighter actin")
    assert tuple(actin.contrast_limits) == pytest.approx(before)


def test_view_from_a_side_and_rotate_in_3d_and_back(qtbot, dock):
    viewer = dock.viewer
    cam = camera(viewer)
    say(qtbot, dock, "view from the left")
    assert viewer.dims.ndisplay == 3
    assert np.allclose(cam.view_direction, (0, 0, 1), atol=1e-6)
    say(qtbot, dock, "rotate 90 degrees")
    assert abs(np.dot(cam.view_direction, (0, 0, 1))) < 1e-6, "a quarter turn about the vertical"
    assert np.allclose(cam.up_direction, (1, 0, 0), atol=1e-6), "turning about it keeps up"
    say(qtbot, dock, "undo")
    assert np.allclose(cam.view_direction, (0, 0, 1), atol=1e-6)
    say(qtbot, dock, "undo")
    assert viewer.dims.ndisplay == 2


def test_transparency_reads_as_the_opposite_of_opacity(qtbot, dock):
    say(qtbot, dock, "set GFP to 30% transparent")
    assert dock.viewer.layers["GFP"].opacity == pytest.approx(0.7)
