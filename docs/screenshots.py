"""Takes the pictures in docs/images/ from the real dock: napari's window, the dock added from the
Plugins menu's entry, each pack's sample opened from File > Open Sample, the README's lines typed.
Each picture starts from a fresh workspace, so one pack's files do not show in another's.

    xvfb-run -a -s "-screen 0 1600x1200x24" python docs/screenshots.py [dock rays mesh atlas files]
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

IMAGES = Path(__file__).resolve().parent / "images"
TOURS = {
    "dock": (
        "cells",
        ("hide Labels", "GFP in magenta", "brighter GFP", "move spots below GFP", "zoom to 150%"),
    ),
    "rays": ("prism_demo", ("color rays by polarization", "which rays cross edge N of Main Prism")),
    "mesh": ("mesh", ("segment it", "apply dark rusty metal to segment 2", "apply gold to segment 1")),
    "atlas": ("atlas", ("find similar to a golden desert guardian",)),
    "files": ("files", ("list files in sample", "read sample/notes/plan.md")),
}


def main() -> None:
    import napari
    from qtpy.QtWidgets import QApplication

    IMAGES.mkdir(exist_ok=True)
    chosen = sys.argv[1:] or list(TOURS)
    for name in chosen:
        sample, lines = TOURS[name]
        workspace = Path(tempfile.mkdtemp(prefix=f"napari-talk-{name}-"))
        os.environ["NAPARI_TALK_WORKSPACE"] = str(workspace)  # where the files sample is made
        viewer = napari.Viewer()
        viewer.window.resize(1500, 900)
        _, dock = viewer.window.add_plugin_dock_widget("napari-talk", "Chat")
        dock.session.workspace = workspace
        app = QApplication.instance()
        if sample:
            viewer.open_sample("napari-talk", sample)
            for _ in range(50):  # the window takes its size first: frame the sample in it
                app.processEvents()
                time.sleep(0.01)
            viewer.reset_view()
        for line in lines:
            dock.send(line)
            while dock.job is not None or dock.task is not None:
                app.processEvents()
                time.sleep(0.01)
        for _ in range(50):
            app.processEvents()
            time.sleep(0.01)
        path = IMAGES / f"{name}.png"
        viewer.screenshot(str(path), canvas_only=False)
        print(f"{path.relative_to(IMAGES.parent.parent)}: {', '.join(lines)}")
        viewer.close()


if __name__ == "__main__":
    main()
