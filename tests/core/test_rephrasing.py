"""The canonical stage in a session: silent until ready, then reading what the parser does not,
through the parser, saying how it read the line; its phrasings' vectors kept between runs."""

from __future__ import annotations

import pytest
from napari.components import ViewerModel

from napari_talk import Session
from napari_talk.core import sentences
from napari_talk.core.running import rephrasing
from napari_talk.samples import cells

pytestmark = pytest.mark.skipif(not sentences.ready(), reason="the MiniLM sentence model is not here")

UNREAD = "which layers are there at the moment?"
"""A question the parser's rules do not read, and the stage does (list_layers)."""


@pytest.fixture
def session() -> Session:
    viewer = ViewerModel()
    for data, kwargs, kind in cells():
        getattr(viewer, f"add_{kind}")(data, **kwargs)
    return Session(viewer)


def test_the_stage_is_silent_until_ready_then_reads_through_the_parser(session):
    assert session.parser.parse(UNREAD, session.known_names()) == []
    assert session.try_parser(UNREAD) is None  # not ready: the line goes on as before
    session.prepare_packs()
    assert session.rephrasing.ready
    turn = session.try_parser(UNREAD)
    assert turn is not None and [c.action for c in turn.commands] == ["list_layers"]
    assert turn.ok and "spots" in turn.message
    assert turn.notes and turn.notes[0].startswith("read as “")


def test_run_gets_the_stage_ready_on_its_first_unread_line(session):
    turn = session.run(UNREAD)
    assert [c.action for c in turn.commands] == ["list_layers"]


def test_remarks_and_lines_it_is_not_sure_of_are_left_alone(session):
    session.rephrasing.prepare()
    for line in ("thanks, that was great", "nuke it all from orbit", "undo twice"):
        turn = session.try_parser(line)
        assert turn is None or not turn.commands, (line, turn)


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
