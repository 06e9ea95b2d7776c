"""What reading and tracing one scene file may cost: every limit of the rays pack, in one place.

A scene file is untrusted, and reaches the pack through every door (the dock, ``napari-talk rays``,
an MCP call): each reader checks these limits *before* the work they bound (before allocating,
before looping), and refuses beyond them with one sentence naming the file and the limit. The
same numbers hold whichever door the file came through.
"""

from __future__ import annotations

# -- the file --------------------------------------------------------------------------------------
MAX_FILE_BYTES = 20 * 1024 * 1024
"""A scene file larger than this is refused before it is read."""
MAX_NESTING = 64
"""JSON arrays and objects nested deeper than this are not a scene (ray-optics' nest 4 deep)."""

# -- objects and their points ----------------------------------------------------------------------
MAX_OBJECTS = 20_000
"""Objects a scene may hold once its modules are expanded, decorations (labels, rulers) included."""
MAX_PATH_POINTS = 100_000
"""Points one glass, curve or surface path may have."""
MAX_SCENE_POINTS = 200_000
"""Points all paths of a scene may have together."""
MAX_EDGE_PAIRS = 20_000_000
"""Pairs of edges the overlap checks of glasses may test (two 10,000-edge glasses that overlap
are 100,000,000 pairs)."""

# -- formulas and modules --------------------------------------------------------------------------
MAX_FORMULA_CHARS = 4000
MAX_FORMULA_NODES = 20_000
"""Terms a formula may grow to, counted as the tree it evaluates: a user function called twice in
its own argument (``g(g(x))``, ``g(x)=x+x``) counts its body twice, so 40 nested calls cannot hide
2^40 terms behind a short text."""
MAX_FORMULA_NESTING = 60
"""Brackets and calls inside one another."""
MAX_FORMULA_DEPTH = 200
"""Levels of the evaluated tree (``1+1+1+…`` is as deep as it is long)."""
MAX_LOOP = 1000
"""ray-optics' default ``maxLoopLength``: the runs of one module loop."""
MAX_LOOP_CEILING = 100_000
"""The largest ``maxLoopLength`` a module may ask for."""
MAX_MODULE_VALUES = 200_000
"""Values (objects, points, numbers, texts) all modules of a scene may expand to together,
counted as loops multiply, before the expansion is built."""
MAX_MODULE_NESTING = 4
"""Modules inside modules; the inner ones are skipped beyond this (with a warning)."""

# -- rays and tracing ------------------------------------------------------------------------------
MAX_EMITTED_RAYS = 2_000_000
"""Rays the sources of a scene may emit, estimated before any is made."""
MAX_SEGMENTS = 2_000_000
"""Ray segments a trace may make, counting the rays still waiting to be traced."""
MAX_TRACE_SECONDS = 600.0
"""A trace that runs longer is stopped with a sentence (GRIN glasses step ray by ray)."""
