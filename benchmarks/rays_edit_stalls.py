"""How long an edit of a ray scene typed into the dock holds napari's event loop (needs a display:
xvfb-run -a python benchmarks/rays_edit_stalls.py), under software rendering (Mesa's llvmpipe).

The Prism demo is opened as File > Open Sample opens it, the dock is added, and a query traces the
scene (the ray kernels warm). Then the same edit lines are typed twice in the same window:

- **baseline**: the rays pack's layers removed and added anew at every edit, as the pack drew them
  before it updated them in place (the rays' Vectors layer was already updated in place then);
- **in place**: the pack as it is, setting data, features and colours on the layers already there.

Each run ends with an undo of every edit, so both runs start from the same scene. For every line:
**held**, the longest gap between ticks of a 5 ms timer from Enter until the answer shows (napari's
and vispy's work included; the trace runs in a thread and holds the loop only as it holds the
GIL), napari-talk's own CPU work in that hold (:class:`dock_stalls.Meter`), and the trace's own
time as the reply gives it. Target: held <= trace + 100 ms.
"""

from __future__ import annotations

import os
import re
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))

from dock_stalls import Meter

TARGET_MS = 100.0
EDITS = (
    "rays inside the prism",
    "set the index of the prism to 1.6",
    "rotate the prism 10 degrees",
    "more rays",
    "move the prism up by 5",
    "add a point source at 100, 100",
)
"""A query first (its highlight is in the viewer when the edits come), then edits of each kind."""


def replace_layers_as_before() -> Any:
    """Make the pack draw as it did before: every layer but the rays added anew. Returns what puts
    the pack back as it is."""
    from napari_talk.packs.rays import layers

    updatable, empty = layers.updatable, layers.empty

    def only_rays(layer: Any, layer_data: Any) -> bool:
        return layer_data[2] == "vectors" and updatable(layer, layer_data)

    layers.updatable = only_rays
    layers.empty = layers.remove

    def restore() -> None:
        layers.updatable, layers.empty = updatable, empty

    return restore


def trace_ms(reply: str) -> float:
    found = re.search(r"traced in ([\d.]+) ms", reply)
    return float(found.group(1)) if found else 0.0


def main() -> None:
    os.environ.setdefault("LIBGL_ALWAYS_SOFTWARE", "1")
    import napari
    from napari.utils._proxies import PublicOnlyProxy
    from qtpy.QtWidgets import QApplication

    from napari_talk._qt.dock import ChatDock

    def pump() -> None:
        QApplication.instance().processEvents()
        time.sleep(0.001)

    viewer = napari.Viewer()
    viewer.open_sample("napari-talk", "prism_demo")
    for _ in range(300):
        pump()
    dock = ChatDock(PublicOnlyProxy(viewer))
    viewer.window.add_dock_widget(dock, name="Chat")
    dock.session.workspace = Path(tempfile.mkdtemp(prefix="napari-talk-rays-edits-"))
    meter = Meter().start()
    idle = lambda: dock.job is None and dock.task is None  # noqa: E731

    def typed(line: str) -> tuple[float, float, float, str]:
        stall = meter.run(lambda: dock.send(line), idle, pump)
        reply = dock.transcript.entries[-1]
        return stall.held_ms, stall.own_ms, trace_ms(reply.text), reply.kind

    typed("rays inside the prism")  # the scene traced, the kernels warm
    print(f"software rendering: LIBGL_ALWAYS_SOFTWARE={os.environ['LIBGL_ALWAYS_SOFTWARE']}")
    results: dict[str, list[tuple[str, float, float]]] = {}
    for mode in ("baseline", "in place"):
        restore = replace_layers_as_before() if mode == "baseline" else (lambda: None)
        rows = results.setdefault(mode, [])
        for line in (*EDITS, *["undo"] * (len(EDITS) - 1)):
            held, own, traced, kind = typed(line)
            rows.append((line, held, traced))
            print(
                f"{mode:9s} {line:36s} held {held:7.1f} ms (napari-talk's own work {own:6.1f} ms)  "
                f"trace {traced:6.1f} ms  [{kind}]",
                flush=True,
            )
        restore()
    baseline, now = results["baseline"], results["in place"]
    print(f"\n{'line':36s} {'baseline held':>14s} {'in place held':>14s} {'trace':>8s}")
    for (line, before, _), (_, after, traced) in zip(baseline, now, strict=True):
        print(f"{line:36s} {before:11.1f} ms {after:11.1f} ms {traced:5.1f} ms")
    worst = max(held - traced for _, held, traced in now)
    verdict = "ok" if worst <= TARGET_MS else "MISSED"
    print(f"most held beyond the trace, in place: {worst:.1f} ms  target <= {TARGET_MS:.0f} ms: {verdict}")
    meter.stop()
    viewer.close()


if __name__ == "__main__":
    main()
