"""A newcomer on the Atlas sample, typing into the dock: the first search answers without holding
napari (the sample is made ready in the background as it opens), "open the first one" opens what
the search found, and the catalogue says how many pictures it holds."""

from __future__ import annotations

import itertools
import time

import pytest
from support.door import open_door, said, type_line

from napari_talk.packs.atlas import samples

SPIRALS = {e.name for e in samples.ENTITIES if e.motif == "spiral"}


@pytest.fixture
def door(make_napari_viewer_proxy, qtbot, workspace):
    """The dock once warmed up, then the Atlas sample opened from File > Open Sample."""
    dock = open_door(make_napari_viewer_proxy, workspace)
    qtbot.waitUntil(lambda: dock._warmed_up, timeout=60_000)
    samples.pictures.cache_clear()
    dock.viewer.open_sample("napari-talk", "atlas")
    return dock


def results(dock) -> list[str]:
    return list(dock.session.state("atlas").last_results)


def test_the_sample_is_made_ready_in_the_background_and_the_first_search_holds_nothing(door, qtbot):
    from qtpy.QtCore import QTimer

    qtbot.waitUntil(lambda: samples.pictures.cache_info().currsize == 1, timeout=60_000)  # drawn, unasked
    assert not door.session.state("atlas").exists()  # nothing written before a command asks
    ticks: list[float] = []
    timer = QTimer()
    timer.timeout.connect(lambda: ticks.append(time.perf_counter()))
    timer.start(10)
    type_line(qtbot, door, "show me pictures that look like a spiral")
    timer.stop()
    reply = said(door).text
    assert "closest to 'a spiral'" in reply, reply
    found = results(door)
    assert found and found[0] in SPIRALS and len(SPIRALS & set(found[:5])) >= 3, found
    # a hold a person would notice; loading the model and embedding the sample here takes seconds
    assert len(ticks) > 5 and max(b - a for a, b in itertools.pairwise(ticks)) < 0.5


def test_open_the_first_one_opens_what_the_search_found_and_undo_takes_it_away(door, qtbot):
    type_line(qtbot, door, "open the first one")
    assert "no search results to open yet" in said(door).text  # before any search: said plainly
    type_line(qtbot, door, "find similar to void walker")
    first, second = results(door)[:2]
    type_line(qtbot, door, "open the first one")
    layers = door.viewer.layers
    assert first in [layer.name for layer in layers], said(door).text
    assert layers[first].data.shape == (samples.IMAGE_SIZE, samples.IMAGE_SIZE, 3)
    type_line(qtbot, door, "the second")
    assert second in [layer.name for layer in layers], said(door).text
    type_line(qtbot, door, "undo")
    assert second not in [layer.name for layer in layers] and first in [layer.name for layer in layers]
    type_line(qtbot, door, "open the ninth one")
    assert "the last search found 5 results" in said(door).text


def test_the_catalogue_says_how_many_pictures_it_holds(door, qtbot):
    type_line(qtbot, door, "how many pictures are in the catalogue?")
    count = door.session.state("atlas").catalogue.count()
    assert count == len(samples.ENTITIES)
    assert said(door).text.startswith(f"{count} entities"), said(door).text
