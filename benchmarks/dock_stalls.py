"""How long the GUI is held while lines run through the dock, as a person meets them (needs a
display: xvfb-run -a python benchmarks/dock_stalls.py).

A napari window is opened, the dock added to it on the viewer proxy napari gives plugins, the
samples opened as File > Open Sample opens them, and each line sent as the Enter key sends it.
For every line: the longest gap between ticks of a 5 ms timer from Enter until the line's work
(a slow part runs in a thread while the loop turns) is done and shown: that is how long the GUI
was held, napari's own work (adding layers, drawing) included; the time spent inside ``send()``,
which for a line with a slow part includes the turning loop that waits for it; and, from a
profile of ``send()`` on the GUI thread, the time spent in napari-talk's own functions (their
``tottime``: what the plugin itself computes there, napari's, vispy's and Qt's calls excluded).
Baseline: the longest gap of the idle event loop, measured in the same window. Target: no line
holds the loop for more than 100 ms of the plugin's own work.
"""

from __future__ import annotations

import cProfile
import itertools
import pstats
import tempfile
import time
from pathlib import Path

LINES = (
    ("the first line after the dock opens", "cells", "hide nuclei"),
    ("grid on", None, "grid on"),
    ("grid off", None, "grid off"),
    ("load the prism demo", None, "load the prism demo"),
    ("the first ray query", None, "which rays cross edge N of Main Prism"),
    ("a second ray query", None, "rays inside Main Prism"),
    ("spawn a body", None, "spawn a body"),
    ("segmentation", None, "segment it"),
    ("a material", None, "apply dark rusty metal to segment 2"),
    ("export", None, "export the model"),
    ("load the sample catalogue", None, "load the sample catalogue"),
    ("find_similar, first", None, "find similar to a golden desert guardian"),
    ("find_similar, again", None, "find similar to a burial ground of forgotten kings"),
    ("undo", None, "undo"),
)


def own_ms(profile: cProfile.Profile) -> float:
    """Milliseconds spent in napari-talk's own functions (not in what they call)."""
    stats = pstats.Stats(profile).stats  # type: ignore[attr-defined]
    return 1e3 * sum(row[2] for (path, _, _), row in stats.items() if "napari_talk" in path)


def main() -> None:
    import napari
    from napari.utils._proxies import PublicOnlyProxy
    from qtpy.QtCore import QTimer
    from qtpy.QtWidgets import QApplication

    from napari_talk._qt.dock import ChatDock

    workspace = Path(tempfile.mkdtemp(prefix="napari-talk-stalls-"))
    viewer = napari.Viewer()
    app = QApplication.instance()
    proxy = PublicOnlyProxy(viewer)
    ticks: list[float] = []
    timer = QTimer()
    timer.timeout.connect(lambda: ticks.append(time.perf_counter()))

    def pump(seconds: float, until=lambda: True) -> None:
        end = time.perf_counter() + seconds
        while time.perf_counter() < end or not until():
            app.processEvents()
            time.sleep(0.001)

    def longest_gap() -> float:
        return max((b - a for a, b in itertools.pairwise(ticks)), default=0.0)

    opened = time.perf_counter()
    dock = ChatDock(proxy)
    viewer.window.add_dock_widget(dock, name="Chat")
    dock.session.workspace = workspace
    dock_ms = (time.perf_counter() - opened) * 1e3
    pump(1.0)
    timer.start(5)
    ticks.clear()
    pump(2.0)
    idle = longest_gap()
    print(f"the dock opens in {dock_ms:.0f} ms; idle event loop: longest gap {idle * 1e3:.1f} ms (baseline)")
    worst = 0.0  # the longest the loop was held
    worst_own = 0.0
    for label, sample, line in LINES:
        if sample:
            viewer.open_sample("napari-talk", sample)
            pump(0.5)
        ticks.clear()
        start = time.perf_counter()
        ticks.append(start)  # a line that holds the loop from Enter on shows as a gap from here
        profile = cProfile.Profile()
        profile.enable()
        dock.send(line)
        profile.disable()
        inside = time.perf_counter() - start
        pump(0.3, until=lambda: dock.job is None and dock.task is None)
        gap = longest_gap()
        own = own_ms(profile)
        worst = max(worst, gap)
        worst_own = max(worst_own, own)
        reply = dock.transcript.entries[-1]
        said = " ".join(reply.text.split())[:70]
        print(
            f"{label:38s} held {gap * 1e3:7.1f} ms · in send() {inside * 1e3:7.1f} ms · "
            f"napari-talk's own {own:5.1f} ms   "
            f"[{reply.kind}] {said}"
        )
    timer.stop()
    verdict = "ok" if worst_own <= 100 else "MISSED"
    print(
        f"longest hold of the loop: {worst * 1e3:.0f} ms (napari and vispy included); most of napari-talk's "
        f"own work in one line on the GUI thread: {worst_own:.1f} ms  target <= 100 ms: {verdict}"
    )
    viewer.close()


if __name__ == "__main__":
    main()
