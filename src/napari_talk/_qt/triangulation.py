"""Which compiled library napari triangulates shapes with, chosen as the dock opens.

napari turns every polygon of a Shapes layer into triangles as the layer is made; a ray scene of
thousands of glasses spends seconds there. napari has compiled backends for it (bermuda, in Rust,
a dependency of napari-talk; PartSegCore's; Triangle) and a setting that names one
(Preferences → Experimental → "Triangulation backend to use for Shapes layer"). When that setting
is left at its default, "Fastest available", the dock names the fastest backend that imports here
outright, so a process whose settings never fired still uses it. A person's own choice of another
backend in that setting is theirs: the dock leaves it, and napari applies any later change.

The choice goes through napari's ``set_backend``, not its settings: nothing is written to the
person's settings file.
"""

from __future__ import annotations

import importlib

from napari.settings import get_settings
from napari.utils.triangulation_backend import TriangulationBackend, get_backend, set_backend

FASTEST_FIRST: tuple[tuple[TriangulationBackend, str], ...] = (
    (TriangulationBackend.bermuda, "bermuda"),
    (TriangulationBackend.partsegcore, "PartSegCore_compiled_backend"),
    (TriangulationBackend.triangle, "triangle"),
)
"""Compiled backends in napari's own order of preference, each with the module it needs."""


def fastest_importable() -> TriangulationBackend:
    """The first of :data:`FASTEST_FIRST` whose module imports, else napari's numba helpers."""
    for backend, module in FASTEST_FIRST:
        try:
            importlib.import_module(module)
        except ImportError:
            continue
        return backend
    return TriangulationBackend.numba


def choose_triangulation() -> TriangulationBackend:
    """Name the fastest backend unless the person chose one in napari's settings; return the one
    in force after."""
    chosen = get_settings().experimental.triangulation_backend
    if chosen is TriangulationBackend.fastest_available:
        set_backend(fastest_importable())
    return get_backend()
