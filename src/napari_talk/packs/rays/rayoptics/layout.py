"""The layouts of the arrays the vector stage (:mod:`.vector`) shares with its compiled kernels,
in a module that imports nothing, so that reading them does not load the compiler."""

X1, Y1, X2, Y2, BS, BP, WL, DEPTH, GAP, AMP, PARENT, SOURCE, NEW = range(13)
"""The ray table's columns, one row per live ray: its two points, brightness (s, p), wavelength,
depth, whether a gap precedes it, its ``amp`` weight, the recorded segment it continues, its
source, and whether it was just emitted."""
COLUMNS = 13

STRAIGHT, ARC, CIRCLE, SEGMENT = range(4)
"""Primitive kinds: a glass side (hit beyond the minimum segment), a glass arc, a full circle
(``circle_hit``), a bare segment (``segment_hit``)."""
