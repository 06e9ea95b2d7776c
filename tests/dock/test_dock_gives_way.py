"""The dock's background set-up gives way to the person's lines: a step of set-up no line needs
does not begin while a line's slow work runs (nor a moment after), and the canonical stage's
phrasings, embedded in steps on a first run, wait for a search that needs the same sentence model
and then go on."""

from __future__ import annotations

import threading
import time

import pytest
from support.door import open_door, said, type_line

from napari_talk._qt.giving_way import GiveWay
from napari_talk.core import sentences
from napari_talk.core.running import rephrasing


def waiting(way: GiveWay) -> tuple[threading.Thread, list[tuple[bool, float]]]:
    """A set-up thread asking to go on; what it was told, and when."""
    told: list[tuple[bool, float]] = []
    worker = threading.Thread(target=lambda: told.append((way.wait(), time.monotonic())))
    worker.start()
    return worker, told


def test_set_up_waits_while_a_line_works_and_for_a_moment_after():
    way = GiveWay(grace=0.2)
    with way.line():
        worker, told = waiting(way)
        time.sleep(0.3)
        assert not told and not way.clear  # still waiting: the line's work runs
        ended = time.monotonic()
    worker.join(10)
    assert told and told[0][0] and told[0][1] >= ended + 0.2


def test_a_typed_line_holds_set_up_back_for_a_moment_even_without_slow_work():
    way = GiveWay(grace=0.2)
    way.typed()
    typed = time.monotonic()
    worker, told = waiting(way)
    worker.join(10)
    assert told[0][0] and told[0][1] >= typed + 0.2


def test_a_dock_that_is_gone_ends_the_set_up_still_waiting():
    way = GiveWay(grace=0.2)
    with way.line():
        worker, told = waiting(way)
        way.stop()
        worker.join(10)
    assert told and told[0][0] is False
    assert way.wait() is False  # and any step after


@pytest.mark.skipif(not sentences.ready(), reason="the sentence model is not here")
def test_a_search_typed_while_the_phrasings_embed_does_not_share_the_model_with_them(
    make_napari_viewer_proxy, qtbot, workspace, monkeypatch
):
    monkeypatch.setattr(rephrasing, "_read", lambda path, rows: None)  # a first run: nothing kept yet
    monkeypatch.setattr(rephrasing, "_write", lambda path, vectors: None)
    steps: list[float] = []
    in_steps = rephrasing._in_steps

    def counted(model, texts, give_way):
        def way() -> bool:
            going = give_way()
            steps.append(time.monotonic())  # a step of the phrasings' embedding begins
            return going

        return in_steps(model, texts, way)

    monkeypatch.setattr(rephrasing, "_in_steps", counted)
    door = open_door(make_napari_viewer_proxy, workspace)
    door.viewer.open_sample("napari-talk", "atlas")
    jobs: list[tuple[float, float]] = []
    waited = door.session.jobs.wait

    def recorded(job):
        began = time.monotonic()
        try:
            return waited(job)
        finally:
            jobs.append((began, time.monotonic()))

    door.session.jobs.wait = recorded
    try:
        qtbot.waitUntil(lambda: len(steps) >= 2, timeout=240_000)  # the phrasings are being embedded
        type_line(qtbot, door, "find similar to void walker")
        assert "closest to 'void walker'" in said(door).text, said(door).text
        assert not door.session.rephrasing.ready  # the search waited for none of it
        assert jobs, "the search ran no slow work"
        assert not [t for t in steps for began, ended in jobs if began <= t <= ended]
        went_on = len(steps)
        qtbot.waitUntil(lambda: len(steps) > went_on, timeout=60_000)  # and it goes on after
    finally:
        door._ready.way.stop()
