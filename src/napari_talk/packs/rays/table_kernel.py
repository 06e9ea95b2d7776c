"""The segment table's passes (:mod:`.table_passes`) compiled by numba: what every trace runs once
the kernels are loaded (see :mod:`.kernels`)."""

from __future__ import annotations

from collections.abc import Callable

from . import table_passes
from .rayoptics.compiled import compiled_twins

_twins = compiled_twins(table_passes)
ends: Callable[..., None] = _twins["ends"]
nearest_edges: Callable[..., None] = _twins["nearest_edges"]
lineage: Callable[..., None] = _twins["lineage"]
