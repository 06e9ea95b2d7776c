"""A model's measured scale (see :mod:`.calibration`) kept in the catalogue's settings: measured
again when the number of vectors has moved by a tenth, on ``reference`` texts while the catalogue
is too small to measure on its own vectors."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol

import numpy as np

from . import calibration
from .calibration import Calibration


class Settings(Protocol):
    def setting(self, key: str) -> str | None: ...
    def set_setting(self, key: str, value: str) -> None: ...
    def vector_count(self, model: str, dim: int) -> int: ...


def calibrated(
    store: Settings,
    model: str,
    dim: int,
    embed: Callable[[Sequence[str]], np.ndarray],
    reference: Sequence[str],
    sample: Callable[[], np.ndarray],
) -> Calibration:
    """``model``'s scale as stored, or measured now (``embed`` embeds with it; ``sample`` gives
    the catalogue's vectors to measure on) and stored."""
    key = calibration.setting_key(model)
    stored = calibration.load(store.setting(key))
    count = store.vector_count(model, dim)
    if stored is not None and not calibration.stale(stored, count):
        return stored
    probes = embed(calibration.PROBES)  # a model on a server may take a while: not under a lock
    if count >= calibration.MIN_VECTORS:
        measured = calibration.measure(sample(), probes, "catalogue", count=count)
    else:
        measured = calibration.measure(embed(reference), probes, "reference")
    store.set_setting(key, calibration.dump(measured))
    return measured
