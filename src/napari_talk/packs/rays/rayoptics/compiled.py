"""How the pack's kernels are compiled (numba): with IEEE semantics, as numpy and Python compute
(no fast-math, so no reordering and no fused multiply-add: every value is bit for bit the one the
same formulas give ray by ray); cached on disk (a fresh process loads the machine code instead of
compiling it again); releasing the GIL while they run (a trace in a job leaves the GUI thread
free). Steps that read arrays are inlined where they are called (a call passing arrays costs
more than the step); steps on numbers alone compile once and the compiler inlines them.
"""

from __future__ import annotations

from types import FunctionType, ModuleType
from typing import Any

from numba import njit

kernel = njit(cache=True, nogil=True, error_model="numpy")
inlined = njit(cache=True, nogil=True, error_model="numpy", inline="always")


def compiled_twins(module: ModuleType) -> dict[str, Any]:
    """Every function a plain-Python ``module`` defines, compiled as :data:`kernel`, by name; each
    calls the others' compiled twins. The module itself imports no numba and stays runnable as it
    is (what a trace runs before the kernels are loaded)."""
    namespace = dict(vars(module))  # the twins' globals: the module's, its functions swapped
    twins: dict[str, Any] = {}
    for name, function in vars(module).items():
        if isinstance(function, FunctionType) and function.__module__ == module.__name__:
            code, defaults, closure = function.__code__, function.__defaults__, function.__closure__
            copy = FunctionType(code, namespace, name, defaults, closure)
            copy.__qualname__ = function.__qualname__
            twins[name] = kernel(copy)
    namespace.update(twins)
    return twins
