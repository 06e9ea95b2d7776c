"""The chat dock on a viewer proxy, as napari hands it to plugins, driven by keystrokes."""

from __future__ import annotations

import json

import numpy as np
import pytest
from qtpy.QtCore import Qt

pytestmark = pytest.mark.filterwarnings("error:Private attribute access:FutureWarning")


@pytest.fixture
def dock(make_napari_viewer_proxy, qtbot):
    from napari_talk._qt.dock import ChatDock
    from napari_talk.samples import cells

    viewer = make_napari_viewer_proxy()
    for data, kwargs, kind in cells():
        getattr(viewer, f"add_{kind}")(data, **kwargs)
    widget = ChatDock(viewer)
    viewer.window.add_dock_widget(widget, name="Chat")
    return widget


def type_line(qtbot, dock, text):
    qtbot.keyClicks(dock.input, text)
    qtbot.keyClick(dock.input, Qt.Key.Key_Return)


def test_typing_a_line_changes_the_viewer_and_the_transcript_shows_it(qtbot, dock):
    type_line(qtbot, dock, "hide nuclei")
    assert not dock.viewer.layers["nuclei"].visible
    kinds = [(e.kind, e.text) for e in dock.transcript.entries]
    assert ("you", "hide nuclei") in kinds
    command = next(text for kind, text in kinds if kind == "command")
    assert json.loads(command) == {"action": "layer_visibility", "name": "nuclei", "op": "hide"}
    assert kinds[-1] == ("reply", "nuclei hidden.")
    assert dock.input.text() == ""
    assert "last answer: parser" in dock.status.text()


def test_errors_look_different(qtbot, dock):
    type_line(qtbot, dock, "colormap GFP sparkles")
    assert dock.transcript.entries[-1].kind == "error"
    assert "color:#e0675a" in dock.transcript.toHtml()


def test_up_and_down_walk_the_history(qtbot, dock):
    type_line(qtbot, dock, "zoom to 2")
    type_line(qtbot, dock, "hide actin")
    qtbot.keyClicks(dock.input, "draft")
    qtbot.keyClick(dock.input, Qt.Key.Key_Up)
    assert dock.input.text() == "hide actin"
    qtbot.keyClick(dock.input, Qt.Key.Key_Up)
    assert dock.input.text() == "zoom to 2"
    qtbot.keyClick(dock.input, Qt.Key.Key_Down)
    qtbot.keyClick(dock.input, Qt.Key.Key_Down)
    assert dock.input.text() == "draft"


def test_tab_completes_layer_names_and_keeps_up_with_new_layers(qtbot, dock):
    qtbot.keyClicks(dock.input, "hide cell b")
    qtbot.keyClick(dock.input, Qt.Key.Key_Tab)
    assert dock.input.text() == "hide cell boundaries "
    dock.input.clear()
    dock.viewer.add_image(np.zeros((8, 8)), name="mitochondria")
    qtbot.keyClicks(dock.input, "fit mito")
    qtbot.keyClick(dock.input, Qt.Key.Key_Tab)
    assert dock.input.text() == "fit mitochondria "
    qtbot.keyClick(dock.input, Qt.Key.Key_Return)
    assert dock.transcript.entries[-1].text == "framed mitochondria."


def test_tab_completes_command_words(qtbot, dock):
    qtbot.keyClicks(dock.input, "scre")
    qtbot.keyClick(dock.input, Qt.Key.Key_Tab)
    assert dock.input.text() == "screenshot "


def test_panels_of_the_real_window_open_and_close(qtbot, dock):
    type_line(qtbot, dock, "close the layer list")
    assert dock.transcript.entries[-1].text == "layer list closed."
    type_line(qtbot, dock, "close the Chat panel")
    assert dock.transcript.entries[-1].text == "Chat closed."
    assert dock.parent().isHidden()
    type_line(qtbot, dock, "undo")
    assert not dock.parent().isHidden()


def test_clear_empties_the_transcript(qtbot, dock):
    type_line(qtbot, dock, "list layers")
    qtbot.mouseClick(dock.clear_button, Qt.MouseButton.LeftButton)
    assert dock.transcript.entries == []
    assert dock.transcript.toPlainText() == ""


def test_a_result_table_is_drawn_with_thumbnails(dock):
    import base64
    import io

    from PIL import Image

    from napari_talk.core.basics.result import Result
    from napari_talk.core.running.session import Turn

    buffer = io.BytesIO()
    Image.new("RGB", (4, 4), "orange").save(buffer, format="PNG")
    thumb = "data:image/png;base64," + base64.b64encode(buffer.getvalue()).decode()
    table = {
        "columns": ["name", "similarity"],
        "rows": [["Sun Keeper", 0.912], ["<b>", 0.4]],
        "thumbnails": [thumb, None],
    }
    dock.transcript.add_turn(
        Turn("find similar to a sun", "parser", results=[Result.success("2 found", table=table)])
    )
    drawn = dock.transcript.toHtml()
    assert "Keeper" in drawn and "0.91" in drawn and "<img" in drawn and "&lt;b&gt;" in drawn
    assert dock.transcript.entries[-1].kind == "table"


def test_the_parser_is_ready_for_new_layer_names_before_the_next_line(qtbot, dock):
    dock.viewer.add_image(np.zeros((4, 4)), name="mitochondria")
    names = dock.session.known_names()
    qtbot.waitUntil(lambda: dock.session.parser.prepared(names), timeout=10_000)
    dock.viewer.layers["mitochondria"].name = "mito"
    renamed = dock.session.known_names()
    qtbot.waitUntil(lambda: dock.session.parser.prepared(renamed), timeout=10_000)
    assert [c.to_wire() for c in dock.session.parse("hide mito")] == [
        {"action": "layer_visibility", "name": "mito", "op": "hide"}
    ]


def test_what_an_unread_line_may_have_meant_waits_in_the_input_for_enter(qtbot, dock):
    from napari_talk.core import sentences

    if not sentences.ready():
        pytest.skip("the MiniLM sentence model is not here")
    qtbot.waitUntil(lambda: dock.session.rephrasing.ready, timeout=120_000)  # readied in the background
    type_line(qtbot, dock, "remind me what layers I loaded")
    entries = [(e.kind, e.text) for e in dock.transcript.entries]
    assert not any(kind == "command" for kind, _ in entries), "a reading was run unasked"
    assert "Did you mean “" in entries[-1][1]
    qtbot.waitUntil(lambda: dock.input.text() != "")
    meant = dock.input.text()
    assert dock.input.selectedText() == meant and f"“{meant}”" in entries[-1][1]
    qtbot.keyClick(dock.input, Qt.Key.Key_Return)  # accepted as offered
    entries = [(e.kind, e.text) for e in dock.transcript.entries]
    assert json.loads(next(t for k, t in reversed(entries) if k == "command")) == {"action": "list_layers"}
