"""How long "segment it" takes typed into the dock on the mesh sample, against the same
segmentation run in place in the same process (needs a display: ``LIBGL_ALWAYS_SOFTWARE=1 xvfb-run
-a python benchmarks/mesh_segment_worker.py [--repeat 3] [--settle 5]``: seconds the window is left
to settle before the first line; 0 types it as soon as the window is up, as a person may).

The dock runs the segmentation in a worker thread while the GUI thread keeps turning; if the GUI
thread holds the GIL (repaints, timers, a collection), the worker waits. Printed: the in-place
time (the baseline), then each dock run's time from Enter to the reply (and the segmentation's own
seconds, as the reply gives them).
"""

from __future__ import annotations

import re
import statistics
import sys
import time


def main() -> None:
    import napari
    from napari.utils._proxies import PublicOnlyProxy
    from qtpy.QtWidgets import QApplication

    from napari_talk._qt.dock import ChatDock
    from napari_talk.packs.mesh.display import prepare_state
    from napari_talk.packs.mesh.naming import part_names
    from napari_talk.packs.mesh.primitives import build
    from napari_talk.packs.mesh.segmentation import segment
    from napari_talk.packs.mesh.state import ModelState

    repeat = int(sys.argv[sys.argv.index("--repeat") + 1]) if "--repeat" in sys.argv else 3
    viewer = napari.Viewer()
    app = QApplication.instance()
    dock = ChatDock(PublicOnlyProxy(viewer))
    viewer.window.add_dock_widget(dock, name="Chat")
    viewer.open_sample("napari-talk", "mesh")
    settle = float(sys.argv[sys.argv.index("--settle") + 1]) if "--settle" in sys.argv else 5.0
    deadline = time.perf_counter() + settle
    while time.perf_counter() < deadline:  # the window shown; the warm-up done if settle is long enough
        app.processEvents()
        time.sleep(0.01)

    def in_dock(label: str) -> None:
        started = time.perf_counter()
        dock.send("segment it")
        while dock.job is not None or dock.task is not None:
            app.processEvents()
        waited = time.perf_counter() - started
        reply = next(e.text for e in reversed(dock.transcript.entries) if e.kind == "reply")
        told = re.search(r"in (\d+\.\d+) s", reply)
        print(f"{label}: {waited:.2f} s from Enter to the reply (the reply says {told and told[1]} s)")
        dock.send("undo")
        while dock.job is not None:
            app.processEvents()

    in_dock("dock, first line")
    body = build("Body")
    in_place = []
    for _ in range(repeat):
        started = time.perf_counter()
        result = segment(body)  # the job's work, as request_segmentation does it
        names = part_names(body, result.labels)
        prepare_state(ModelState(mesh=body, labels=result.labels, names=names))
        in_place.append(time.perf_counter() - started)
    print(f"in place (baseline): median {statistics.median(in_place):.2f} s, worst {max(in_place):.2f} s")
    for run in range(repeat):
        in_dock(f"dock, run {run + 2}")
    viewer.close()


if __name__ == "__main__":
    main()
