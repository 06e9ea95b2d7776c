"""The tree a formula parses into: one small immutable class per kind of node, and the walks over it
(its size and depth, which bound the work evaluating it, and its free variables).

Nodes are frozen dataclasses: equal when of the same kind with equal parts, hashable, and matched by
``match`` on their fields. A sub-tree can be shared (a user function's argument, inlined at every
use): the walks count a shared sub-tree as often as evaluation walks it, finding it once by identity.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeAlias


class FormulaError(ValueError):
    """The text is not a formula this parser accepts; the message says where and why."""


@dataclass(frozen=True, slots=True)
class Num:
    """A number."""

    value: float


@dataclass(frozen=True, slots=True)
class Var:
    """A variable, read from the scope at evaluation."""

    name: str


@dataclass(frozen=True, slots=True)
class Neg:
    """``-operand``."""

    operand: Node


@dataclass(frozen=True, slots=True)
class Not:
    """``not operand``: 1 where the operand is 0, else 0."""

    operand: Node


@dataclass(frozen=True, slots=True)
class Bin:
    """``left op right``: arithmetic (``+ - * / ^ %``), a comparison or ``and``/``or``."""

    op: str
    left: Node
    right: Node


@dataclass(frozen=True, slots=True)
class If:
    """``cond ? then : otherwise``."""

    cond: Node
    then: Node
    otherwise: Node


@dataclass(frozen=True, slots=True)
class Call:
    """``name(args...)``: a whitelisted function, or ``random()``."""

    name: str
    args: tuple[Node, ...]


Node: TypeAlias = "Num | Var | Neg | Not | Bin | If | Call"
"""Any node of a formula's tree."""
UserFunction: TypeAlias = "tuple[tuple[str, ...], Node]"
"""A one-line function a module defines (``f(t) = t^2``): its parameters and its body, inlined
where it is called."""


def children(node: Node) -> tuple[Node, ...]:
    """The node's operands, in evaluation order."""
    if isinstance(node, (Neg, Not)):
        return (node.operand,)
    if isinstance(node, Bin):
        return (node.left, node.right)
    if isinstance(node, If):
        return (node.cond, node.then, node.otherwise)
    if isinstance(node, Call):
        return node.args
    return ()


def with_operands(node: Node, rewrite: Callable[[Node], Node]) -> Node:
    """A copy of ``node`` whose operands are ``rewrite(operand)``, in evaluation order (a leaf is
    returned as it is)."""
    match node:
        case Neg(operand):
            return Neg(rewrite(operand))
        case Not(operand):
            return Not(rewrite(operand))
        case Bin(op, left, right):
            return Bin(op, rewrite(left), rewrite(right))
        case If(cond, then, otherwise):
            return If(rewrite(cond), rewrite(then), rewrite(otherwise))
        case Call(name, args):
            return Call(name, tuple(rewrite(a) for a in args))
    return node


def _fold(tree: Node, combine: Callable[[list[int]], int]) -> int:
    """``combine(children's values)`` for every node, each shared sub-tree once (by identity):
    linear in the distinct nodes, however often a sub-tree is shared."""
    done: dict[int, int] = {}
    stack: list[tuple[Node, bool]] = [(tree, False)]
    while stack:
        node, ready = stack.pop()
        if id(node) in done:
            continue
        parts = children(node)
        if ready:
            done[id(node)] = combine([done[id(c)] for c in parts])
            continue
        stack.append((node, True))
        stack.extend((c, False) for c in parts if id(c) not in done)
    return done[id(tree)]


def tree_size(tree: Node) -> int:
    """The nodes evaluation walks: a sub-tree shared twice counts twice (found walking it once)."""
    return _fold(tree, lambda sizes: 1 + sum(sizes))


def tree_depth(tree: Node) -> int:
    return _fold(tree, lambda depths: 1 + max(depths, default=0))


def free_variables(tree: Node) -> set[str]:
    out: set[str] = set()
    stack = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, Var):
            out.add(node.name)
        else:
            stack.extend(children(node))
    return out
