"""After a bare ``pip install`` (numba's cache empty) the ray kernels compile in the background as the
dock opens, with a word in the transcript, and never on the GUI thread: the Prism demo opened from
File > Open Sample at once is traced without them. With the cache warm, they load there too.

A fresh process each time (numba's compiled code is per process); every compile or cache load of a
napari-talk kernel is recorded with its thread by wrapping numba's ``Dispatcher.compile``, which
both go through (napari compiles kernels of its own on the GUI thread: those are not counted).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

SCRIPT = r"""
import json, sys, threading, time
from numba.core.dispatcher import Dispatcher

loads = []  # (thread, function) of every compile or cache load of a napari-talk kernel
compile_or_load = Dispatcher.compile

def recorded(self, sig):
    if self.py_func.__module__.startswith("napari_talk."):
        loads.append((threading.current_thread().name, self.py_func.__qualname__))
    return compile_or_load(self, sig)

Dispatcher.compile = recorded
import napari
from qtpy.QtWidgets import QApplication
from napari_talk._qt.dock import ChatDock

viewer = napari.Viewer(show=False)
dock = ChatDock(viewer)
viewer.window.add_dock_widget(dock, name="Chat")
viewer.open_sample("napari-talk", "prism_demo")  # at once, as the dock opens
rays = {layer.name: len(layer.data) for layer in viewer.layers}
ready = lambda: any(entry.text == "The ray tracer is ready." for entry in dock.transcript.entries)
deadline = time.monotonic() + 240
while time.monotonic() < deadline and not ready():
    QApplication.processEvents()
    time.sleep(0.01)
print(json.dumps({"layers": rays, "loads": loads, "transcript": [e.text for e in dock.transcript.entries]}))
viewer.close()
"""
GETTING_READY = "Getting the ray tracer ready (the first time after an install: about 10 s)…"


def _open_dock_and_prism_demo(numba_cache) -> dict:
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT],
        capture_output=True,
        text=True,
        timeout=400,
        env={**os.environ, "PYTHONWARNINGS": "ignore", "NUMBA_CACHE_DIR": str(numba_cache)},
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.mark.skipif(not os.environ.get("DISPLAY"), reason="needs an X display (Xvfb)")
@pytest.mark.parametrize("cache", ["empty", "warm"])
def test_the_ray_kernels_compile_or_load_off_the_gui_thread_as_the_dock_opens(cache, tmp_path_factory):
    numba_cache = tmp_path_factory.getbasetemp() / "numba-cache"  # one for both: empty, then warm
    assert (cache == "empty") == (not numba_cache.exists())
    seen = _open_dock_and_prism_demo(numba_cache)
    assert seen["layers"]["rays: segments"] == 99, seen["layers"]  # traced when the sample opened
    assert {"rays: glasses", "rays: edge labels", "rays: light sources"} <= set(seen["layers"])
    threads = {thread for thread, _ in seen["loads"]}
    assert threads == {"napari-talk-packs"}, seen["loads"]  # the packs' set-up: never the GUI thread
    kernels = {"ends", "nearest_edges", "lineage", "step", "nearest", "refract_run"}
    assert kernels <= {function for _, function in seen["loads"]}
    transcript = seen["transcript"]
    assert transcript.index(GETTING_READY) < transcript.index("The ray tracer is ready."), transcript
    assert numba_cache.exists()
