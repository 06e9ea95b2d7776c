"""Tracing in chunks of rays (bounded memory) gives the segments of tracing all at once."""

from __future__ import annotations

import numpy as np

from napari_talk.packs.rays import tracer
from napari_talk.packs.rays.samples import prism_demo_scene


def _rows(segments) -> np.ndarray:
    table = np.c_[
        segments.p1,
        segments.p2,
        segments.brightness_s,
        segments.brightness_p,
        segments.depth,
        segments.interaction,
        segments.lost,
    ]
    return table[np.lexsort(table.T[::-1])]


def test_chunked_generations_trace_the_same_segments(monkeypatch):
    scene = prism_demo_scene(n_rays=300)
    whole = tracer.trace(scene).segments
    monkeypatch.setattr(tracer, "CELL_BUDGET", 50)  # a few rays per chunk
    chunked = tracer.trace(scene).segments
    assert len(chunked) == len(whole) > 300
    np.testing.assert_array_equal(_rows(chunked), _rows(whole))
    # the lineage still holds: every child starts where its parent ended
    child = np.flatnonzero(chunked.parent >= 0)
    np.testing.assert_allclose(chunked.p1[child], chunked.p2[chunked.parent[child]])
