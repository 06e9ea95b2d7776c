"""Batches from the command line, in one process: bad inputs fail their row only, reruns resume,
and a recipe that replaces data runs only with --yes."""

from __future__ import annotations

import csv
import os
import subprocess
import sys

from support.recipe_inputs import huge_tiff, small_tiffs

RECIPE = """# napari-talk recipe: notes
auto contrast {layer1}
set the colormap of {layer1} to magma
write done to notes/{stem}.txt
#> {"action": "write_file", "path": "notes/{stem}.txt", "content": "done"}
"""


def napari_talk(*args, timeout=300):
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    return subprocess.run(
        [sys.executable, "-m", "napari_talk", *args], capture_output=True, text=True, timeout=timeout,
        env={**env, "PYTHONWARNINGS": "ignore"},
    )  # fmt: skip


def rows(workspace, name="notes"):
    with open(workspace / "batches" / name / "results.csv", newline="") as table:
        return {row["input"]: row for row in csv.DictReader(table)}


def test_hostile_inputs_fail_their_rows_and_the_rest_run(workspace, tmp_path):
    (workspace / "recipes").mkdir()
    (workspace / "recipes" / "notes.recipe").write_text(RECIPE)
    small_tiffs(workspace / "data", 2)
    (workspace / "data" / "broken.tif").write_bytes(b"II*\x00" + b"not a tiff at all" * 20)
    huge_tiff(workspace / "data" / "huge.tif")
    outside = small_tiffs(tmp_path / "elsewhere", 1)[0]
    (workspace / "data" / "escape.tif").symlink_to(outside)

    done = napari_talk(
        "run", "--recipe", "notes", "--each", "data/*.tif", "--scheduler", "in-process", "--yes"
    )
    assert done.returncode == 1, done.stderr
    table = rows(workspace)
    assert {k: r["status"] for k, r in table.items()} == {
        "data/broken.tif": "failed", "data/escape.tif": "failed", "data/huge.tif": "failed",
        "data/img00.tif": "ok", "data/img01.tif": "ok",
    }  # fmt: skip
    assert (
        "not a TIFF" in table["data/broken.tif"]["error"] or "no image" in table["data/broken.tif"]["error"]
    )
    assert "GiB of pixels" in table["data/huge.tif"]["error"]
    assert "outside" in table["data/escape.tif"]["error"] or "leave" in table["data/escape.tif"]["error"]
    for row in table.values():
        assert "\n" not in row["error"] and "Traceback" not in row["error"]
    assert (workspace / "notes" / "img00.txt").read_text() == "done"
    assert not (workspace / "notes" / "escape.txt").exists()


def test_a_path_escape_in_a_recipe_fails_each_row_and_writes_nothing_outside(workspace, tmp_path):
    (workspace / "recipes").mkdir()
    (workspace / "recipes" / "out.recipe").write_text("auto contrast {layer1}\nwrite x to ../../{stem}.txt\n")
    small_tiffs(workspace / "data", 2)

    done = napari_talk("run", "--recipe", "out", "--each", "data/*.tif", "--scheduler", "in-process", "--yes")
    assert done.returncode == 1
    table = rows(workspace, "out")
    assert [r["status"] for r in table.values()] == ["failed", "failed"]
    assert all(r["error"].startswith("line 2 (write x to ../../img0") for r in table.values())
    assert not list(tmp_path.parent.glob("img0*.txt")) and not list(tmp_path.glob("img0*.txt"))


def test_a_recipe_that_replaces_data_needs_yes_up_front(workspace):
    (workspace / "recipes").mkdir()
    (workspace / "recipes" / "notes.recipe").write_text(RECIPE)
    small_tiffs(workspace / "data", 1)

    done = napari_talk("run", "--recipe", "notes", "--each", "data/*.tif", "--scheduler", "in-process")
    assert done.returncode == 2
    assert "line 3 (write done to notes/{stem}.txt) removes or replaces data" in done.stderr
    assert "--yes" in done.stderr and not (workspace / "batches").exists()


def test_a_rerun_keeps_complete_rows_and_runs_the_rest(workspace):
    (workspace / "recipes").mkdir()
    (workspace / "recipes" / "notes.recipe").write_text(RECIPE)
    small_tiffs(workspace / "data", 3)
    first = napari_talk(
        "run", "--recipe", "notes", "--each", "data/*.tif", "--scheduler", "in-process", "--yes"
    )
    assert first.returncode == 0, first.stderr
    before = rows(workspace)
    (workspace / "notes" / "img01.txt").unlink()  # one input's output gone: that input runs again

    again = napari_talk(
        "run", "--recipe", "notes", "--each", "data/*.tif", "--scheduler", "in-process", "--yes"
    )
    assert again.returncode == 0, again.stderr
    assert "3 of 3 rows ok, 2 kept from an earlier run" in again.stdout
    after = rows(workspace)
    assert after["data/img00.tif"] == before["data/img00.tif"]  # the same row, seconds and all
    assert (workspace / "notes" / "img01.txt").read_text() == "done"


def test_a_sweep_gives_one_row_per_value(workspace):
    (workspace / "recipes").mkdir()
    (workspace / "recipes" / "zoom.recipe").write_text("zoom to {z}\n")
    done = napari_talk("run", "--recipe", "zoom", "--sweep", "z=1:2:0.5", "--scheduler", "in-process")
    assert done.returncode == 0, done.stderr
    table = rows(workspace, "zoom")
    assert list(table) == ["z=1", "z=1.5", "z=2"]
    assert (workspace / "batches" / "zoom" / "z=1.5.json").exists()
    assert [r["reply 1: zoom to {z}"] for r in table.values()] == [
        "zoom set to 1.", "zoom set to 1.5.", "zoom set to 2."
    ]  # fmt: skip


def test_a_for_line_typed_to_run_is_a_sweep_of_its_lines(workspace):
    done = napari_talk(
        "run", "for z from 1 to 2 step 0.5: zoom to {z}; list layers", "--scheduler", "in-process"
    )
    assert done.returncode == 0, done.stderr
    table = rows(workspace, "for-z")
    assert [r["reply 1: zoom to {z}"] for r in table.values()] == [
        "zoom set to 1.", "zoom set to 1.5.", "zoom set to 2."
    ]  # fmt: skip
    assert all(r["reply 2: list layers"] for r in table.values())

    wrong = napari_talk("run", "for z from 2 to 1 step 0.5: zoom to {z}", "--scheduler", "in-process")
    assert wrong.returncode == 2 and "the start is past the end" in wrong.stderr


def test_the_default_is_a_local_cluster_on_this_machine(workspace):
    (workspace / "recipes").mkdir()
    (workspace / "recipes" / "tint.recipe").write_text("set the colormap of {layer1} to magma\n")
    small_tiffs(workspace / "data", 2)
    done = napari_talk("run", "--recipe", "tint", "--each", "data/*.tif", "--workers", "1")
    assert done.returncode == 0, done.stderr
    assert "2 of 2 rows ok" in done.stdout
    assert "distributed" not in done.stderr  # the cluster's own logging stays out of the person's way
    replies = [r["reply 1: set the colormap of {layer1} to magma"] for r in rows(workspace, "tint").values()]
    assert replies == ["img00 colormap magma.", "img01 colormap magma."]


def test_without_each_a_recipe_runs_once_on_the_samples_layers(workspace):
    (workspace / "recipes").mkdir()
    (workspace / "recipes" / "tint.recipe").write_text(
        "# napari-talk recipe: tint\nset the colormap of {layer1} to magma\n"
        '#> {"action": "layer_colormap", "name": "{layer1}", "colormap": "magma"}\n'
        '{"action": "layer_opacity", "name": "{layer1}", "opacity": 0.5}\n'
    )
    done = napari_talk("run", "--recipe", "tint", "--sample", "cells")
    assert done.returncode == 0, done.stderr
    replies = [line for line in done.stdout.splitlines() if line.startswith("✓")]
    assert len(replies) == 2 and replies[0].endswith("colormap magma.") and "opacity 50%" in replies[1]
