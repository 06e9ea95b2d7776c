"""The tracer's compiled kernels, made ready ahead of the first trace, and whether they are.

Whether they are loaded is known without numba: a trace asks before it runs, and one made while
they are not (the Prism demo opened from File > Open Sample as napari starts, on the GUI thread)
runs the same passes in plain Python instead of compiling them where it stands (see
:func:`.engine.trace`).
"""

from __future__ import annotations

from . import engine
from .samples import prism_demo_scene

loaded = engine.kernels_loaded


def load_kernels() -> None:
    """Compile the tracer's kernels, or load them from numba's disk cache, by a small trace that
    uses them all. ``scripts/setup`` runs it once, so that no trace after an install compiles; the
    dock runs it in the background as it opens (the rays pack's ``prepare``)."""
    engine.load_kernels(prism_demo_scene(200))  # 200 rays: chunks of more than 64 build the vector stage
