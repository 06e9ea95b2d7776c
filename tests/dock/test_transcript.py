"""The transcript stays readable whatever a reply holds: tables and code in blocks of their own
that wrap inside the dock, long echoes shortened, the files a reply names as links that open
their folder. Typed through the door, at the width napari gives the dock."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.door import at_default_width, open_door, type_line, wider_than_the_dock

pytestmark = pytest.mark.filterwarnings("error:Private attribute access:FutureWarning")


@pytest.fixture
def door(make_napari_viewer_proxy, workspace, qtbot):
    dock = open_door(make_napari_viewer_proxy, workspace)
    dock.viewer.open_sample("napari-talk", "cells")
    at_default_width(dock)
    return dock


def fits(qtbot, dock) -> None:
    qtbot.wait(100)  # the transcript lays its last entry out
    assert dock.transcript.horizontalScrollBar().maximum() == 0, "nothing runs off to the right"
    assert wider_than_the_dock(dock.transcript) == []


def test_replies_after_an_indented_table_still_wrap(qtbot, door):
    type_line(qtbot, door, "help zoom")  # a reply that ends in indented lines
    fits(qtbot, door)
    type_line(qtbot, door, "list layers")  # a long line of prose right after it
    type_line(qtbot, door, "hide nuclei and then zoom to 2 and then show nuclei and then fit GFP")
    fits(qtbot, door)
    last = door.transcript.document().lastBlock()
    assert last.layout().lineCount() == 1 and last.text() == "framed GFP."
    listing = door.transcript.document().find("6 layers, top first").block()
    assert listing.layout().lineCount() > 1, "the layer list wraps at the dock's width"


def test_a_long_line_is_echoed_short_and_still_answered(qtbot, door):
    line = "hide " + "nuclei " * 700
    reply = type_line(qtbot, door, line.strip())
    echoed = next(e for e in door.transcript.entries if e.kind == "you")
    assert echoed.text == line.strip(), "the entry keeps what was typed"
    shown = door.transcript.toPlainText()
    assert len(shown) < 1200 and f"({len(line.strip()):,} characters)" in shown
    assert reply.kind == "error" and "split it up" in reply.text
    fits(qtbot, door)


def test_a_word_wider_than_the_dock_wraps_inside_itself(qtbot, door):
    type_line(qtbot, door, "hide " + "x" * 600)
    fits(qtbot, door)


def test_code_and_tables_get_blocks_of_their_own(qtbot, door):
    from napari_talk.core.basics.result import Result
    from napari_talk.core.running.session import Turn

    code = "```\n" + "def f():\n    return " + "1 + " * 80 + "1\n```"
    door.transcript.add_turn(
        Turn("show me the code", "parser", results=[Result.success(f"Here:\n{code}\nDone.")])
    )
    door.transcript.add_turn(Turn("hide nuclei", "parser", results=[Result.success("nuclei hidden.")]))
    fits(qtbot, door)
    markup = door.transcript.toHtml()
    assert "def f():" in markup and "```" not in door.transcript.toPlainText()
    assert door.transcript.document().lastBlock().text() == "nuclei hidden."


def test_the_screenshot_reply_links_the_file_and_undo_says_it_is_deleted(qtbot, door, workspace, monkeypatch):
    from qtpy.QtCore import Qt
    from qtpy.QtGui import QDesktopServices

    opened = []
    monkeypatch.setattr(QDesktopServices, "openUrl", lambda url: opened.append(url.toLocalFile()) or True)
    reply = type_line(qtbot, door, "screenshot figures/cells.png")
    path = workspace / "figures" / "cells.png"
    assert str(path) in reply.text, "the whole path, not one relative to a folder the person cannot see"
    assert f'href="{path.as_uri()}"' in door.transcript.toHtml()
    qtbot.wait(100)
    found = door.transcript.document().find(str(path))
    door.transcript.setTextCursor(found)
    door.transcript.ensureCursorVisible()
    qtbot.wait(50)
    middle = door.transcript.cursorRect(found).center()
    middle.setX(middle.x() - 20)  # inside the link, before the cursor at its end
    qtbot.mouseClick(door.transcript.viewport(), Qt.MouseButton.LeftButton, pos=middle)
    assert opened == [str(path.parent)], "a click on the file opens the folder holding it"
    undone = type_line(qtbot, door, "undo")
    assert not path.exists()
    assert undone.text.endswith(f" {path} deleted."), undone.text


def test_colour_swatches_in_a_table(qtbot, door):
    from napari_talk.core.basics.result import Result
    from napari_talk.core.running.session import Turn

    table = {"columns": ["segment", "share"], "rows": [["1 torso", 0.4], ["2 head", 0.1]],
             "swatches": ["#d62728", "not a colour"]}  # fmt: skip
    door.transcript.add_turn(Turn("segment it", "parser", results=[Result.success("2 parts", table=table)]))
    markup = door.transcript.toHtml()
    assert markup.count("#d62728") >= 1 and "not a colour" not in markup
    fits(qtbot, door)


def test_a_chart_is_shown_inline_with_its_caption(qtbot, door):
    from napari_talk.core.basics.chart import chart
    from napari_talk.core.basics.result import Result
    from napari_talk.core.running.session import Turn

    shown = chart([0.4, 0.2, 0.1], "energy of each path")
    door.transcript.add_turn(Turn("top 3 paths", "parser", results=[Result.success("3 paths", chart=shown)]))
    assert door.transcript.entries[-1].text == "3 paths", "the chart goes with the reply"
    assert door.transcript.toHtml().count("<img") == 1
    assert "energy of each path" in door.transcript.toPlainText()
    bad = {"image": "file:///etc/passwd", "caption": "not shown"}
    door.transcript.add_turn(Turn("top 3 paths", "parser", results=[Result.success("3 paths", chart=bad)]))
    assert door.transcript.toHtml().count("<img") == 1 and "not shown" not in door.transcript.toPlainText()
    fits(qtbot, door)


def test_a_relative_path_in_data_is_not_linked(qtbot, door):
    from napari_talk.core.basics.result import Result
    from napari_talk.core.running.session import Turn

    door.transcript.add_turn(
        Turn("x", "parser", results=[Result.success("wrote notes/a.md", {"path": "notes/a.md"})])
    )
    assert "href" not in door.transcript.toHtml().split("wrote", 1)[1]
    assert Path("notes/a.md").is_absolute() is False


def test_segmenting_lists_the_parts_with_swatches_of_their_colours(qtbot, door):
    door.viewer.open_sample("napari-talk", "mesh")
    entry = type_line(qtbot, door, "segment it")
    assert entry.kind == "table", entry.text
    segments = door.session.state("mesh").model.segment_count
    assert entry.text == f"{segments} rows" and segments > 2
    from napari_talk.packs.mesh.appearance import PALETTE

    markup = door.transcript.toHtml().lower()
    assert sum(colour.lower() in markup for colour in PALETTE[:segments]) == segments, "a swatch per part"
    fits(qtbot, door)
