"""The intent reader as people meet it: a line the parser does not read, typed into a session or
the dock, is offered as the command the reader chose ("Did you mean …?"), run only when the
person takes the offer; remarks and questions get no command offered."""

from __future__ import annotations

import numpy as np
import pytest
from napari.components import ViewerModel

from napari_talk import Session
from napari_talk.core import sentences
from napari_talk.core.grammar.intents.reader import IntentReader

pytestmark = pytest.mark.skipif(not sentences.ready(), reason="the MiniLM sentence model is not here")


@pytest.fixture
def session() -> Session:
    viewer = ViewerModel()
    viewer.add_image(np.zeros((32, 32)), name="nuclei")
    viewer.add_image(np.zeros((32, 32)), name="GFP")
    return Session(viewer)


def test_a_free_line_is_offered_as_the_readers_command_and_runs_only_when_taken(session):
    line = "oi zoom in by 3"  # no rule reads "oi ... by"; the nearest phrasing alone was not sure
    assert session.parse(line) == []
    zoom = session.viewer.camera.zoom
    turn = session.run(line)
    assert isinstance(session.rephrasing._reader, IntentReader)
    assert turn.commands == [] and session.viewer.camera.zoom == zoom  # offered, not run
    assert "Did you mean “" in turn.message, turn.message
    meant = turn.message.split("Did you mean “")[1].split("”")[0]
    assert [c.to_wire() for c in session.parse(meant)] == [{"action": "zoom_by", "factor": 3.0}]
    session.run(meant)  # the person takes the offer
    assert session.viewer.camera.zoom == pytest.approx(3 * zoom)


@pytest.mark.parametrize(
    "line",
    [
        "honestly the nuclei look a bit too dim to me",  # a remark
        "why is the GFP so faint?",  # a question asks; it does not ask to brighten
    ],
)
def test_remarks_and_questions_get_no_command_offered(session, line):
    session.rephrasing.prepare()
    meant = session.rephrasing.read(line, session.known_names(), session.parser)
    assert meant is None or all(c.risk == "read" for c in session.parse(meant)), meant


def test_the_dock_offers_the_reading_in_its_input_and_enter_runs_it(
    qtbot, make_napari_viewer_proxy, workspace
):
    from qtpy.QtCore import Qt
    from support.door import open_door, type_line

    door = open_door(make_napari_viewer_proxy, workspace)
    door.viewer.add_image(np.zeros((32, 32)), name="nuclei")
    qtbot.waitUntil(lambda: door.session.rephrasing.ready, timeout=180_000)
    type_line(qtbot, door, "uh fit the view to nuclei")
    entries = [(e.kind, e.text) for e in door.transcript.entries]
    assert not any(kind == "command" for kind, _ in entries), "a reading was run unasked"
    assert "Did you mean “" in entries[-1][1]
    qtbot.waitUntil(lambda: door.input.text() != "")
    assert [c.action for c in door.session.parse(door.input.text())] == ["fit_to_layer"]
    qtbot.keyClick(door.input, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: door.job is None and door.task is None, timeout=60_000)
    assert any(
        kind == "command" and "fit_to_layer" in text
        for kind, text in [(e.kind, e.text) for e in door.transcript.entries]
    )
