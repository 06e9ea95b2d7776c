"""The tracer's compiled kernels, made ready ahead of the first trace, and whether they are.

Whether they are loaded is known without numba: a trace asks before it runs, and one made while
they are not (the Prism demo opened from File > Open Sample as napari starts, on the GUI thread)
runs the same passes in plain Python instead of compiling them where it stands (see
:func:`.engine.trace`).
"""

from __future__ import annotations

_loaded = False


def loaded() -> bool:
    """Whether :func:`load_kernels` has run in this process: every kernel of a trace is machine
    code by now, and a trace compiles nothing."""
    return _loaded


def load_kernels() -> None:
    """Compile the tracer's kernels, or load them from numba's disk cache, by a small trace that
    uses them all. ``scripts/setup`` runs it once, so that no trace after an install compiles; the
    dock runs it in the background as it opens (the rays pack's ``prepare``)."""
    global _loaded
    from .engine import trace
    from .samples import prism_demo_scene

    trace(prism_demo_scene(200), compiled=True)  # 200 rays: chunks of more than 64 build the vector stage
    _loaded = True
