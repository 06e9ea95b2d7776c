"""A parsed tree compiled into nested Python closures over a scope of variables: nothing is ever
handed to Python's ``eval``, and evaluation time is bounded by the tree's size (which the parser
bounds). Arithmetic follows JavaScript (:mod:`.functions`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from .functions import BINARY, FUNCTIONS, RANDOM
from .nodes import Bin, Call, FormulaError, If, Neg, Node, Not, Num, Var

Compiled = Callable[[Mapping[str, float]], float]
"""A compiled formula: its value over a scope of variables."""


def compile_tree(tree: Node, random: Callable[[], float] | None = None) -> Compiled:
    """Closures that evaluate ``tree`` over a scope; an unknown variable is a :class:`FormulaError`.
    ``random`` is what ``random()`` calls; without it, a formula calling it is refused."""

    def sub(node: Node) -> Compiled:
        return compile_tree(node, random)

    match tree:
        case Num(value):
            return lambda s: value
        case Var(name):

            def var(s: Mapping[str, float]) -> float:
                try:
                    return s[name]
                except KeyError:
                    raise FormulaError(f"unknown name {name!r}") from None

            return var
        case Neg(operand):
            a = sub(operand)
            return lambda s: -a(s)
        case Not(operand):
            a = sub(operand)
            return lambda s: float(not a(s))
        case If(cond, then, otherwise):
            c, a, b = sub(cond), sub(then), sub(otherwise)
            return lambda s: a(s) if c(s) else b(s)
        case Bin(op_name, left, right):
            op = BINARY[op_name]
            a, b = sub(left), sub(right)
            if op_name == "+":
                return lambda s: a(s) + b(s)
            if op_name == "-":
                return lambda s: a(s) - b(s)
            if op_name == "*":
                return lambda s: a(s) * b(s)
            return lambda s: op(a(s), b(s))
        case Call(name, args) if name == RANDOM:
            if random is None:
                raise FormulaError("random() is drawn from the scene's seeded generator, in a module only")
            draw = random
            ignored = [sub(t) for t in args]

            def drawn(s: Mapping[str, float]) -> float:
                for arg in ignored:  # math.js evaluates the arguments; the scene's generator ignores them
                    arg(s)
                return float(draw())

            return drawn
        case Call(name, args):
            fn = FUNCTIONS[name]
            compiled = [sub(t) for t in args]
            if len(compiled) == 1:
                only = compiled[0]
                return lambda s: fn(only(s))
            return lambda s: fn(*(a(s) for a in compiled))
    raise FormulaError(f"cannot evaluate a {type(tree).__name__!r} node")
