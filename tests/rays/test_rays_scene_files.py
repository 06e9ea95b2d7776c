"""Scene files a person loads in the dock, beyond ray-optics' own suite."""

from __future__ import annotations

import json

from support.door import open_door, type_line
from test_rayoptics_cli import CROP_BOX_OF_30_RAYS, trapped_ray


def test_a_crop_box_ray_limit_stops_the_trace_and_is_told_as_a_note(
    make_napari_viewer_proxy, workspace, qtbot
):
    (workspace / "trap.json").write_text(json.dumps(trapped_ray(CROP_BOX_OF_30_RAYS)))
    dock = open_door(make_napari_viewer_proxy, workspace)
    entry = type_line(qtbot, dock, "load scene trap.json")
    assert entry.kind != "error", entry.text
    assert "31 segments traced" in entry.text
    assert "Note: the simulation stopped at the scene's ray count limit (31 rays" in entry.text
    assert "Warning" not in entry.text
