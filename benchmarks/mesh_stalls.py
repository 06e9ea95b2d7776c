"""How long the mesh pack's lines hold napari's event loop, under software rendering, as a person
types them into the dock (needs a display: ``LIBGL_ALWAYS_SOFTWARE=1 xvfb-run -a python
benchmarks/mesh_stalls.py [--repeat 3]``).

The measuring is :mod:`dock_stalls`'s :class:`Meter` (the longest gap between ticks of a 5 ms timer
from Enter to the answer, and the CPU time of napari-talk's own work on the GUI thread in the worst
hold). Each spawn line runs ``--repeat`` times (the first includes warming numpy/scipy paths) and
the worst and the median are printed. The baseline, in the same window: the idle event loop, and
"hide nuclei" (a line that only flips a layer's visibility: what napari itself costs for a change).
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from dock_stalls import Meter  # the same meter as the dock's benchmark

LINES = (
    "spawn a torus",
    "spawn a sphere",
    "spawn a cube",
    "spawn a body",
    "segment it",
    "make it glass",
    "import models/ball.stl",
)


def main() -> None:
    import napari
    import numpy as np
    import trimesh
    from napari.utils._proxies import PublicOnlyProxy
    from qtpy.QtWidgets import QApplication

    from napari_talk._qt.dock import ChatDock

    repeat = int(sys.argv[sys.argv.index("--repeat") + 1]) if "--repeat" in sys.argv else 3
    workspace = Path(tempfile.mkdtemp(prefix="napari-talk-mesh-stalls-"))
    (workspace / "models").mkdir()
    ball = trimesh.creation.icosphere(subdivisions=6)  # 81,920 faces
    (workspace / "models" / "ball.stl").write_bytes(ball.export(file_type="stl"))
    viewer = napari.Viewer()
    app = QApplication.instance()

    def pump() -> None:
        app.processEvents()
        time.sleep(0.001)

    viewer.open_sample("napari-talk", "cells")
    for _ in range(300):
        pump()
    meter = Meter().start()
    dock = ChatDock(PublicOnlyProxy(viewer))
    viewer.window.add_dock_widget(dock, name="Chat")
    dock.session.workspace = workspace
    idle_done = lambda: dock.job is None and dock.task is None  # noqa: E731
    for _ in range(200):
        pump()
    baseline = meter.run(lambda: dock.send("hide nuclei"), idle_done, pump)
    print(f"{'hide nuclei (baseline)':28s} {baseline}")
    for line in LINES:
        stalls = []
        for _ in range(repeat if line.startswith("spawn") else 1):
            stalls.append(meter.run(lambda line=line: dock.send(line), idle_done, pump))
        reply = " ".join(dock.transcript.entries[-1].text.split())[:70]
        held = [s.held_ms for s in stalls]
        own = [s.own_ms for s in stalls]
        print(
            f"{line:28s} held worst {max(held):6.0f} ms, median {statistics.median(held):6.0f} ms; "
            f"own work worst {max(own):6.1f} ms   [{reply}]",
            flush=True,
        )
    idle = meter.run(lambda: None, lambda: True, pump)
    meter.stop()
    print(f"idle event loop (baseline): {idle}")
    del np
    viewer.close()


if __name__ == "__main__":
    main()
