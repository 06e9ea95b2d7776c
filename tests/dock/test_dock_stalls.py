"""No line the README gives holds napari's event loop for more than 100 ms of napari-talk's own
work, measured as benchmarks/dock_stalls.py measures it (its Meter): the GUI thread's CPU time in
napari-talk's code, numpy and the like called from it included, in any one hold of the loop. The
lines are typed into the dock on the viewer proxy, the first one the moment the dock opens, the
packs' samples opened as File > Open Sample opens them. CPU time, not wall time: other work on the
machine does not make it fail."""

from __future__ import annotations

import importlib.util
import sys
import time
from pathlib import Path

import numpy as np
from qtpy.QtCore import Qt
from test_readme_door import STACK_LINES, pack_rows, viewer_lines

BENCHMARK = Path(__file__).resolve().parents[2] / "benchmarks" / "dock_stalls.py"


def _benchmark():
    spec = importlib.util.spec_from_file_location("benchmark_dock_stalls", BENCHMARK)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look themselves up there
    spec.loader.exec_module(module)
    return module


bench = _benchmark()


def test_no_readme_line_holds_the_loop_for_100_ms_of_napari_talks_own_work(
    qtbot, make_napari_viewer_proxy, workspace
):
    from qtpy.QtWidgets import QApplication

    from napari_talk._qt.dock import ChatDock

    viewer = make_napari_viewer_proxy()
    viewer.open_sample("napari-talk", "cells")
    if STACK_LINES:
        viewer.add_image(np.zeros((40, 30, 16, 16), np.uint8), name="stack")

    def pump() -> None:
        QApplication.processEvents()
        time.sleep(0.001)

    meter = bench.Meter().start()
    try:
        dock = ChatDock(viewer)  # and the first line at once: the parser may still be compiling
        viewer.window.add_dock_widget(dock, name="Chat")
        dock.session.workspace = workspace

        def typed(line: str):
            def type_line() -> None:
                qtbot.keyClicks(dock.input, line)
                qtbot.keyClick(dock.input, Qt.Key.Key_Return)

            stall = meter.run(type_line, lambda: dock.job is None and dock.task is None, pump)
            return line, stall, meter.where()

        measured = [typed(line) for line in viewer_lines()]
        for _, samples, lines in pack_rows():
            for sample in samples:
                viewer.open_sample("napari-talk", sample)
            measured += [typed(line) for line in lines]
    finally:
        meter.stop()
    for line, stall, _ in measured:  # shown with pytest -s
        print(f"{line:42s} {stall}")
    assert len(measured) >= 40
    assert all(stall.held_ms > 0 for _, stall, _ in measured), "the timer ticked"
    over = [
        f"{line!r}: {stall} in {where}" for line, stall, where in measured if stall.own_ms > bench.TARGET_MS
    ]
    assert not over, "\n".join(over)
