"""Recording: what a person typed in the dock, saved as a recipe and replayed on other inputs."""

from __future__ import annotations

import csv
import json
import os
import subprocess
import sys

import numpy as np
from support.door import open_door, type_line
from support.recipe_inputs import small_tiffs


def _one_image_door(make_napari_viewer_proxy, workspace):
    dock = open_door(make_napari_viewer_proxy, workspace)
    data = (np.arange(32 * 32).reshape(32, 32) % 700).astype("uint16")
    dock.viewer.add_image(data, name="sample")
    return dock


def napari_talk(*args, timeout=300):
    env = {**os.environ, "PYTHONWARNINGS": "ignore"}
    env = {k: v for k, v in env.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    return subprocess.run(
        [sys.executable, "-m", "napari_talk", *args], capture_output=True, text=True, timeout=timeout, env=env
    )


def test_saving_what_was_typed_writes_each_kept_command_with_placeholders(
    qtbot, make_napari_viewer_proxy, workspace
):
    dock = _one_image_door(make_napari_viewer_proxy, workspace)
    for line in ("auto contrast sample", "set the colormap of sample to magma", "zoom to 3", "undo",
                 "make sample 30% opaque and turn the scale bar on"):  # fmt: skip
        assert type_line(qtbot, dock, line).kind == "reply", line
    entry = type_line(qtbot, dock, "save what I did as a recipe look")
    assert entry.kind == "reply", entry.text

    text = (workspace / "recipes" / "look.recipe").read_text()
    steps = [line for line in text.splitlines() if not line.startswith("#")]
    meant = [json.loads(line[3:]) for line in text.splitlines() if line.startswith("#> ")]
    assert steps == [
        "auto contrast {layer1}",
        "set the colormap of {layer1} to magma",
        steps[2],  # a canonical phrasing: the typed line asked for two commands
        steps[3],
    ]
    assert "{layer1}" in steps[2] and "zoom" not in text
    assert meant == [
        {"action": "auto_contrast", "name": "{layer1}"},
        {"action": "layer_colormap", "name": "{layer1}", "colormap": "magma"},
        {"action": "layer_opacity", "name": "{layer1}", "opacity": 0.3},
        {"action": "scale_bar", "op": "show"},
    ]
    assert 'input: {layer1} = "sample"' in text

    type_line(qtbot, dock, "undo")
    assert not (workspace / "recipes" / "look.recipe").exists()


def test_a_recorded_recipe_replays_on_each_input_as_it_did_on_the_first(
    qtbot, make_napari_viewer_proxy, workspace
):
    dock = _one_image_door(make_napari_viewer_proxy, workspace)
    for line in ("auto contrast sample", "set the colormap of sample to viridis", "list layers",
                 "save what I did as a recipe look"):  # fmt: skip
        assert type_line(qtbot, dock, line).kind == "reply", line
    images = small_tiffs(workspace / "data", 3)

    done = napari_talk("run", "--recipe", "look", "--each", "data/*.tif", "--scheduler", "in-process")
    assert done.returncode == 0, done.stderr
    with open(workspace / "batches" / "look" / "results.csv", newline="") as table:
        rows = list(csv.DictReader(table))
    assert [row["input"] for row in rows] == [f"data/{p.name}" for p in images]
    assert all(row["status"] == "ok" for row in rows)
    for row, image in zip(rows, images, strict=True):
        import tifffile

        data = tifffile.imread(image)
        stem = image.stem
        assert (
            row["reply 1: auto contrast {layer1}"]
            == f"{stem} contrast set from its data: {data.min()}–{data.max()}."
        )
        assert row["reply 2: set the colormap of {layer1} to viridis"] == f"{stem} colormap viridis."
        replies = json.loads((workspace / "batches" / "look" / f"{stem}.json").read_text())
        assert replies[0]["line"] == f"auto contrast {stem}"


def test_the_dock_runs_a_recipe_on_every_image_of_a_folder(
    qtbot, make_napari_viewer_proxy, workspace, monkeypatch
):
    monkeypatch.setenv("NAPARI_TALK_SCHEDULER", "in-process")  # a local cluster's start is the benchmark's
    dock = _one_image_door(make_napari_viewer_proxy, workspace)
    for line in ("set the colormap of sample to magma", "save what I did as a recipe tint"):
        assert type_line(qtbot, dock, line).kind == "reply", line
    small_tiffs(workspace / "data", 3)
    (workspace / "data" / "readme.txt").write_text("not an image: a folder's images are its inputs")

    entry = type_line(qtbot, dock, "run recipe tint on every file in data/")
    assert entry.kind == "reply", entry.text
    assert entry.text.startswith("recipe tint: 3 of 3 inputs ok; table: ")
    with open(workspace / "batches" / "tint" / "results.csv", newline="") as table:
        rows = list(csv.DictReader(table))
    assert [(r["input"], r["status"]) for r in rows] == [(f"data/img0{n}.tif", "ok") for n in range(3)]
    assert rows[1]["reply 1: set the colormap of {layer1} to magma"] == "img01 colormap magma."
    assert dock.viewer.layers["sample"].colormap.name == "magma"  # the person's viewer: only their line


def test_a_recipe_that_writes_files_asks_the_person_before_the_dock_runs_it(
    qtbot, make_napari_viewer_proxy, workspace, monkeypatch
):
    from qtpy.QtCore import Qt

    monkeypatch.setenv("NAPARI_TALK_SCHEDULER", "in-process")
    dock = _one_image_door(make_napari_viewer_proxy, workspace)
    for line in (
        "auto contrast sample",
        "write seen to notes/sample.txt",
        "save what I did as a recipe notes",
    ):
        assert type_line(qtbot, dock, line).kind == "reply", line
    small_tiffs(workspace / "data", 2)

    type_line(qtbot, dock, "run recipe notes on every file in data/")
    qtbot.waitUntil(lambda: dock.run_button.isVisibleTo(dock), timeout=10_000)
    assert not (workspace / "batches").exists()  # nothing ran before the person's word
    qtbot.mouseClick(dock.run_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: (workspace / "notes" / "img01.txt").exists(), timeout=120_000)
    qtbot.waitUntil(lambda: dock.job is None and dock.task is None, timeout=120_000)
    assert (workspace / "notes" / "img00.txt").read_text() == "seen"
    assert "2 of 2 inputs ok" in dock.transcript.entries[-1].text
