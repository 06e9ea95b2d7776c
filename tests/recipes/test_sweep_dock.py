"""A sweep typed in the dock ("for index from 1.4 to 1.7 step 0.05: ..."): each value runs off the GUI
thread on a copy of the viewer's layers, the reply is the table, the person's scene is left as it
was, and Stop ends it after the value under way."""

from __future__ import annotations

import csv
import itertools
import json
import re

import pytest
from qtpy.QtCore import QTimer
from support.door import open_door, said, type_line, typed_ok

SCENE = {
    "version": 5,
    "rayModeDensity": 1,
    "objs": [
        {"type": "Beam", "p1": {"x": 0, "y": 0}, "p2": {"x": 0, "y": 100}},
        {"type": "Glass", "refIndex": 1.5, "path": [
            {"x": 20, "y": -20, "arc": False}, {"x": 40, "y": 120, "arc": False},
            {"x": 30, "y": 120, "arc": False}, {"x": 10, "y": -20, "arc": False}]},
        {"type": "Detector", "p1": {"x": 80, "y": -50}, "p2": {"x": 80, "y": 150},
         "irradMap": True, "binSize": 10},
    ],
}  # fmt: skip
SWEEP = "for index from 1.4 to 1.7 step 0.05: set the index of Glass 1 to {index}; detector readings"


@pytest.fixture
def dock(make_napari_viewer_proxy, workspace, qtbot, monkeypatch):
    monkeypatch.setenv("NAPARI_TALK_SCHEDULER", "in-process")
    (workspace / "scene.json").write_text(json.dumps(SCENE))
    door = open_door(make_napari_viewer_proxy, workspace)
    typed_ok(qtbot, door, "load scene scene.json")
    return door


def _glass_index(qtbot, dock) -> str:
    described = typed_ok(qtbot, dock, "describe the scene")
    return re.search(r"Glass 1: glass.*?(?:index|n =?) ?(\d+(?:\.\d+)?)", described).group(1)


def test_a_for_line_sweeps_a_copy_of_the_scene_and_answers_with_the_table(dock, workspace, qtbot):
    index_before = _glass_index(qtbot, dock)
    layers_before = {layer.name: layer.data for layer in dock.viewer.layers}
    undo_before = dock.session.history.next_undo()

    shown = typed_ok(qtbot, dock, SWEEP)
    assert shown == "7 rows" and dock.transcript.entries[-1].kind == "table"
    reply = said(dock).text
    assert reply.startswith("for index from 1.4 to 1.7 (7 values): 7 of 7 ok; table: ")
    with open(workspace / "batches" / "for-index" / "results.csv", newline="") as table:
        rows = list(csv.DictReader(table))
    values = ("1.4", "1.45", "1.5", "1.55", "1.6", "1.65", "1.7")
    assert [row["input"] for row in rows] == [f"index={v}" for v in values]
    assert all(row["status"] == "ok" for row in rows)
    readings = [row["reply 2: detector readings"] for row in rows]
    powers = [float(re.search(r"power ([\d.e+-]+)", reading).group(1)) for reading in readings]
    # a denser slab reflects more at its faces: less reaches the detector as the index rises
    assert all(a > b for a, b in itertools.pairwise(powers)), powers
    html = dock.transcript.toHtml().split(reply.split(";")[0][-20:])[-1]
    assert "1.45" in html and "power" in html, "the dock's table holds each value and its reading"

    assert _glass_index(qtbot, dock) == index_before, "the person's scene is as it was"
    assert {layer.name for layer in dock.viewer.layers} >= set(layers_before)
    assert dock.session.history.next_undo() == undo_before, "a sweep leaves nothing to undo"


def test_stop_ends_a_sweep_after_the_value_under_way(dock, workspace, qtbot):
    clicked: list[str] = []

    def stop_once_a_value_is_in() -> None:
        counted = re.search(r"\b[1-9]\d* of 31 values", dock.status.text())
        if not clicked and counted and dock.stop_button.isVisibleTo(dock):
            clicked.append(dock.status.text())
            dock.stop_button.click()

    timer = QTimer()
    timer.timeout.connect(stop_once_a_value_is_in)
    timer.start(20)
    try:
        entry = type_line(qtbot, dock, SWEEP.replace("step 0.05", "step 0.01"))
    finally:
        timer.stop()
    assert clicked, "the dock never said how many values were done"
    assert entry.kind == "error" and entry.text.endswith("stopped")
    with open(workspace / "batches" / "for-index" / "results.csv", newline="") as table:
        done = list(csv.DictReader(table))
    assert 1 <= len(done) < 31 and all(row["status"] == "ok" for row in done)
