"""Splitting a formula's text into tokens: numbers, names, operators and the LaTeX commands the
parser reads (``\\frac``, ``\\sqrt``), with LaTeX's spellings mapped to math.js's (``\\cdot`` is
``*``, ``\\arcsin`` is ``asin``) and its juxtaposed one-letter symbols split (``xy`` is x·y)."""

from __future__ import annotations

import re

from .functions import CONSTANTS, FUNCTIONS
from .nodes import FormulaError

Token = tuple[str, str]
"""``(kind, value)``: kind ``num``, ``name``, ``op`` or ``cmd``."""

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


def tokenize(text: str, *, latex: bool, known: frozenset[str] | None) -> list[Token]:
    """The tokens of ``text``: ``(kind, value)`` with kind ``num``, ``name``, ``op`` or ``cmd``
    (``frac``, ``sqrt``); LaTeX spacing, ``\\left``/``\\right`` and the like are dropped."""
    if latex:
        text = _INVERSE_HYPERBOLIC.sub(lambda m: f"\\a{m.group(1)} ", text)
    out: list[Token] = []
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
            if latex:
                out.extend(("name", part) for part in _split_latex_name(value, known))
                continue
        if kind == "op" and value in "{}":
            value = "(" if value == "{" else ")"
        out.append((kind, value))
    return out


def _split_latex_name(name: str, known: frozenset[str] | None) -> list[str]:
    """LaTeX juxtaposes one-letter symbols: ``xy`` is x·y unless ``xy`` is a known name."""
    base, _, sub = name.partition("_")
    if (
        base in FUNCTIONS
        or base in CONSTANTS
        or base in _GREEK
        or len(base) == 1
        or (known is not None and name in known)
    ):
        return [name]
    letters = list(base)
    if sub:
        letters[-1] += "_" + sub
    return letters
