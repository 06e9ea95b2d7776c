"""Regenerates docs/images/dock.png: napari with the chat dock after a few typed lines.

xvfb-run -a .venv/bin/python docs/make_screenshot.py
"""

from pathlib import Path

import napari
from qtpy.QtWidgets import QApplication

LINES = [
    "hide actin",
    "colormap GFP magma and set opacity of GFP to 80%",
    "zoom box 120 80 380 300",
    "blur it",
]


def main() -> None:
    viewer = napari.Viewer(title="napari-talk")
    viewer.window.resize(1500, 900)
    viewer.open_sample("napari-talk", "cells")
    _, dock = viewer.window.add_plugin_dock_widget("napari-talk", "Chat")
    for line in LINES:
        dock.send(line)
    for _ in range(20):
        QApplication.processEvents()
    out = Path(__file__).parent / "images" / "dock.png"
    viewer.screenshot(path=str(out), canvas_only=False)
    viewer.close()
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
