"""Safe evaluation of the formulas a scene file carries: the math.js text of modules (``x_1 + 2*d``,
``f(t) = t^2``) and the LaTeX of custom shapes and GRIN index functions (``\\frac{0.2}{x^2}``,
``0.001\\lambda``, ``\\sqrt{1-x^2}``).

A formula is untrusted text: it is parsed by this module's own recursive-descent parser into a
small tree over a whitelist of operators, constants and functions, and compiled into nested
Python closures; nothing is ever handed to Python's ``eval``. ``random()`` (math.js text only) draws
from a generator the caller hands to :func:`compile_tree`, as ray-optics' modules draw from the
scene's seeded one. Size is bounded (characters, tree
nodes, nesting, the growth of user functions expanded in place), so evaluation time is bounded
by the tree's size. Arithmetic follows JavaScript: a domain error or a division by zero gives NaN
or an infinity, never an exception.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..limits import MAX_FORMULA_CHARS as MAX_CHARS
from ..limits import MAX_FORMULA_DEPTH as MAX_TREE_DEPTH
from ..limits import MAX_FORMULA_NESTING as MAX_DEPTH
from ..limits import MAX_FORMULA_NODES as MAX_NODES

RANDOM = "random"
"""The one function whose value comes from the caller: the scene's seeded generator."""


class FormulaError(ValueError):
    """The text is not a formula this parser accepts; the message says where and why."""


Node = tuple[Any, ...]
"""``("num", v)``, ``("var", name)``, ``("neg", a)``, ``("not", a)``, ``("bin", op, a, b)``,
``("call", name, (args...))``."""


def _js_div(a: float, b: float) -> float:
    if b == 0:
        if a == 0 or a != a:
            return math.nan
        return math.copysign(math.inf, a) * (math.copysign(1.0, b))
    return a / b


def _js_pow(a: float, b: float) -> float:
    try:
        r = a**b
    except ZeroDivisionError:
        return math.inf
    except OverflowError:
        return math.inf
    return math.nan if isinstance(r, complex) else float(r)


def _js_mod(a: float, b: float) -> float:
    if b == 0:
        return math.nan
    return a - b * math.floor(a / b)  # math.js mod: the sign of the divisor


def _safe(fn: Callable[..., float]) -> Callable[..., float]:
    def wrapped(*args: float) -> float:
        try:
            return float(fn(*args))
        except (ValueError, ZeroDivisionError):
            return math.nan
        except OverflowError:
            return math.inf

    return wrapped


def _round(x: float) -> float:
    return math.floor(x + 0.5)


def _log(x: float, base: float | None = None) -> float:
    if x == 0:
        return -math.inf
    value = math.log(x)
    return value if base is None else value / math.log(base)


def _sign(x: float) -> float:
    return (x > 0) - (x < 0) if x == x else math.nan


_PLAIN: dict[str, Callable[..., Any]] = {
    "sin": math.sin,
    "cos": math.cos,
    "tan": math.tan,
    "asin": math.asin,
    "acos": math.acos,
    "atan": math.atan,
    "atan2": math.atan2,
    "sinh": math.sinh,
    "cosh": math.cosh,
    "tanh": math.tanh,
    "asinh": math.asinh,
    "acosh": math.acosh,
    "atanh": math.atanh,
    "sqrt": math.sqrt,
    "exp": math.exp,
    "log": _log,
    "ln": _log,
    "log10": math.log10,
    "log2": math.log2,
    "abs": abs,
    "floor": math.floor,
    "ceil": math.ceil,
    "round": _round,
    "trunc": math.trunc,
    "fix": math.trunc,
    "sign": _sign,
    "min": min,
    "max": max,
    "pow": _js_pow,
    "mod": _js_mod,
    "sec": lambda x: 1 / math.cos(x),
    "csc": lambda x: 1 / math.sin(x),
    "cot": lambda x: 1 / math.tan(x),
    "sech": lambda x: 1 / math.cosh(x),
    "csch": lambda x: 1 / math.sinh(x),
    "coth": lambda x: 1 / math.tanh(x),
    "cbrt": lambda x: math.copysign(abs(x) ** (1 / 3), x),
    "hypot": math.hypot,
}
FUNCTIONS: dict[str, Callable[..., float]] = {name: _safe(fn) for name, fn in _PLAIN.items()}
CONSTANTS = {
    "pi": math.pi,
    "PI": math.pi,
    "e": math.e,
    "E": math.e,
    "true": 1.0,
    "false": 0.0,
    "Infinity": math.inf,
}
_LATEX_ALIASES = {
    "cdot": "*",
    "times": "*",
    "div": "/",
    "pi": "pi",
    "ln": "log",
    "arcsin": "asin",
    "arccos": "acos",
    "arctan": "atan",
    "operatorname": "",
    "mathrm": "",
    "left": "",
    "right": "",
    "le": "<=",
    "ge": ">=",
    "leq": "<=",
    "geq": ">=",
    "neq": "!=",
    "lt": "<",
    "gt": ">",
}
_GREEK = {
    "alpha",
    "beta",
    "gamma",
    "delta",
    "epsilon",
    "varepsilon",
    "zeta",
    "eta",
    "theta",
    "vartheta",
    "iota",
    "kappa",
    "lambda",
    "mu",
    "nu",
    "xi",
    "rho",
    "sigma",
    "tau",
    "upsilon",
    "phi",
    "varphi",
    "chi",
    "psi",
    "omega",
    "Gamma",
    "Delta",
    "Theta",
    "Lambda",
    "Xi",
    "Sigma",
    "Phi",
    "Psi",
    "Omega",
}
_INVERSE_HYPERBOLIC = re.compile(r"\\(sin|cos|tan|sinh|cosh|tanh)\^\{-1\}")
_TOKEN = re.compile(
    r"\s+|(?P<num>(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)"
    r"|(?P<cmd>\\[A-Za-z]+(?:_(?:\{[A-Za-z0-9]+\}|[A-Za-z0-9]+))?|\\[,;:! |{}])"
    r"|(?P<name>[A-Za-z][A-Za-z0-9]*(?:_(?:\{[A-Za-z0-9]+\}|[A-Za-z0-9]+))?)"
    r"|(?P<op><=|>=|==|!=|&&|\|\||[-+*/^%(),<>=|{}\[\]!?:])"
)


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
        functions: Mapping[str, tuple[tuple[str, ...], Node]],
        known: frozenset[str] | None,
    ) -> None:
        if len(text) > MAX_CHARS:
            raise FormulaError(f"a formula of {len(text)} characters is longer than {MAX_CHARS}")
        self.latex = latex
        self.user = functions
        self.known = known
        self.nodes = 0
        self.tokens = self._tokenize(text)
        self.pos = 0
        self.depth = 0

    def _tokenize(self, text: str) -> list[tuple[str, str]]:
        if self.latex:
            text = _INVERSE_HYPERBOLIC.sub(lambda m: f"\\a{m.group(1)} ", text)
        out: list[tuple[str, str]] = []
        pos = 0
        while pos < len(text):
            m = _TOKEN.match(text, pos)
            if not m or m.end() == pos:
                raise FormulaError(f"unexpected {text[pos]!r} at {pos + 1} in {text[:60]!r}")
            pos = m.end()
            kind = m.lastgroup
            if kind is None:
                continue
            value = m.group(kind)
            if kind == "cmd":
                word = value[1:]
                if "_" in word:
                    out.append(("name", re.sub(r"_\{([A-Za-z0-9]+)\}", r"_\1", word)))
                    continue
                if word in ",;:! ":
                    continue
                if word in "{}":
                    out.append(("op", "(" if word == "{" else ")"))
                    continue
                if word in _LATEX_ALIASES:
                    alias = _LATEX_ALIASES[word]
                    if alias in ("*", "/", "<=", ">=", "!=", "<", ">"):
                        out.append(("op", alias))
                    elif alias:
                        out.append(("name", alias))
                    elif word in ("operatorname", "mathrm"):
                        m2 = re.match(r"\s*\{([A-Za-z]+)\}", text[pos:])
                        if not m2:
                            raise FormulaError(f"\\{word} without a name in {text[:60]!r}")
                        pos += m2.end()
                        name = {
                            "sgn": "sign",
                            "arcsinh": "asinh",
                            "arccosh": "acosh",
                            "arctanh": "atanh",
                        }.get(m2.group(1), m2.group(1))
                        out.append(("name", name))
                    continue
                if word in ("frac", "sqrt", "dfrac", "tfrac"):
                    out.append(("cmd", "frac" if word.endswith("frac") else word))
                    continue
                out.append(("name", word))
                continue
            if kind == "name":
                value = re.sub(r"_\{([A-Za-z0-9]+)\}", r"_\1", value)
                if self.latex:
                    out.extend(("name", part) for part in self._split_latex_name(value))
                    continue
            if kind == "op" and value in "{}":
                value = "(" if value == "{" else ")"
            out.append((kind, value))
        return out

    def _split_latex_name(self, name: str) -> list[str]:
        """LaTeX juxtaposes one-letter symbols: ``xy`` is x·y unless ``xy`` is a known name."""
        base, _, sub = name.partition("_")
        if (
            base in FUNCTIONS
            or base in CONSTANTS
            or base in _GREEK
            or len(base) == 1
            or (self.known is not None and name in self.known)
        ):
            return [name]
        letters = list(base)
        if sub:
            letters[-1] += "_" + sub
        return letters

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

    def node(self, *parts: Any) -> Node:
        return self.grow(1, tuple(parts))

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
            return self.node("if", cond, a, b)
        return cond

    def _at(self, kind: str, value: str) -> bool:
        tok = self.peek()
        return tok is not None and tok[0] == kind and tok[1] == value

    def logic_or(self) -> Node:
        node = self.logic_and()
        while self._at("name", "or") or self._at("op", "||"):
            self.take()
            node = self.node("bin", "or", node, self.logic_and())
        return node

    def logic_and(self) -> Node:
        node = self.logic_not()
        while self._at("name", "and") or self._at("op", "&&"):
            self.take()
            node = self.node("bin", "and", node, self.logic_not())
        return node

    def logic_not(self) -> Node:
        if self._at("name", "not") or self._at("op", "!"):
            self.take()
            return self.node("not", self.nested(self.logic_not))
        return self.compare()

    def compare(self) -> Node:
        node = self.additive()
        while (tok := self.peek()) and tok[0] == "op" and tok[1] in ("<", ">", "<=", ">=", "==", "!="):
            self.take()
            node = self.node("bin", tok[1], node, self.additive())
        return node

    def additive(self) -> Node:
        node = self.multiplicative()
        while (tok := self.peek()) and tok[0] == "op" and tok[1] in "+-":
            self.take()
            node = self.node("bin", tok[1], node, self.multiplicative())
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
                node = self.node("bin", op, node, self.unary())
            elif self._starts_operand(tok):
                node = self.node("bin", "*", node, self.power())
            else:
                return node

    def unary(self) -> Node:
        tok = self.peek()
        if tok and tok[0] == "op" and tok[1] in "+-":
            self.take()
            operand = self.nested(self.unary)
            return operand if tok[1] == "+" else self.node("neg", operand)
        return self.power()

    def power(self) -> Node:
        base = self.primary()
        if self._at("op", "^"):
            self.take()
            if self.latex and (tok := self.peek()) and tok[0] == "num" and not self._at("op", "("):
                self.take()
                digits = tok[1]
                exponent: Node = self.node("num", float(digits[0]))
                if len(digits) > 1:
                    # LaTeX: x^23 is x^2·3
                    return self.node(
                        "bin", "*", self.node("bin", "^", base, exponent), self.node("num", float(digits[1:]))
                    )
                return self.node("bin", "^", base, exponent)
            return self.node("bin", "^", base, self.nested(self.unary))
        return base

    def group(self) -> Node:
        self.expect("(")
        inner = self.expr()
        self.expect(")")
        return inner

    def primary(self) -> Node:
        kind, value = self.take()
        if kind == "num":
            return self.node("num", float(value))
        if kind == "cmd":
            if value == "frac":
                num = self.group()
                den = self.group()
                return self.node("bin", "/", num, den)
            if self._at("op", "["):
                self.take()
                degree = self.expr()
                self.expect("]")
                return self.node(
                    "bin", "^", self.group(), self.node("bin", "/", self.node("num", 1.0), degree)
                )
            return self.node("call", "sqrt", (self.group(),))
        if kind == "op":
            if value == "(":
                inner = self.expr()
                self.expect(")")
                return inner
            if value == "|":
                inner = self.expr()
                self.expect("|")
                return self.node("call", "abs", (inner,))
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
            return self.node("call", value, tuple(args))
        if value in CONSTANTS and (self.known is None or value not in self.known):
            return self.node("num", CONSTANTS[value])
        return self.node("var", value)

    def inline(self, name: str, args: list[Node]) -> Node:
        params, body = self.user[name]
        if len(args) != len(params):
            raise FormulaError(f"{name} takes {len(params)} arguments, not {len(args)}")
        bound = dict(zip(params, args, strict=True))
        sizes = {name: tree_size(arg) for name, arg in bound.items()}

        def substitute(node: Node) -> Node:
            kind = node[0]
            if kind == "var" and node[1] in bound:
                # the argument is shared, not copied: count it as the tree evaluation walks
                return self.grow(sizes[node[1]], bound[node[1]])
            self.node()
            if kind in ("neg", "not"):
                return (kind, substitute(node[1]))
            if kind == "bin":
                return ("bin", node[1], substitute(node[2]), substitute(node[3]))
            if kind == "if":
                return ("if", substitute(node[1]), substitute(node[2]), substitute(node[3]))
            if kind == "call":
                return ("call", node[1], tuple(substitute(a) for a in node[2]))
            return node

        return substitute(body)


def parse(
    text: str,
    *,
    latex: bool = False,
    functions: Mapping[str, tuple[tuple[str, ...], Node]] | None = None,
    known: frozenset[str] | None = None,
) -> Formula:
    """Parse ``text`` (math.js syntax, or LaTeX when ``latex``) into a :class:`Formula`."""
    if not isinstance(text, str):
        raise FormulaError("a formula must be text")
    parser = _Parser(text, latex=latex, functions=functions or {}, known=known)
    tree = parser.parse()
    return Formula(text, tree, tuple(sorted(free_variables(tree))))


def _children(node: Node) -> tuple[Node, ...]:
    kind = node[0]
    if kind in ("neg", "not"):
        return (node[1],)
    if kind == "bin":
        return (node[2], node[3])
    if kind == "if":
        return (node[1], node[2], node[3])
    if kind == "call":
        return tuple(node[2])
    return ()


def _fold(tree: Node, combine: Callable[[list[int]], int]) -> int:
    """``combine(children's values)`` for every node, each shared sub-tree once (by identity):
    linear in the distinct nodes, however often a sub-tree is shared."""
    done: dict[int, int] = {}
    stack: list[tuple[Node, bool]] = [(tree, False)]
    while stack:
        node, ready = stack.pop()
        if id(node) in done:
            continue
        children = _children(node)
        if ready:
            done[id(node)] = combine([done[id(c)] for c in children])
            continue
        stack.append((node, True))
        stack.extend((c, False) for c in children if id(c) not in done)
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
        if node[0] == "var":
            out.add(node[1])
        elif node[0] in ("neg", "not"):
            stack.append(node[1])
        elif node[0] == "bin":
            stack.extend(node[2:])
        elif node[0] == "if":
            stack.extend(node[1:])
        elif node[0] == "call":
            stack.extend(node[2])
    return out


_BINARY: dict[str, Callable[[float, float], float]] = {
    "+": lambda a, b: a + b,
    "-": lambda a, b: a - b,
    "*": lambda a, b: a * b,
    "/": _js_div,
    "^": _js_pow,
    "%": _js_mod,
    "<": lambda a, b: float(a < b),
    ">": lambda a, b: float(a > b),
    "<=": lambda a, b: float(a <= b),
    ">=": lambda a, b: float(a >= b),
    "==": lambda a, b: float(a == b),
    "!=": lambda a, b: float(a != b),
    "and": lambda a, b: float(bool(a) and bool(b)),
    "or": lambda a, b: float(bool(a) or bool(b)),
}


def compile_tree(
    tree: Node, random: Callable[[], float] | None = None
) -> Callable[[Mapping[str, float]], float]:
    """Closures that evaluate ``tree`` over a scope; an unknown variable is a :class:`FormulaError`.
    ``random`` is what ``random()`` calls; without it, a formula calling it is refused."""

    def sub(node: Node) -> Callable[[Mapping[str, float]], float]:
        return compile_tree(node, random)

    kind = tree[0]
    if kind == "num":
        value = tree[1]
        return lambda s: value
    if kind == "var":
        name = tree[1]

        def var(s: Mapping[str, float]) -> float:
            try:
                return s[name]
            except KeyError:
                raise FormulaError(f"unknown name {name!r}") from None

        return var
    if kind == "neg":
        a = sub(tree[1])
        return lambda s: -a(s)
    if kind == "not":
        a = sub(tree[1])
        return lambda s: float(not a(s))
    if kind == "if":
        c, a, b = (sub(t) for t in tree[1:])
        return lambda s: a(s) if c(s) else b(s)
    if kind == "bin":
        op = _BINARY[tree[1]]
        a, b = sub(tree[2]), sub(tree[3])
        if tree[1] == "+":
            return lambda s: a(s) + b(s)
        if tree[1] == "-":
            return lambda s: a(s) - b(s)
        if tree[1] == "*":
            return lambda s: a(s) * b(s)
        return lambda s: op(a(s), b(s))
    if kind == "call" and tree[1] == RANDOM:
        if random is None:
            raise FormulaError("random() is drawn from the scene's seeded generator, in a module only")
        draw = random
        ignored = [sub(t) for t in tree[2]]

        def drawn(s: Mapping[str, float]) -> float:
            for arg in ignored:  # math.js evaluates the arguments; the scene's generator ignores them
                arg(s)
            return float(draw())

        return drawn
    if kind == "call":
        fn = FUNCTIONS[tree[1]]
        args = [sub(t) for t in tree[2]]
        if len(args) == 1:
            only = args[0]
            return lambda s: fn(only(s))
        return lambda s: fn(*(a(s) for a in args))
    raise FormulaError(f"cannot evaluate a {kind!r} node")


def derivative(tree: Node, var: str) -> Node:
    """The symbolic derivative of ``tree`` with respect to ``var`` (for GRIN index gradients)."""

    def d(n: Node) -> Node:
        kind = n[0]
        if kind == "num":
            return ("num", 0.0)
        if kind == "var":
            return ("num", 1.0 if n[1] == var else 0.0)
        if kind == "neg":
            return ("neg", d(n[1]))
        if kind in ("not", "if") or (kind == "bin" and n[1] not in "+-*/^"):
            if kind == "if":
                return ("if", n[1], d(n[2]), d(n[3]))
            return ("num", 0.0)
        if kind == "bin":
            op, a, b = n[1], n[2], n[3]
            da, db = d(a), d(b)
            if op in "+-":
                return ("bin", op, da, db)
            if op == "*":
                return ("bin", "+", ("bin", "*", da, b), ("bin", "*", a, db))
            if op == "/":
                return (
                    "bin",
                    "/",
                    ("bin", "-", ("bin", "*", da, b), ("bin", "*", a, db)),
                    ("bin", "^", b, ("num", 2.0)),
                )
            # a^b: b·a^(b-1)·a' + a^b·ln(a)·b'
            term1 = ("bin", "*", ("bin", "*", b, ("bin", "^", a, ("bin", "-", b, ("num", 1.0)))), da)
            if db == ("num", 0.0) or b[0] == "num":
                return term1
            return ("bin", "+", term1, ("bin", "*", ("bin", "*", n, ("call", "log", (a,))), db))
        name, args = n[1], n[2]
        if len(args) != 1:
            raise FormulaError(f"cannot differentiate {name} of {len(args)} arguments")
        u = args[0]
        du = d(u)
        one = ("num", 1.0)
        outer: dict[str, Node] = {
            "sin": ("call", "cos", (u,)),
            "cos": ("neg", ("call", "sin", (u,))),
            "tan": ("bin", "^", ("call", "sec", (u,)), ("num", 2.0)),
            "exp": ("call", "exp", (u,)),
            "log": ("bin", "/", one, u),
            "ln": ("bin", "/", one, u),
            "sqrt": ("bin", "/", one, ("bin", "*", ("num", 2.0), ("call", "sqrt", (u,)))),
            "sinh": ("call", "cosh", (u,)),
            "cosh": ("call", "sinh", (u,)),
            "tanh": ("bin", "^", ("call", "sech", (u,)), ("num", 2.0)),
            "asin": ("bin", "/", one, ("call", "sqrt", (("bin", "-", one, ("bin", "^", u, ("num", 2.0))),))),
            "acos": (
                "neg",
                ("bin", "/", one, ("call", "sqrt", (("bin", "-", one, ("bin", "^", u, ("num", 2.0))),))),
            ),
            "atan": ("bin", "/", one, ("bin", "+", one, ("bin", "^", u, ("num", 2.0)))),
            "abs": ("call", "sign", (u,)),
            "sech": ("neg", ("bin", "*", ("call", "sech", (u,)), ("call", "tanh", (u,)))),
            "sec": ("bin", "*", ("call", "sec", (u,)), ("call", "tan", (u,))),
        }
        if name in ("floor", "ceil", "round", "trunc", "fix", "sign"):
            return ("num", 0.0)
        if name not in outer:
            raise FormulaError(f"cannot differentiate {name}")
        return ("bin", "*", outer[name], du)

    return d(tree)
