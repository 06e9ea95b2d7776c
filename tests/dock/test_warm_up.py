"""When the dock opens, each pack's handlers are imported off the GUI thread (after the parser's
rules for the first line), so no pack's first command imports them on it. A fresh process, so
nothing is imported beforehand; Python's audit hook says which thread imported what."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

SCRIPT = r"""
import sys, threading, time
importers = {}

def watch(event, args):
    if event == "import" and args[0].startswith("napari_talk.packs.") and args[0].endswith(".handlers"):
        importers.setdefault(args[0], threading.current_thread().name)

sys.addaudithook(watch)
import napari
from qtpy.QtWidgets import QApplication
from napari_talk._qt.dock import ChatDock

viewer = napari.Viewer(show=False)
dock = ChatDock(viewer)
viewer.window.add_dock_widget(dock, name="Chat")
deadline = time.monotonic() + 240
while time.monotonic() < deadline and dock._warming.running():
    QApplication.processEvents()
    time.sleep(0.01)
for module, thread in sorted(importers.items()):
    print(module, thread)
viewer.close()
"""


@pytest.mark.skipif(not os.environ.get("DISPLAY"), reason="needs an X display (Xvfb)")
def test_the_packs_handlers_are_imported_off_the_gui_thread_when_the_dock_opens(workspace):
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "PYTHONWARNINGS": "ignore"},
    )
    assert done.returncode == 0, done.stderr[-2000:]
    importers = dict(line.split() for line in done.stdout.splitlines() if line.startswith("napari_talk."))
    packs = {"viewer", "files", "rays", "mesh", "atlas"}
    assert {f"napari_talk.packs.{pack}.handlers" for pack in packs} <= set(importers), importers
    assert set(importers.values()) == {"napari-talk-warm-up"}, importers
