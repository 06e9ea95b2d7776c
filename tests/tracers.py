"""The two ray tracers side by side: the vectorized one and the per-ray reference."""

from __future__ import annotations

import numpy as np

from napari_talk.packs.rays.reference import trace_reference
from napari_talk.packs.rays.tracer import trace


def both_tracers(scene, min_brightness: float, digits: int = 6) -> tuple[np.ndarray, np.ndarray]:
    """Each tracer's segments as sorted rows (start, end, s and p brightness), rounded to
    ``digits``, so the two can be compared whatever order they traced in."""

    def rows(values) -> np.ndarray:
        return np.array(sorted(tuple(round(v, digits) for v in row) for row in values))

    segments = trace(scene, min_brightness=min_brightness).segments
    reference = trace_reference(scene, min_brightness=min_brightness)
    ours = rows(np.c_[segments.p1, segments.p2, segments.brightness_s, segments.brightness_p])
    theirs = rows([(*r.p1, *r.p2, r.s, r.p) for r in reference])
    return ours, theirs
