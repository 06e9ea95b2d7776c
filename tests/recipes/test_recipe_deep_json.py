"""A recipe whose JSON nests too deep for Python's reader, through ``napari-talk run``: a sentence
or a failed row, never "an error inside napari-talk".

A recipe is a file anyone may hand over; its ``#>`` notes and its ``{"action": ...}`` lines are
JSON, and Python's JSON reader raises RecursionError (not ValueError) past about a thousand
brackets. A ``#>`` note is for readers, so one that cannot be read is passed over and its line
runs; a command line that cannot be read fails its row, or is read as a typed line.
"""

from __future__ import annotations

import csv
import os
import subprocess
import sys

from support.recipe_inputs import small_tiffs

DEEP = "[" * 100_000 + "]" * 100_000
DEEP_ARGUMENT = "[" * 30_000 + "]" * 30_000
"""Deep enough, and within what one command-line argument may hold (128 KiB on Linux)."""


def napari_talk(*args: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    return subprocess.run(
        [sys.executable, "-m", "napari_talk", *args],
        capture_output=True,
        text=True,
        timeout=300,
        env={**env, "PYTHONWARNINGS": "ignore"},
    )


def write_recipe(workspace, name: str, text: str) -> None:
    (workspace / "recipes").mkdir(exist_ok=True)
    (workspace / "recipes" / f"{name}.recipe").write_text(text)


def table(workspace, name: str) -> dict[str, dict[str, str]]:
    csv.field_size_limit(1 << 26)  # the header quotes each line of the recipe, 200 KB here
    with open(workspace / "batches" / name / "results.csv", newline="") as rows:
        return {row["input"]: row for row in csv.DictReader(rows)}


def test_a_note_too_deep_to_read_is_passed_over_and_its_line_runs(workspace):
    write_recipe(workspace, "deep", f"list layers\n#> {DEEP}\n")
    done = napari_talk("run", "--recipe", "deep", "--sample", "cells")
    assert done.returncode == 0, done.stderr[-2000:]
    assert "inside napari-talk" not in done.stderr
    assert any(line.startswith("✓ 6 layers") for line in done.stdout.splitlines()), done.stdout[-2000:]


def test_in_a_batch_the_note_is_passed_over_and_a_command_too_deep_fails_its_row(workspace):
    small_tiffs(workspace / "data", 2)
    write_recipe(workspace, "noted", f"auto contrast {{layer1}}\n#> {DEEP}\n")
    done = napari_talk("run", "--recipe", "noted", "--each", "data/*.tif", "--scheduler", "in-process")
    assert done.returncode == 0, done.stderr[-2000:]
    assert [row["status"] for row in table(workspace, "noted").values()] == ["ok", "ok"]

    write_recipe(workspace, "nested", f'auto contrast {{layer1}}\n{{"action": "list_layers", "x": {DEEP}}}\n')
    for _ in range(2):  # and again: the rerun reads the table, whose header holds the 200 KB line
        done = napari_talk("run", "--recipe", "nested", "--each", "data/*.tif", "--scheduler", "in-process")
        assert done.returncode == 1, done.stderr[-2000:]
        assert "inside napari-talk" not in done.stderr
        rows = table(workspace, "nested")
        assert [row["status"] for row in rows.values()] == ["failed", "failed"]
        for row in rows.values():
            assert row["error"].startswith("line 2 (")
            assert row["error"].endswith("not a command in JSON: it nests too deep to read")
            assert len(row["error"]) <= 300


def test_a_command_too_deep_given_to_run_is_read_as_a_typed_line(workspace):
    line = f'{{"action": "list_layers", "x": {DEEP_ARGUMENT}}}'
    done = napari_talk("run", "--sample", "cells", line, "list layers")
    assert done.returncode == 1, done.stderr[-2000:]
    assert "inside napari-talk" not in done.stderr
    said = [line for line in done.stdout.splitlines() if line.startswith(("✓", "✗"))]
    assert said[0].startswith(f"✗ that line is {len(line):,} characters long"), said
    assert said[1].startswith("✓ 6 layers"), said
