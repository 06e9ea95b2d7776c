"""``napari-talk start`` opens the cells sample and the chat dock, and the picture is framed in the
canvas the dock leaves: centred, and whole (napari frames a sample as it opens, before the dock
narrows the canvas)."""

from __future__ import annotations

import threading

import numpy as np


def test_the_sample_is_framed_in_the_canvas_the_dock_leaves(qtbot, tmp_path):
    from napari_talk._qt.start import open_window

    viewer, dock = open_window("napari-talk", "cells")
    try:
        qtbot.waitUntil(dock.isVisible, timeout=10_000)
        qtbot.wait(300)  # the event loop runs: the window laid out with the dock, the view framed
        viewer.screenshot(str(tmp_path / "start.png"), canvas_only=False)
        corners = viewer.layers["nuclei"].extent.world[:, -2:] + [[-0.5], [0.5]]  # pixel edges
        height, width = viewer.canvas.size
        on_canvas = (corners[1] - corners[0]) * viewer.camera.zoom
        # centred within two pixels: napari frames every layer, and the spots reach a little past
        assert np.allclose(viewer.camera.center[-2:], corners.mean(axis=0), atol=2)
        assert on_canvas[0] <= height and on_canvas[1] <= width, (on_canvas, (height, width))
        assert max(on_canvas / (height, width)) > 0.85, "framed to fill the canvas, not shrunk"
    finally:
        for thread in threading.enumerate():  # the packs' set-up tells the dock when done: let it finish
            if thread.name == "napari-talk-packs":
                thread.join(60)
        viewer.close()
