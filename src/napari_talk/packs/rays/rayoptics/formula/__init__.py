"""The formula language of scene files: the math.js text of modules and the LaTeX of custom shapes
and GRIN index functions, read safely (nothing is ever handed to Python's ``eval``).

:mod:`.tokens` splits the text, :mod:`.parse` reads it into a tree of typed nodes (:mod:`.nodes`)
within the budgets that protect against hostile formulas (characters, nodes, nesting, depth),
:mod:`.evaluate` compiles a tree into closures with JavaScript's arithmetic (:mod:`.functions`), and
:mod:`.derive` differentiates one symbolically. ``random()`` (math.js text only) draws from a
generator the caller hands to :func:`compile_tree`, as ray-optics' modules draw from the scene's
seeded one.
"""

from .derive import derivative
from .evaluate import Compiled, compile_tree
from .nodes import FormulaError, Node, UserFunction, free_variables, tree_depth, tree_size
from .parse import MAX_CHARS, Formula, parse

__all__ = [
    "MAX_CHARS",
    "Compiled",
    "Formula",
    "FormulaError",
    "Node",
    "UserFunction",
    "compile_tree",
    "derivative",
    "free_variables",
    "parse",
    "tree_depth",
    "tree_size",
]
