"""Symbolic differentiation of a parsed tree (a GRIN glass's index gradient, a parametric curve's
tangent), by the usual rules; a comparison, ``not`` or a step function (``floor``, ``sign``...) has
derivative 0, and a function without a rule here is a :class:`.nodes.FormulaError`."""

from __future__ import annotations

from .nodes import Bin, Call, FormulaError, If, Neg, Node, Not, Num, Var

_ZERO_SLOPE = ("floor", "ceil", "round", "trunc", "fix", "sign")


def _square(u: Node) -> Node:
    return Bin("^", u, Num(2.0))


def _outer(name: str, u: Node) -> Node | None:
    """The derivative of the function ``name`` at ``u`` (to be multiplied by ``u``'s)."""
    one = Num(1.0)
    match name:
        case "sin":
            return Call("cos", (u,))
        case "cos":
            return Neg(Call("sin", (u,)))
        case "tan":
            return _square(Call("sec", (u,)))
        case "exp":
            return Call("exp", (u,))
        case "log" | "ln":
            return Bin("/", one, u)
        case "sqrt":
            return Bin("/", one, Bin("*", Num(2.0), Call("sqrt", (u,))))
        case "sinh":
            return Call("cosh", (u,))
        case "cosh":
            return Call("sinh", (u,))
        case "tanh":
            return _square(Call("sech", (u,)))
        case "asin":
            return Bin("/", one, Call("sqrt", (Bin("-", one, _square(u)),)))
        case "acos":
            return Neg(Bin("/", one, Call("sqrt", (Bin("-", one, _square(u)),))))
        case "atan":
            return Bin("/", one, Bin("+", one, _square(u)))
        case "abs":
            return Call("sign", (u,))
        case "sech":
            return Neg(Bin("*", Call("sech", (u,)), Call("tanh", (u,))))
        case "sec":
            return Bin("*", Call("sec", (u,)), Call("tan", (u,)))
    return None


def derivative(tree: Node, var: str) -> Node:
    """The symbolic derivative of ``tree`` with respect to ``var``."""

    def d(n: Node) -> Node:
        match n:
            case Num():
                return Num(0.0)
            case Var(name):
                return Num(1.0 if name == var else 0.0)
            case Neg(operand):
                return Neg(d(operand))
            case If(cond, then, otherwise):
                return If(cond, d(then), d(otherwise))
            case Not():
                return Num(0.0)
            case Bin(op, a, b) if op in ("+", "-"):
                return Bin(op, d(a), d(b))
            case Bin("*", a, b):
                return Bin("+", Bin("*", d(a), b), Bin("*", a, d(b)))
            case Bin("/", a, b):
                return Bin("/", Bin("-", Bin("*", d(a), b), Bin("*", a, d(b))), _square(b))
            case Bin("^", a, b):
                # a^b: b·a^(b-1)·a' + a^b·ln(a)·b'
                da, db = d(a), d(b)
                term1 = Bin("*", Bin("*", b, Bin("^", a, Bin("-", b, Num(1.0)))), da)
                if db == Num(0.0) or isinstance(b, Num):
                    return term1
                return Bin("+", term1, Bin("*", Bin("*", n, Call("log", (a,))), db))
            case Bin():
                return Num(0.0)
            case Call(name, args):
                if len(args) != 1:
                    raise FormulaError(f"cannot differentiate {name} of {len(args)} arguments")
                u = args[0]
                du = d(u)
                outer = _outer(name, u)
                if name in _ZERO_SLOPE:
                    return Num(0.0)
                if outer is None:
                    raise FormulaError(f"cannot differentiate {name}")
                return Bin("*", outer, du)
        raise FormulaError(f"cannot differentiate a {type(n).__name__!r} node")

    return d(tree)
