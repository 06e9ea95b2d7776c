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
