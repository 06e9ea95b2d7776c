"""The dock on the LLM road: the GUI keeps turning, Stop cancels, destructive commands wait."""

from __future__ import annotations

import itertools
import time

import pytest
from conftest import SECRET_KEY
from qtpy.QtCore import Qt, QTimer
from support.chat_server import Honours, tool_call
from support.door import cells_with_model

from napari_talk.core.running.settings import FileStore, Settings


@pytest.fixture
def dock(make_napari_viewer_proxy, qtbot, llm_settings, tmp_path):
    yield from cells_with_model(make_napari_viewer_proxy, llm_settings, tmp_path)


def type_line(qtbot, dock, text):
    qtbot.keyClicks(dock.input, text)
    qtbot.keyClick(dock.input, Qt.Key.Key_Return)


def test_the_gui_keeps_turning_while_the_model_thinks(qtbot, dock, chat_server):
    chat_server.say(tool_calls=[tool_call("layer_visibility", {"name": "nuclei", "op": "hide"})], delay=2)
    dock.session.llm.warm_up()  # as the dock does in the background once a model is set
    ticks: list[float] = []
    timer = QTimer()
    timer.timeout.connect(lambda: ticks.append(time.perf_counter()))
    timer.start(10)
    type_line(qtbot, dock, "could you make the blue blobs vanish")
    assert dock.busy.isVisibleTo(dock) and dock.stop_button.isVisibleTo(dock)
    assert "asking scripted-model" in dock.status.text()
    qtbot.waitUntil(lambda: dock.task is None, timeout=10_000)
    timer.stop()
    assert not dock.viewer.layers["nuclei"].visible
    gaps = [b - a for a, b in itertools.pairwise(ticks)]
    assert len(ticks) > 100 and max(gaps) < 0.25
    assert dock.transcript.entries[-1].text == "nuclei hidden."
    assert any(e.kind == "road" and "scripted-model" in e.text for e in dock.transcript.entries)
    assert "last answer: LLM (scripted-model)" in dock.status.text()


def test_stop_cancels_and_the_late_answer_is_ignored(qtbot, dock, chat_server):
    chat_server.say(tool_calls=[tool_call("layer_visibility", {"name": "actin", "op": "hide"})], delay=1)
    type_line(qtbot, dock, "make the red fibres disappear")
    task = dock.task
    qtbot.mouseClick(dock.stop_button, Qt.MouseButton.LeftButton)
    assert dock.task is None and not dock.busy.isVisibleTo(dock)
    assert task.wait(10)
    qtbot.wait(100)
    assert dock.viewer.layers["actin"].visible
    assert dock.transcript.entries[-1].text.startswith("stopped")


def test_a_destructive_command_asks_in_the_dock(qtbot, dock, chat_server):
    chat_server.say(tool_calls=[tool_call("remove_layer", {"name": "spots"})])
    type_line(qtbot, dock, "throw the yellow dots in the bin")
    qtbot.waitUntil(lambda: dock.run_button.isVisibleTo(dock), timeout=10_000)
    assert "remove_layer name='spots'" in dock.confirm_label.text()
    assert "spots" in [layer.name for layer in dock.viewer.layers]
    qtbot.mouseClick(dock.run_button, Qt.MouseButton.LeftButton)
    assert "spots" not in [layer.name for layer in dock.viewer.layers]
    assert not dock.run_button.isVisibleTo(dock)


def test_cancelling_the_confirmation_runs_nothing(qtbot, dock, chat_server):
    chat_server.say(tool_calls=[tool_call("remove_layer", {"name": "spots"})])
    type_line(qtbot, dock, "throw the yellow dots in the bin")
    qtbot.waitUntil(lambda: dock.cancel_button.isVisibleTo(dock), timeout=10_000)
    qtbot.mouseClick(dock.cancel_button, Qt.MouseButton.LeftButton)
    assert "spots" in [layer.name for layer in dock.viewer.layers]
    assert "not confirmed" in dock.transcript.entries[-1].text


def test_the_key_never_reaches_the_transcript(qtbot, dock, chat_server):
    chat_server.fail(401)
    type_line(qtbot, dock, "please do something clever with these cells")
    qtbot.waitUntil(lambda: dock.task is None, timeout=10_000)
    assert "refused the API key" in dock.transcript.entries[-1].text
    assert SECRET_KEY not in dock.transcript.toPlainText()


def test_settings_dialog_tests_the_connection_and_saves_without_the_key(qtbot, dock, chat_server, tmp_path):
    from napari_talk._qt.settings_dialog import SettingsDialog

    chat_server.honours = Honours(tools=False, forms=frozenset({"json_object"}))
    dialog = SettingsDialog(Settings(llm=dock.session.llm.settings), "sk-typed-for-this-session-only")
    qtbot.addWidget(dialog)
    assert dialog.mode.currentText() == "tools"
    qtbot.mouseClick(dialog.test_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: dialog.test_result.text().startswith(("✓", "✗")), timeout=10_000)
    assert dialog.test_result.text().startswith("✓ scripted-model answered 'ready'"), (
        dialog.test_result.text()
    )
    assert (dialog.mode.currentText(), dialog.schema_form.currentText()) == ("schema", "json_object")
    assert dialog.settings().llm.mode == "schema"
    assert chat_server.headers[-1]["authorization"] == "Bearer sk-typed-for-this-session-only"
    dialog.model.setText("another-model")
    dialog.workspace.setText(str(tmp_path / "my workspace"))
    FileStore(tmp_path / "saved.json").save(dialog.settings())
    saved = (tmp_path / "saved.json").read_text()
    assert "another-model" in saved and "sk-typed" not in saved
    assert FileStore(tmp_path / "saved.json").load().workspace.path() == tmp_path / "my workspace"
