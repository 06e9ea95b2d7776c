"""Every line the README tells people to type, typed into the dock on napari's viewer proxy, the
samples opened from File > Open Sample as the README says, and undone after each: the README is
the specification here, so a line added to it is tested by this file."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from qtpy.QtCore import Qt

README = Path(__file__).resolve().parents[1] / "README.md"
SAMPLES = {"Prism demo": "prism_demo", "Mesh sample": "mesh", "Atlas sample": "atlas"}
HIGHLIGHTS = {"rays: selection"}
"""A query's highlight stays until "clear the ray selection": it is not a change to undo."""


def _backticked(cell: str) -> list[str]:
    return re.findall(r"`([^`]+)`", cell)


def _viewer_table() -> str:
    return README.read_text().split("## What to type", 1)[1].split("##", 1)[0]


def viewer_lines() -> list[str]:
    rows = [line for line in _viewer_table().splitlines() if line.startswith("| `")]
    return [typed for row in rows for typed in _backticked(row.split("|")[1])]


STACK_LINES = set(re.findall(r"`([^`]+)` \(on a stack\)", _viewer_table()))
"""Lines the README says need data with more axes than are shown: a stack is opened beside the
cells for them."""


def pack_rows() -> list[tuple[str, list[str], list[str]]]:
    """(pack, samples to open, lines), from the bundled packs' table."""
    text = README.read_text().split("## The bundled packs", 1)[1].split("##", 1)[0]
    rows = []
    for line in text.splitlines():
        cells = line.split("|")
        if len(cells) < 4 or "—" not in cells[1]:
            continue
        pack = cells[1].split("—")[0].strip()
        samples = [key for title, key in SAMPLES.items() if f"*{title}*" in cells[2]]
        rows.append((pack, samples, _backticked(cells[2])))
    return rows


@pytest.fixture
def door(make_napari_viewer_proxy, workspace):
    from napari_talk._qt.dock import ChatDock

    viewer = make_napari_viewer_proxy()
    dock = ChatDock(viewer)
    viewer.window.add_dock_widget(dock, name="Chat")
    dock.session.workspace = workspace
    return dock


def type_line(qtbot, dock, text):
    qtbot.keyClicks(dock.input, text)
    qtbot.keyClick(dock.input, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: dock.job is None and dock.task is None, timeout=60_000)
    return dock.transcript.entries[-1]


def type_all_then_undo_all(qtbot, dock, lines: list[str]) -> None:
    """Each line as the README has it, in order (later lines build on earlier ones); then "undo"
    until nothing is left to undo, every undo answered in words."""
    for line in lines:
        entry = type_line(qtbot, dock, line)
        assert entry.kind in ("reply", "table"), f"{line!r}: {entry.text}"
    while dock.session.history.can_undo:
        undone = type_line(qtbot, dock, "undo")
        assert undone.kind == "reply" and undone.text.startswith("undid"), undone.text


def shown(viewer) -> list[tuple[str, bool]]:
    """What the person sees: each layer and whether it is visible (a query's highlight aside)."""
    return [(layer.name, layer.visible) for layer in viewer.layers if layer.name not in HIGHLIGHTS]


def test_the_readme_names_lines_for_the_viewer_and_every_pack():
    assert len(viewer_lines()) >= 25
    assert {pack for pack, _, _ in pack_rows()} == {"files", "rays", "mesh", "atlas"}


def test_every_viewer_line_of_the_readme_through_the_door(qtbot, door):
    door.viewer.open_sample("napari-talk", "cells")
    if STACK_LINES:
        door.viewer.add_image(np.zeros((40, 30, 16, 16), np.uint8), name="stack")  # t, z, y, x
    before = shown(door.viewer)
    type_all_then_undo_all(qtbot, door, viewer_lines())
    assert shown(door.viewer) == before, "every change was undone"


@pytest.mark.parametrize(("pack", "samples", "lines"), pack_rows(), ids=[row[0] for row in pack_rows()])
def test_every_pack_line_of_the_readme_through_the_door(qtbot, door, workspace, pack, samples, lines):
    (workspace / "notes").mkdir()
    (workspace / "notes" / "plan.md").write_text("# Plan\nimage the GFP series\n")
    (workspace / "notes" / "a.md").write_text("teh cells divide\n")
    (workspace / "chapters").mkdir()
    (workspace / "chapters" / "ch01.md").write_text("The castle stood on the hill.\n")
    door.viewer.open_sample("napari-talk", "cells")
    for sample in samples:
        door.viewer.open_sample("napari-talk", sample)
    before = shown(door.viewer)
    type_all_then_undo_all(qtbot, door, lines)
    assert shown(door.viewer) == before, f"the {pack} lines were all undone"
    assert (workspace / "notes" / "a.md").read_text() == "teh cells divide\n"
