"""The dock has napari triangulate shapes with bermuda (compiled), unless the person chose otherwise.

A ray scene of thousands of glasses is thousands of polygons that napari triangulates as it makes
the glasses layer. bermuda is a dependency; the dock names it as it opens when napari's setting
"Triangulation backend to use for Shapes layer" is "Fastest available" (its default), and keeps
any other backend a person chose there, read from their settings file in a fresh process.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from support.door import open_door, typed_ok

pytestmark = pytest.mark.skipif(not os.environ.get("DISPLAY"), reason="needs an X display (Xvfb)")

OPEN_THE_DOCK = """
import json
import napari
from napari.settings import get_settings
from napari.utils.triangulation_backend import get_backend
from napari_talk._qt.dock import ChatDock

viewer = napari.Viewer(show=False)
dock = ChatDock(viewer)
opened = {"setting": str(get_settings().experimental.triangulation_backend),
          "dock": str(dock.triangulation), "in_force": str(get_backend())}
get_settings().experimental.triangulation_backend = "Pure python"
opened["after_the_person_changed_it"] = str(get_backend())
viewer.close()
print(json.dumps(opened))
"""


def open_with_settings(folder: Path, settings_yaml: str) -> dict[str, str]:
    """A fresh napari with the dock, reading ``settings_yaml`` as the person's napari settings."""
    config = folder / "napari-settings.yaml"
    config.write_text(settings_yaml)
    done = subprocess.run(
        [sys.executable, "-c", OPEN_THE_DOCK],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "NAPARI_CONFIG": str(config), "PYTHONWARNINGS": "ignore"},
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def glasses_scene(count: int) -> dict:
    def glass(n: int) -> dict:
        x, y = 10 * (n % 10), 10 * (n // 10)
        corners = [(x, y), (x + 5, y), (x + 5, y + 5)]
        path = [{"x": a, "y": b, "arc": False} for a, b in corners]
        return {"type": "Glass", "refIndex": 1.5, "path": path}

    beam = {"type": "Beam", "p1": {"x": -20, "y": 0}, "p2": {"x": -20, "y": 40}, "numRays": 5}
    return {"version": 5, "objs": [beam] + [glass(n) for n in range(count)]}


def test_the_dock_has_napari_triangulate_with_bermuda_and_a_scene_loads(
    make_napari_viewer_proxy, workspace, qtbot
):
    from napari.utils.triangulation_backend import TriangulationBackend, get_backend, set_backend

    from napari_talk.packs.rays.layers import layers_with

    before = get_backend()
    try:
        dock = open_door(make_napari_viewer_proxy, workspace)
        assert dock.triangulation is TriangulationBackend.bermuda
        assert get_backend() is TriangulationBackend.bermuda
        (workspace / "many.json").write_text(json.dumps(glasses_scene(60)))
        typed_ok(qtbot, dock, "load scene many.json")
        glasses = layers_with(dock.viewer, "glasses")
        assert len(glasses) == 1
        assert glasses[0].nshapes == 60
    finally:
        set_backend(before)


def test_left_at_fastest_available_the_setting_gets_bermuda(tmp_path):
    opened = open_with_settings(tmp_path, "experimental:\n  triangulation_backend: Fastest available\n")
    assert opened["setting"] == "Fastest available"
    assert opened["dock"] == opened["in_force"] == "bermuda"
    assert opened["after_the_person_changed_it"] == "Pure python"


def test_a_backend_the_person_chose_in_napari_settings_is_kept(tmp_path):
    opened = open_with_settings(tmp_path, "experimental:\n  triangulation_backend: Numba\n")
    assert opened["setting"] == "Numba"
    assert opened["dock"] == opened["in_force"] == "Numba"
