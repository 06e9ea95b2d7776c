"""Canonical mode in a session: the model, a real openai client against the project's scripted
server, picks among the grammar's phrasings nearest to a line; the parser reads the pick, which
is offered when the line says it (its names, its words, its limits) and runs only when taken;
until the phrasings are embedded the line goes to steps mode."""

from __future__ import annotations

import itertools
import json

import pytest
from napari.components import ViewerModel

from napari_talk import Session
from napari_talk.core import sentences
from napari_talk.core.chat.settings import LLMSettings
from napari_talk.core.grammar.rephrase import COMMON, values_of
from napari_talk.core.llm.road import LLMRoad
from napari_talk.samples import cells

pytestmark = pytest.mark.skipif(not sentences.ready(), reason="the MiniLM sentence model is not here")


@pytest.fixture
def session(llm_settings: LLMSettings) -> Session:
    viewer = ViewerModel()
    for data, kwargs, kind in cells():
        getattr(viewer, f"add_{kind}")(data, **kwargs)
    session = Session(viewer)
    session.llm = LLMRoad(session.registry, llm_settings.model_copy(update={"mode": "canonical"}))
    return session


def pick(session: Session, line: str, action: str, word: str, name: str) -> str:
    """The reply choosing a phrasing of ``action`` the line is offered that, filled with ``name``
    and a word of its map, the parser reads as ``action`` saying ``word`` (hide: ``op="hide"``)."""
    road = session.llm
    assert road is not None and session.rephrasing.reader is not None
    names = session.known_names()
    offer = road.picker(session.rephrasing.reader).offer(line, values_of(line, names, COMMON).bare, names)
    for choice, template in enumerate(offer.templates, 1):
        if template.action != action:
            continue
        for said in itertools.product(*[words or (name,) for _, _, words in template.slots]):
            slots = {key: value for (key, _, _), value in zip(template.slots, said, strict=True)}
            reply = json.dumps({"commands": [{"choice": choice, "slots": slots}]})
            canonical = offer.canonical(reply)
            read = session.parse(canonical) if canonical else []
            if [c.action for c in read] == [action] and word in read[0].model_dump().values():
                return reply
    raise AssertionError(f"no phrasing of {action} offered: {[t.shown() for t in offer.templates]}")


def nuclei(session: Session):
    return session.viewer.layers["nuclei"]


def test_a_pick_the_line_says_is_read_by_the_parser_and_offered_never_run(session, chat_server):
    line = "nuclei out of sight, then switch the scale bar on"
    session.rephrasing.prepare()
    chat_server.say(pick(session, line, "layer_visibility", "hide", "nuclei"))
    turn = session.run(line)
    assert turn.commands == [] and nuclei(session).visible  # offered, not run
    meant = turn.results[-1].data["meant"]
    assert f"Did you mean “{meant}”?" in turn.message
    [command] = session.parse(meant)
    assert command.action == "layer_visibility" and command.name == "nuclei" and command.op == "hide"
    sent = chat_server.requests[-1]
    assert "none of these" in sent["messages"][-1]["content"]  # one request: the numbered offer
    assert len(chat_server.requests) == 1
    session.run(meant)  # the person takes the offer
    assert not nuclei(session).visible


def test_a_line_said_as_a_request_may_use_words_the_grammar_lacks(session, chat_server):
    line = "get the nuclei out of view"
    session.rephrasing.prepare()
    assert session.parse(line) == []
    chat_server.say(pick(session, line, "layer_visibility", "hide", "nuclei"))
    outcome = session.ask_llm(line)
    assert outcome.meant is not None and outcome.commands == []
    assert [c.action for c in session.parse(outcome.meant)] == ["layer_visibility"]


@pytest.mark.parametrize(
    ("line", "name", "why"),
    [
        ("get the nuclei out of view", "actin", "actin"),  # a live name the line never says
        ("nuclei: the view of them is too much", "nuclei", "says none of its words"),  # no request
        ("make every layer vanish except nuclei for a sec", "nuclei", "drops the limit"),
        ("add a point in the nuclei please, and hide nothing", "nuclei", "opens with 'add'"),
        ("is nuclei hidden right now?", "nuclei", "a question changes nothing"),
    ],
)
def test_a_pick_the_line_does_not_say_is_refused_not_offered(session, chat_server, line, name, why):
    session.rephrasing.prepare()
    chat_server.say(pick(session, line, "layer_visibility", "hide", name))
    turn = session.run(line)
    assert turn.commands == [] and nuclei(session).visible and session.viewer.layers["actin"].visible
    assert not turn.results[-1].data, "a refused reading was offered"
    assert why in turn.message and "nothing was done" in turn.message


def test_before_the_phrasings_are_embedded_the_line_goes_to_steps_mode(session, chat_server):
    assert session.rephrasing.reader is None
    chat_server.say(json.dumps({"commands": ["no_command"]}))
    outcome = session.ask_llm("nuclei out of sight, then switch the scale bar on")
    assert not outcome.understood and outcome.commands == []
    first = chat_server.requests[0]["messages"]
    assert "none of these" not in first[-1]["content"]  # steps' first question, not an offer


def test_the_dock_offers_a_models_reading_in_its_input_and_enter_runs_it(
    qtbot, make_napari_viewer_proxy, llm_settings, tmp_path, chat_server
):
    from qtpy.QtCore import Qt
    from support.door import cells_with_model, type_line

    opened = cells_with_model(
        make_napari_viewer_proxy, llm_settings.model_copy(update={"mode": "canonical"}), tmp_path
    )
    dock = next(opened)
    qtbot.waitUntil(lambda: dock.session.rephrasing.ready, timeout=180_000)
    line = "get the nuclei out of view"
    chat_server.say(pick(dock.session, line, "layer_visibility", "hide", "nuclei"))
    type_line(qtbot, dock, line)
    assert dock.viewer.layers["nuclei"].visible, "a model's reading was run unasked"
    assert "Did you mean “" in dock.transcript.entries[-1].text
    qtbot.waitUntil(lambda: dock.input.text() != "")
    assert [c.action for c in dock.session.parse(dock.input.text())] == ["layer_visibility"]
    qtbot.keyClick(dock.input, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: dock.job is None and dock.task is None, timeout=60_000)
    assert not dock.viewer.layers["nuclei"].visible
    assert len(chat_server.requests) == 1  # the reading taken is a typed line: the parser reads it
    opened.close()
