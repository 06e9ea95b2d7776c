"""How the pack's kernels are compiled (numba): with IEEE semantics, as numpy and Python compute
(no fast-math, so no reordering and no fused multiply-add: every value is bit for bit the one the
same formulas give ray by ray); cached on disk (a fresh process loads the machine code instead of
compiling it again); releasing the GIL while they run (a trace in a job leaves the GUI thread
free). Steps that read arrays are inlined where they are called (a call passing arrays costs
more than the step); steps on numbers alone compile once and the compiler inlines them.
"""

from __future__ import annotations

from numba import njit

kernel = njit(cache=True, nogil=True, error_model="numpy")
inlined = njit(cache=True, nogil=True, error_model="numpy", inline="always")
