"""Loading a ray scene of many glasses into a real napari viewer: where the time goes.

    xvfb-run -a python benchmarks/rays_many_glasses.py            # 100, 1,000 and 5,000 glasses
    xvfb-run -a python benchmarks/rays_many_glasses.py 5000
    xvfb-run -a python benchmarks/rays_many_glasses.py --dock 5000   # the event loop's longest hold
    xvfb-run -a python benchmarks/rays_many_glasses.py --backends Numba bermuda 5000

With ``--backends``, each size is loaded once per named napari triangulation backend in turn (the
first named is the baseline), in the same process: what the dock's choice of backend
(:mod:`napari_talk._qt.triangulation`) is worth. Without it, napari's backend is whatever the
process has (the dock names the fastest compiled one as it opens).

With ``--dock``, each size is typed as ``load scene many.json`` into the dock on a shown viewer,
twice: with the glasses layer made on the GUI thread (the baseline, as before) and made in the job
(``layers.MADE_OFF_THREAD``); printed: the event loop's longest hold and napari-talk's own work in
it (:class:`dock_stalls.Meter`).

Each size is loaded through the session as a typed ``load_scene`` would be, into a napari viewer
whose window is laid out but not shown, then drawn once. Printed per size: the whole command, the
time napari takes to add each layer (its share of the command), the first draw of the canvas, and
the reply's length. The 100-glass row is the baseline the larger ones are read against.
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
import time
from pathlib import Path
from typing import Any


def glass(x: float, y: float) -> dict[str, Any]:
    corners = [(x, y), (x + 5, y), (x + 5, y + 5)]
    return {"type": "Glass", "refIndex": 1.5, "path": [{"x": a, "y": b, "arc": False} for a, b in corners]}


def scene(glasses: int) -> dict[str, Any]:
    beam = {"type": "Beam", "p1": {"x": -20, "y": 0}, "p2": {"x": -20, "y": 40}, "numRays": 20}
    return {"version": 5, "objs": [beam] + [glass(10 * (n % 100), 10 * (n // 100)) for n in range(glasses)]}


def load_average() -> str:
    """The machine's load over 1, 5 and 15 minutes (others share it: read timings beside it)."""
    return "load average " + ", ".join(f"{n:.2f}" for n in os.getloadavg())


def load(glasses: int) -> None:
    import napari
    from napari.layers import Layer
    from qtpy.QtWidgets import QApplication

    from napari_talk.core.running.session import Session
    from napari_talk.packs.rays import display
    from napari_talk.packs.rays.engine import trace
    from napari_talk.packs.rays.scene_json import scene_from_dict

    folder = Path(tempfile.mkdtemp())
    (folder / "many.json").write_text(json.dumps(scene(glasses)))
    started = time.perf_counter()
    loaded = scene_from_dict(scene(glasses))
    result = trace(loaded)
    traced = time.perf_counter() - started
    shares = []
    for data, kwargs, kind in display.scene_layers(loaded, result):
        started = time.perf_counter()
        Layer.create(data, kwargs, kind)
        shares.append(f"{kwargs['name'].removeprefix('rays: ')} {time.perf_counter() - started:.2f}s")
    viewer = napari.Viewer(show=False)
    session = Session(viewer, workspace=folder)
    started = time.perf_counter()
    reply = session.execute({"action": "load_scene", "path": "many.json"})
    whole = time.perf_counter() - started
    started = time.perf_counter()
    QApplication.processEvents()
    viewer.window._qt_viewer.canvas._scene_canvas.render()
    drawn = time.perf_counter() - started
    print(
        f"{glasses:>6,} glasses: load_scene {whole:6.2f}s; of it: reading and tracing {traced:.2f}s, "
        f"napari making each layer: {', '.join(shares)}; first draw {drawn:5.2f}s; "
        f"reply {len(reply.message):,} characters, ok={reply.ok}",
        flush=True,
    )
    viewer.close()


def dock_stall(sizes: list[int]) -> None:
    import sys

    import napari
    from napari.utils._proxies import PublicOnlyProxy
    from qtpy.QtWidgets import QApplication

    sys.path.insert(0, str(Path(__file__).parent))
    from dock_stalls import Meter

    from napari_talk._qt.dock import ChatDock
    from napari_talk.packs.rays import layers

    folder = Path(tempfile.mkdtemp())
    viewer = napari.Viewer()
    app = QApplication.instance()

    def pump() -> None:
        app.processEvents()
        time.sleep(0.001)

    dock = ChatDock(PublicOnlyProxy(viewer))
    viewer.window.add_dock_widget(dock, name="Chat")
    dock.session.workspace = folder
    idle = lambda: dock.job is None and dock.task is None  # noqa: E731
    (folder / "small.json").write_text(json.dumps(scene(20)))
    meter = Meter().start()
    meter.run(lambda: dock.send("load scene small.json"), idle, pump)  # napari's and the kernels' warm-up
    off_thread = layers.MADE_OFF_THREAD
    for size in sizes:
        (folder / "many.json").write_text(json.dumps(scene(size)))
        for label, threshold in (("on the GUI thread (baseline)", 10**9), ("made in the job", off_thread)):
            viewer.layers.clear()
            layers.MADE_OFF_THREAD = threshold
            stall = meter.run(lambda: dock.send("load scene many.json"), idle, pump)
            print(f"{size:>6,} glasses, the layer {label:30s} {stall}", flush=True)
    meter.stop()
    viewer.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sizes", nargs="*", type=int, default=[100, 1000, 5000])
    parser.add_argument("--dock", action="store_true", help="the event loop's longest hold in the dock")
    parser.add_argument("--backends", nargs="+", default=[], help="napari triangulation backends, in turn")
    parser.add_argument("--rounds", type=int, default=1, help="how many times the backends take turns")
    args = parser.parse_args()
    print(load_average(), flush=True)
    if args.dock:
        dock_stall(args.sizes)
    elif args.backends:
        from napari.settings import get_settings
        from napari.utils.triangulation_backend import TriangulationBackend, get_backend, set_backend

        get_settings()  # made now, or napari's settings would name their backend at the first viewer
        for size in args.sizes:
            for _ in range(args.rounds):
                for name in args.backends:
                    set_backend(TriangulationBackend(name))
                    print(f"triangulation: {name:10s}", end=" ", flush=True)
                    load(size)
                    assert get_backend() is TriangulationBackend(name), get_backend()
    else:
        for size in args.sizes:
            load(size)
    print(load_average(), flush=True)


if __name__ == "__main__":
    main()
