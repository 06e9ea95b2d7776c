"""The canonical stage in a session: silent until ready, then offering what a line the parser does
not read may have meant (read by the parser, in the line's own names), never running it; its
phrasings' vectors kept between runs."""

from __future__ import annotations

import pytest
from napari.components import ViewerModel

from napari_talk import Session
from napari_talk.core import sentences
from napari_talk.core.running import rephrasing
from napari_talk.core.running.turns import Done
from napari_talk.samples import cells

pytestmark = pytest.mark.skipif(not sentences.ready(), reason="the MiniLM sentence model is not here")

UNREAD = "remind me what layers I loaded"
"""A question the parser's rules do not read, and the stage does (list_layers)."""


@pytest.fixture
def session() -> Session:
    viewer = ViewerModel()
    for data, kwargs, kind in cells():
        getattr(viewer, f"add_{kind}")(data, **kwargs)
    return Session(viewer)


def test_the_stage_is_silent_until_ready_then_offers_its_reading_and_runs_nothing(session):
    assert session.parser.parse(UNREAD, session.known_names()) == []
    before = session.not_understood(UNREAD)
    assert before.data["meant"] is None  # not ready: the nearest examples alone
    session.prepare_packs()
    assert session.rephrasing.ready
    read = session.turn(UNREAD).step()  # a reading is offered, never run
    assert isinstance(read, Done) and read.turn.road == "none" and not read.turn.commands
    offered = session.not_understood(UNREAD)
    meant = offered.data["meant"]
    assert meant and f"Did you mean “{meant}”?" in offered.message
    assert offered.data["suggestions"][0] == meant
    assert [c.action for c in session.parse(meant)] == ["list_layers"]  # the parser reads it as it is


def test_run_gets_the_stage_ready_for_its_first_unread_line(session):
    turn = session.run(UNREAD)
    assert turn.commands == [] and "Did you mean “" in turn.message
    assert len(session.viewer.layers) == 6


def test_remarks_and_lines_it_is_not_sure_of_get_no_reading(session):
    session.rephrasing.prepare()
    unsure = ("thanks, that was great", "nuke it all from orbit", "undo twice", "why do the spots look dim?")
    for line in unsure:
        assert session.rephrasing.read(line, session.known_names(), session.parser) is None, line


def test_the_phrasings_vectors_are_kept_and_read_back(session, monkeypatch):
    session.rephrasing.prepare()
    kept = sorted(sentences.onnx_minilm.cache_dir().glob("canonical-phrasings-*.npy"))
    assert kept, "the phrasings' vectors were not kept"
    embedded: list[int] = []
    real = sentences.minilm(True).embed
    model = sentences.minilm(True)
    monkeypatch.setattr(model, "embed", lambda texts: embedded.append(len(texts)) or real(texts))
    again = rephrasing.Rephrasing(session.registry)
    again.prepare()
    assert again.ready
    assert all(count < rephrasing.KEEP_FROM for count in embedded), embedded  # the phrasings came from disk
