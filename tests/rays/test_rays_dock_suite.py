"""Scenes of ray-optics' own suite opened in the dock: traced by the simulator (the pack's one
engine), every object drawn by its kind, the detector read from the simulator's own bins, and an
object moved by typing saved back so that the simulator reads the same scene again."""

from __future__ import annotations

import json
import shutil

import numpy as np
import pytest
from support.door import open_door, typed_ok
from support.simulated import simulated_file
from test_rayoptics_suite import SUITE, mismatch

from napari_talk.packs.rays import display
from napari_talk.packs.rays.rayoptics.simulator import simulate
from napari_talk.packs.rays.roles import layer_role

pytestmark = pytest.mark.skipif(SUITE is None, reason="../shared/raysuite is not here")


def csv_of(reading) -> str:
    rows = [f"{p!r},{v!r}" for p, v in zip(reading.positions, reading.irradiance, strict=True)]
    return "\n".join(["Position,Irradiance", *rows])


def opened(make_napari_viewer_proxy, workspace, qtbot, relative: str):
    shutil.copy(SUITE / relative, workspace / "scene.json")
    dock = open_door(make_napari_viewer_proxy, workspace)
    typed_ok(qtbot, dock, "load scene scene.json")
    return dock


@pytest.mark.parametrize(
    ("relative", "kind", "color"),
    [
        ("blocker/Blocker/default.json", "blocker", display.BLOCKER_COLOR),
        ("mirror/ArcMirror/default.json", "arc mirror", display.MIRROR_COLOR),
        ("blocker/DiffractionGrating/reflect.json", "diffraction grating", display.GRATING_COLOR),
    ],
)
def test_a_suite_scene_is_drawn_by_kind_and_its_detector_reads_as_ray_optics(
    make_napari_viewer_proxy, workspace, qtbot, relative, kind, color
):
    dock = opened(make_napari_viewer_proxy, workspace, qtbot, relative)
    state = dock.session.state("rays").current
    assert not state.result.warnings
    layer = state.glass_layer
    names = list(layer.features["name"])
    drawn = [i for i, name in enumerate(names) if name.casefold().startswith(kind)]
    assert drawn, names
    assert np.allclose(np.asarray(layer.edge_color)[drawn[0], :3], color)
    detector = next(i for i, name in enumerate(names) if name.startswith("Detector"))
    assert np.allclose(np.asarray(layer.edge_color)[detector, :3], display.DETECTOR_COLOR)
    typed_ok(qtbot, dock, "detector readings")
    expected = (SUITE / relative).with_suffix(".csv").read_text()
    assert mismatch(csv_of(state.result.readings[state.scene.detectors[0]]), expected) is None
    assert any(layer_role(lay.metadata) == "irradiance" for lay in dock.viewer.layers)


def test_a_blocker_moved_by_typing_is_saved_and_reopened_unchanged_in_meaning(
    make_napari_viewer_proxy, workspace, qtbot
):
    dock = opened(make_napari_viewer_proxy, workspace, qtbot, "blocker/Blocker/default.json")
    state = dock.session.state("rays").current
    before = state.result.readings[state.scene.detectors[0]]
    typed_ok(qtbot, dock, "move blocker 1 up by 10")
    state = dock.session.state("rays").current
    after = state.result.readings[state.scene.detectors[0]]
    assert after.irradiance != before.irradiance  # the blocker's shadow moved
    typed_ok(qtbot, dock, "save the scene as scenes/new.json")
    saved = json.loads((workspace / "scenes" / "new.json").read_text())
    original = json.loads((SUITE / "blocker/Blocker/default.json").read_text())
    for key in ("rayModeDensity", "lengthScale", "randomSeed", "observer"):
        assert saved[key] == original[key]
    (blocker,) = [o for o in saved["objs"] if o["type"] == "Blocker"]
    (was,) = [o for o in original["objs"] if o["type"] == "Blocker"]
    assert blocker["p1"]["y"] == pytest.approx(was["p1"]["y"] + 10)
    assert blocker["p1"]["x"] == pytest.approx(was["p1"]["x"])
    reread = simulated_file(workspace / "scenes" / "new.json")
    assert not reread.warnings
    simulate(reread.objs, reread.settings, max_depth=reread.max_depth)
    (detector,) = reread.detectors()
    assert [v / detector.binSize for v in detector.bins] == pytest.approx(after.irradiance, rel=1e-9)


def test_an_object_the_simulator_does_not_know_is_named_not_dropped(
    make_napari_viewer_proxy, workspace, qtbot
):
    scene = json.loads((SUITE / "blocker/Blocker/default.json").read_text())
    scene["objs"].append({"type": "Wormhole", "p1": {"x": 0, "y": 0}, "p2": {"x": 1, "y": 1}})
    (workspace / "scene.json").write_text(json.dumps(scene))
    dock = open_door(make_napari_viewer_proxy, workspace)
    said = typed_ok(qtbot, dock, "load scene scene.json")
    assert "Wormhole" in said
    typed_ok(qtbot, dock, "save the scene as kept.json")
    assert "Wormhole" in [o["type"] for o in json.loads((workspace / "kept.json").read_text())["objs"]]
