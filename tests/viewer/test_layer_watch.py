"""Undoing the addition of a layer asks first only when the person changed its data: data that
napari-talk itself set later (and took back) is its own, and a redraw is no change."""

from __future__ import annotations

import numpy as np
from napari.components import ViewerModel

from napari_talk.core.running.history import Changes
from napari_talk.core.viewer.layers import added, set_attributes


def _added_points() -> tuple[ViewerModel, Changes]:
    viewer = ViewerModel()
    with Changes() as changes:
        added(viewer, viewer.add_points(np.zeros((3, 2))), changes)
    return viewer, changes


def test_data_napari_talk_sets_is_not_the_person_s():
    viewer, adding = _added_points()
    layer = viewer.layers[0]
    with Changes() as updating:
        set_attributes(layer, updating, data=np.ones((5, 2)))
    layer.refresh()
    assert adding.effects() == []
    updating.undo()
    assert len(layer.data) == 3
    assert adding.effects() == []


def test_data_the_person_changes_is_asked_about():
    viewer, adding = _added_points()
    viewer.layers[0].data = np.full((4, 2), 7.0)
    effects = adding.effects()
    assert len(effects) == 1
    assert "whose data changed since napari-talk made it" in effects[0].what


def test_an_edit_in_place_of_data_too_large_to_read_whole_is_seen_where_it_is_sampled():
    viewer = ViewerModel()
    with Changes() as adding:
        added(viewer, viewer.add_image(np.zeros((9000, 8000), np.uint8)), adding)  # 72 MB
    layer = viewer.layers[0]
    assert layer.data.nbytes > 64 * 1024 * 1024 and adding.effects() == []
    layer.data[:30, :30] = 9  # from the console, then a redraw: napari sends no data event
    layer.refresh()
    assert len(adding.effects()) == 1


def test_taking_back_data_napari_talk_set_asks_once_the_person_set_theirs():
    viewer, _ = _added_points()
    layer = viewer.layers[0]
    with Changes() as updating:
        set_attributes(layer, updating, data=np.ones((5, 2)))
    assert updating.effects() == []
    layer.data = np.full((2, 2), 4.0)  # the person's, from the console
    (effect,) = updating.effects()
    assert "whose data changed since napari-talk set it" in effect.what
