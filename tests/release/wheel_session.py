"""A session in napari as its plugin menu installs napari-talk, driven as a person would.

Run by the Python of a fresh virtual environment that holds only napari, a Qt binding and the
wheel (``test_wheel_install.py`` makes it), not by pytest: nothing of the checkout is importable.
It reads a plan as JSON on stdin::

    {"lines": [[line, needs a stack], ...], "packs": [[sample key, [line, ...]], ...],
     "atlas_again": line, "meter": path of benchmarks/dock_stalls.py}

and, under the display it is given: makes ``napari.Viewer(show=False)``, adds the chat dock by
napari's plugin mechanism, opens the Prism demo first (the ray kernels not compiled yet; the
longest hold of the event loop measured, and napari-talk's own work in it) and once more (napari's
own kernels compiled by then), opens the cells sample and types ``lines``, then each pack's sample
and its lines, then one more atlas search. Every line is sent as the dock sends what is typed, and
the loop turns until the dock is idle. The last line of stdout is a JSON summary.
"""

from __future__ import annotations

import importlib.util
import json
import sys
import time
from collections.abc import Callable
from typing import Any

LINE_TIMEOUT_S = 300.0
READY = "The ray tracer is ready."


def benchmark_tools(path: str) -> Any:
    """benchmarks/dock_stalls.py (its Meter: the hold of the loop and napari-talk's own CPU time in
    it; its recorder of numba's compiles), loaded from the checkout by its path: measuring tools,
    not part of the package under test."""
    spec = importlib.util.spec_from_file_location("benchmark_dock_stalls", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def main() -> None:
    plan = json.loads(sys.stdin.read())
    tools = benchmark_tools(plan["meter"])
    compiles = tools.record_kernels()

    import napari
    from qtpy.QtWidgets import QApplication

    viewer = napari.Viewer(show=False)
    app = QApplication.instance()
    assert app is not None

    def pump() -> None:
        app.processEvents()
        time.sleep(0.002)

    _, dock = viewer.window.add_plugin_dock_widget("napari-talk", "Chat")
    summary: dict[str, Any] = {
        "napari": napari.__version__,
        "dock": f"{type(dock).__module__}.{type(dock).__qualname__}",
        "samples": {},
        "lines": [],
    }

    def open_sample(key: str) -> None:
        before = {layer.name for layer in viewer.layers}
        viewer.open_sample("napari-talk", key)
        summary["samples"][key] = [layer.name for layer in viewer.layers if layer.name not in before]

    # the first sample a person opens after installing: the ray kernels are not compiled yet
    from napari_talk.packs.rays import kernels

    meter = tools.Meter().start()
    summary["kernels_loaded_before_prism"] = kernels.loaded()
    held = meter.run(lambda: open_sample("prism_demo"), lambda: True, pump)
    summary["prism"] = {
        "held_ms": round(held.held_ms, 1),
        "own_ms": round(held.own_ms, 1),
        "in": meter.where(),
    }
    # again, napari's own kernels for its layers compiled now: what napari-talk adds shows
    demo = summary["samples"]["prism_demo"]
    viewer.layers.select_all()
    viewer.layers.remove_selected()
    summary["kernels_loaded_before_prism_again"] = kernels.loaded()
    held = meter.run(lambda: open_sample("prism_demo"), lambda: True, pump)
    summary["prism_again"] = {
        "held_ms": round(held.held_ms, 1),
        "own_ms": round(held.own_ms, 1),
        "in": meter.where(),
    }
    meter.stop()
    assert summary["samples"]["prism_demo"] == demo, (demo, summary["samples"]["prism_demo"])

    def idle() -> bool:
        return dock.job is None and dock.task is None

    def wait_until(done: Callable[[], bool], timeout: float = LINE_TIMEOUT_S) -> bool:
        until = time.perf_counter() + timeout
        while not done() and time.perf_counter() < until:
            pump()
        return done()

    def type_line(line: str) -> dict[str, Any]:
        first = len(dock.transcript.entries)
        started = time.perf_counter()
        turn = dock.send(line)
        answered = wait_until(idle)
        entries = dock.transcript.entries[first:]
        return {
            "line": line,
            "answered": answered,
            "road": turn.road if turn is not None else None,
            "ok": bool(turn is not None and turn.ok),
            "reply": turn.message if turn is not None else "",
            "errors": [e.text for e in entries if e.kind == "error"],
            "asked": [question for question, _ in dock._questions],
            "seconds": round(time.perf_counter() - started, 2),
        }

    open_sample("cells")
    for line, needs_stack in plan["lines"]:
        if needs_stack and not any(layer.ndim >= 3 for layer in viewer.layers):
            import numpy as np

            viewer.add_image(np.zeros((40, 64, 64), np.uint16), name="stack")
            viewer.dims.ndisplay = 2  # a stack shown slice by slice (the README's "3d" comes before)
        summary["lines"].append(type_line(line))
    for key, lines in plan["packs"]:
        if key not in summary["samples"]:
            open_sample(key)
        summary["lines"].extend(type_line(line) for line in lines)
    summary["atlas_again"] = type_line(plan["atlas_again"])

    summary["ray_tracer_ready"] = wait_until(
        lambda: any(e.text == READY for e in dock.transcript.entries), timeout=LINE_TIMEOUT_S
    )
    summary["compiles_on_gui_thread"] = [c for c in compiles if c["gui"]]
    summary["napari_talk_compiles"] = [c for c in compiles if c["name"].startswith("napari_talk.")]
    summary["layers"] = [layer.name for layer in viewer.layers]
    viewer.close()
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
