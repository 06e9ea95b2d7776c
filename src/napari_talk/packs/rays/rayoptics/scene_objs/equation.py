"""The equations of objects shaped by a formula (``y = f(x)`` mirrors and glasses, parametric
curves): a scene's LaTeX text checked against the variables it may use and compiled, and the most
points such an object samples."""

from __future__ import annotations

from typing import Any

from ..base import SceneError
from ..formula import Formula, compile_tree, parse

MAX_CURVE_POINTS = 200_000


def latex_function(eqn: Any, variables: tuple[str, ...]) -> Any:
    """A compiled formula from a scene's LaTeX text (or a module's already-parsed equation)."""
    if isinstance(eqn, Formula):
        formula = eqn
    elif isinstance(eqn, str):
        formula = parse(eqn, latex=True, known=frozenset(variables))
    else:
        raise SceneError(f"an equation should be text, not {str(eqn)[:40]!r}")
    unknown = set(formula.variables) - set(variables) - {"pi", "e"}
    if unknown:
        raise SceneError(
            f"the equation {formula.text[:60]!r} uses unknown names: {', '.join(sorted(unknown))}"
        )
    return compile_tree(formula.tree)
