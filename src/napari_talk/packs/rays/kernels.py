"""The tracer's compiled kernels, made ready ahead of the first trace."""

from __future__ import annotations

from .engine import trace
from .samples import prism_demo_scene


def load_kernels() -> None:
    """Compile the tracer's kernels, or load them from numba's disk cache, by a small trace that
    uses them all. ``scripts/setup`` runs it once, so that no trace after an install compiles."""
    trace(prism_demo_scene(200))
