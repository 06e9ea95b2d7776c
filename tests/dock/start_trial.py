"""Fresh-process scripts for the dock's start (run by tests/dock/test_dock_start.py; needs a display).

    python tests/dock/start_trial.py open DELAY SAMPLE   # napari, the dock, then SAMPLE DELAY s later
    python tests/dock/start_trial.py imports dock|plain  # which modules come on which thread
    python tests/dock/start_trial.py close               # the window closed while the dock gets ready
    python tests/dock/start_trial.py layers              # what the packs' layer hooks import

``open`` does what a person does who opens Plugins > Chat and then File > Open Sample: a fresh
process each time, since what races is napari's and the dock's first use of a module. It prints
one JSON line: the layers that came and every error napari reported (a notification of warning
or worse, an exception that reached the event loop, or one the sample raised).

``imports`` records, through Python's audit hook, the thread that first imported each module (and
whether it held numba's compiler lock then): with
the dock (``dock``: the dock opens and everything it does in the background runs to its end) or
without it (``plain``), then napari alone makes a layer of each kind (with units and features) and
turns the camera in 3-D: what napari imports for layers on the GUI thread.
"""

from __future__ import annotations

import json
import sys
import threading
import time

SAMPLES = ("cells", "prism_demo", "atlas", "mesh", "files")


def turn_the_loop(seconds: float) -> None:
    from qtpy.QtWidgets import QApplication

    end = time.monotonic() + seconds
    while time.monotonic() < end:
        QApplication.processEvents()
        time.sleep(0.002)


def open_after(delay: float, sample: str) -> dict:
    import napari
    from napari.utils.notifications import notification_manager

    errors: list[str] = []

    def noted(notification) -> None:
        if notification.severity >= "warning":
            errors.append(f"{notification.severity}: {notification.message}")

    notification_manager.notification_ready.connect(noted)
    sys.excepthook = lambda kind, value, tb: errors.append(f"{kind.__name__}: {value}")
    viewer = napari.Viewer(show=False)
    viewer.window.add_plugin_dock_widget("napari-talk", "Chat")
    turn_the_loop(delay)
    try:
        viewer.open_sample("napari-talk", sample)
    except Exception as exc:
        errors.append(f"{type(exc).__name__}: {exc}")
    turn_the_loop(0.5)
    layers = [layer.name for layer in viewer.layers]
    return {"sample": sample, "delay": delay, "layers": layers, "errors": errors}


def compiling() -> bool:
    """Whether this thread holds numba's compiler lock: what numba imports while it compiles is
    imported under that lock, which napari's own numba compilations take too."""
    lock = sys.modules.get("numba.core.compiler_lock")
    return lock is not None and lock.global_compiler_lock.is_locked()


def first_importers(with_dock: bool) -> dict[str, str]:
    importers: dict[str, str] = {}

    def watch(event: str, args: tuple) -> None:
        if event == "import" and args[0] not in importers:
            importers[args[0]] = threading.current_thread().name + (" (compiling)" if compiling() else "")

    sys.addaudithook(watch)
    import napari
    import numpy as np

    viewer = napari.Viewer(show=False)
    turn_the_loop(0.1)
    before = set(importers)
    if with_dock:
        _, dock = viewer.window.add_plugin_dock_widget("napari-talk", "Chat")
        deadline = time.monotonic() + 240
        while time.monotonic() < deadline and (
            dock._warming.running() or any(t.name.startswith("napari-talk") for t in threading.enumerate())
        ):
            turn_the_loop(0.05)
    viewer.add_image(np.zeros((8, 8)), units="um")
    viewer.add_labels(np.zeros((8, 8), dtype=int))
    viewer.add_points(np.zeros((3, 2)), features={"size": [1.0, 2.0, 3.0]})
    viewer.add_shapes([np.array([[0, 0], [4, 4], [0, 4]])], shape_type="polygon")
    viewer.add_vectors(np.zeros((2, 2, 2)))
    viewer.add_surface((np.random.default_rng(0).random((4, 3)), np.array([[0, 1, 2], [1, 2, 3]])))
    viewer.dims.ndisplay = 3
    viewer.camera.angles = (10.0, 20.0, 30.0)
    turn_the_loop(0.3)
    return {module: thread for module, thread in importers.items() if module not in before}


def layer_hook_imports() -> dict:
    """A session on a viewer (no dock, so no warm-up imports anything first), then a layer of
    every kind the packs draw with, added as napari adds them: the pack modules the layer hooks
    (``layer_added``, ``prepares_for``, run on the GUI thread) imported, and the layers' count."""
    import napari
    import numpy as np

    from napari_talk.core.running.opening import open_session

    viewer = napari.Viewer(show=False)
    session = open_session(viewer)
    before = set(sys.modules)
    viewer.add_image(np.zeros((8, 8, 3), np.uint8), rgb=True)
    viewer.add_shapes([np.array([[0, 0], [4, 4], [0, 4]])], shape_type="polygon")
    viewer.add_vectors(np.zeros((2, 2, 2)))
    viewer.add_surface((np.random.default_rng(0).random((4, 3)), np.array([[0, 1, 2], [1, 2, 3]])))
    turn_the_loop(0.2)
    imported = sorted(m for m in set(sys.modules) - before if m.startswith("napari_talk.packs."))
    return {"imported": imported, "layers": len(viewer.layers), "session": session is not None}


def _ours_running() -> bool:
    return any(t.name.startswith("napari-talk") for t in threading.enumerate())


def close_at_once() -> dict:
    """The dock opens and the window closes before the dock's background set-up is done (a
    ``napari-talk start`` closed at once): the set-up's last word must find nothing deleted."""
    import napari

    viewer = napari.Viewer(show=False)
    _, dock = viewer.window.add_plugin_dock_widget("napari-talk", "Chat")
    while dock._warming.running() or not any(t.name == "napari-talk-packs" for t in threading.enumerate()):
        turn_the_loop(0.005)  # until the packs' own set-up has begun in its thread
    viewer.close()
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline and _ours_running():
        turn_the_loop(0.05)
    turn_the_loop(0.2)
    return {"threads left": [t.name for t in threading.enumerate() if t.name.startswith("napari-talk")]}


if __name__ == "__main__":
    if sys.argv[1] == "open":
        print(json.dumps(open_after(float(sys.argv[2]), sys.argv[3])))
    elif sys.argv[1] == "close":
        print(json.dumps(close_at_once()))
    elif sys.argv[1] == "layers":
        print(json.dumps(layer_hook_imports()))
    else:
        print(json.dumps(first_importers(sys.argv[2] == "dock")))
