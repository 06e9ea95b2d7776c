"""Reading a formula: the math.js text of modules (``x_1 + 2*d``, ``f(t) = t^2``) and the LaTeX
of custom shapes and GRIN index functions (``\\frac{0.2}{x^2}``, ``0.001\\lambda``,
``\\sqrt{1-x^2}``), tokenized and read by a recursive-descent parser into a tree of
:mod:`.nodes` over the whitelist of :mod:`.functions`.

A formula is untrusted text, so its size is bounded while it is read: characters, tree nodes
(counting the growth of user functions expanded in place), nesting and the tree's depth. Evaluation
time is then bounded by the tree's size.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from ...limits import MAX_FORMULA_CHARS as MAX_CHARS
from ...limits import MAX_FORMULA_DEPTH as MAX_TREE_DEPTH
from ...limits import MAX_FORMULA_NESTING as MAX_DEPTH
from ...limits import MAX_FORMULA_NODES as MAX_NODES
from .evaluate import compile_tree
from .functions import CONSTANTS, FUNCTIONS, RANDOM
from .nodes import (
    Bin,
    Call,
    FormulaError,
    If,
    Neg,
    Node,
    Not,
    Num,
    UserFunction,
    Var,
    free_variables,
    tree_depth,
    tree_size,
    with_operands,
)
from .tokens import tokenize


@dataclass
class Formula:
    """A parsed formula: ``evaluate(scope)`` or the compiled ``fn`` over ``variables``."""

    text: str
    tree: Node
    variables: tuple[str, ...] = field(default_factory=tuple)

    def evaluate(self, scope: Mapping[str, float] | None = None) -> float:
        return compile_tree(self.tree)(dict(scope or {}))


class _Parser:
    def __init__(
        self,
        text: str,
        *,
        latex: bool,
        functions: Mapping[str, UserFunction],
        known: frozenset[str] | None,
    ) -> None:
        if len(text) > MAX_CHARS:
            raise FormulaError(f"a formula of {len(text)} characters is longer than {MAX_CHARS}")
        self.latex = latex
        self.user = functions
        self.known = known
        self.nodes = 0
        self.tokens = tokenize(text, latex=latex, known=known)
        self.pos = 0
        self.depth = 0

    def peek(self) -> tuple[str, str] | None:
        return self.tokens[self.pos] if self.pos < len(self.tokens) else None

    def take(self) -> tuple[str, str]:
        tok = self.peek()
        if tok is None:
            raise FormulaError("the formula ends too early")
        self.pos += 1
        return tok

    def expect(self, value: str) -> None:
        tok = self.take()
        if tok[1] != value:
            raise FormulaError(f"expected {value!r}, found {tok[1]!r}")

    def node(self, node: Node) -> Node:
        """``node``, counted in the tree the formula evaluates."""
        return self.grow(1, node)

    def grow(self, terms: int, node: Node) -> Node:
        """``node``, counting ``terms`` more in the tree the formula evaluates."""
        self.nodes += terms
        if self.nodes > MAX_NODES:
            raise FormulaError(f"the formula grows past {MAX_NODES} terms")
        return node

    def nested(self, descend: Callable[[], Node]) -> Node:
        """``descend()`` one level deeper (brackets, calls, and prefix operators such as ``---x``)."""
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise FormulaError(f"the formula nests deeper than {MAX_DEPTH}")
        try:
            return descend()
        finally:
            self.depth -= 1

    def parse(self) -> Node:
        if not self.tokens:
            raise FormulaError("the formula is empty")
        tree = self.expr()
        if self.peek() is not None:
            raise FormulaError(f"unexpected {self.peek()[1]!r} after the formula")  # type: ignore[index]
        if tree_depth(tree) > MAX_TREE_DEPTH:
            raise FormulaError(f"the formula is more than {MAX_TREE_DEPTH} operations deep")
        return tree

    def expr(self) -> Node:
        return self.nested(self.ternary)

    def ternary(self) -> Node:
        cond = self.logic_or()
        if self._at("op", "?"):
            self.take()
            a = self.expr()
            self.expect(":")
            b = self.expr()
            return self.node(If(cond, a, b))
        return cond

    def _at(self, kind: str, value: str) -> bool:
        tok = self.peek()
        return tok is not None and tok[0] == kind and tok[1] == value

    def logic_or(self) -> Node:
        node = self.logic_and()
        while self._at("name", "or") or self._at("op", "||"):
            self.take()
            node = self.node(Bin("or", node, self.logic_and()))
        return node

    def logic_and(self) -> Node:
        node = self.logic_not()
        while self._at("name", "and") or self._at("op", "&&"):
            self.take()
            node = self.node(Bin("and", node, self.logic_not()))
        return node

    def logic_not(self) -> Node:
        if self._at("name", "not") or self._at("op", "!"):
            self.take()
            return self.node(Not(self.nested(self.logic_not)))
        return self.compare()

    def compare(self) -> Node:
        node = self.additive()
        while (tok := self.peek()) and tok[0] == "op" and tok[1] in ("<", ">", "<=", ">=", "==", "!="):
            self.take()
            node = self.node(Bin(tok[1], node, self.additive()))
        return node

    def additive(self) -> Node:
        node = self.multiplicative()
        while (tok := self.peek()) and tok[0] == "op" and tok[1] in "+-":
            self.take()
            node = self.node(Bin(tok[1], node, self.multiplicative()))
        return node

    def _starts_operand(self, tok: tuple[str, str] | None) -> bool:
        if tok is None:
            return False
        kind, value = tok
        if kind in ("num", "cmd"):
            return True
        if kind == "name":
            return value not in ("and", "or", "not", "mod")
        return value == "("

    def multiplicative(self) -> Node:
        node = self.unary()
        while True:
            tok = self.peek()
            if tok and ((tok[0] == "op" and tok[1] in "*/%") or tok == ("name", "mod")):
                self.take()
                op = "%" if tok[1] == "mod" else tok[1]
                node = self.node(Bin(op, node, self.unary()))
            elif self._starts_operand(tok):
                node = self.node(Bin("*", node, self.power()))
            else:
                return node

    def unary(self) -> Node:
        tok = self.peek()
        if tok and tok[0] == "op" and tok[1] in "+-":
            self.take()
            operand = self.nested(self.unary)
            return operand if tok[1] == "+" else self.node(Neg(operand))
        return self.power()

    def power(self) -> Node:
        base = self.primary()
        if self._at("op", "^"):
            self.take()
            if self.latex and (tok := self.peek()) and tok[0] == "num" and not self._at("op", "("):
                self.take()
                digits = tok[1]
                exponent: Node = self.node(Num(float(digits[0])))
                if len(digits) > 1:
                    # LaTeX: x^23 is x^2·3
                    return self.node(
                        Bin("*", self.node(Bin("^", base, exponent)), self.node(Num(float(digits[1:]))))
                    )
                return self.node(Bin("^", base, exponent))
            return self.node(Bin("^", base, self.nested(self.unary)))
        return base

    def group(self) -> Node:
        self.expect("(")
        inner = self.expr()
        self.expect(")")
        return inner

    def primary(self) -> Node:
        kind, value = self.take()
        if kind == "num":
            return self.node(Num(float(value)))
        if kind == "cmd":
            if value == "frac":
                num = self.group()
                den = self.group()
                return self.node(Bin("/", num, den))
            if self._at("op", "["):
                self.take()
                degree = self.expr()
                self.expect("]")
                return self.node(Bin("^", self.group(), self.node(Bin("/", self.node(Num(1.0)), degree))))
            return self.node(Call("sqrt", (self.group(),)))
        if kind == "op":
            if value == "(":
                inner = self.expr()
                self.expect(")")
                return inner
            if value == "|":
                inner = self.expr()
                self.expect("|")
                return self.node(Call("abs", (inner,)))
            raise FormulaError(f"unexpected {value!r}")
        return self.name(value)

    def name(self, value: str) -> Node:
        called = self._at("op", "(") or (self.latex and value in FUNCTIONS)
        drawn = value == RANDOM and not self.latex and value not in self.user
        if called and (value in self.user or value in FUNCTIONS or drawn):
            if self._at("op", "("):
                self.take()
                args: list[Node] = []
                if not self._at("op", ")"):
                    args.append(self.expr())
                    while self._at("op", ","):
                        self.take()
                        args.append(self.expr())
                self.expect(")")
            elif self.latex and value in FUNCTIONS:
                args = [self.nested(self.power)]
            if value in self.user:
                return self.inline(value, args)
            return self.node(Call(value, tuple(args)))
        if value in CONSTANTS and (self.known is None or value not in self.known):
            return self.node(Num(CONSTANTS[value]))
        return self.node(Var(value))

    def inline(self, name: str, args: list[Node]) -> Node:
        params, body = self.user[name]
        if len(args) != len(params):
            raise FormulaError(f"{name} takes {len(params)} arguments, not {len(args)}")
        bound = dict(zip(params, args, strict=True))
        sizes = {name: tree_size(arg) for name, arg in bound.items()}

        def substitute(node: Node) -> Node:
            if isinstance(node, Var) and node.name in bound:
                # the argument is shared, not copied: count it as the tree evaluation walks
                return self.grow(sizes[node.name], bound[node.name])
            self.grow(1, node)
            return with_operands(node, substitute)

        return substitute(body)


def parse(
    text: str,
    *,
    latex: bool = False,
    functions: Mapping[str, UserFunction] | None = None,
    known: frozenset[str] | None = None,
) -> Formula:
    """Parse ``text`` (math.js syntax, or LaTeX when ``latex``) into a :class:`Formula`."""
    if not isinstance(text, str):
        raise FormulaError("a formula must be text")
    parser = _Parser(text, latex=latex, functions=functions or {}, known=known)
    tree = parser.parse()
    return Formula(text, tree, tuple(sorted(free_variables(tree))))
