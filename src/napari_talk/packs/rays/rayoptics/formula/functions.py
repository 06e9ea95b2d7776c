"""What a formula may call, and JavaScript's arithmetic: the whitelist of functions and constants
the parser knows (every function wrapped so a domain error gives NaN and an overflow an infinity,
never an exception), and the binary operators as math.js computes them (a division by zero gives an
infinity or NaN, ``%`` takes the sign of the divisor)."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

RANDOM = "random"
"""The one function whose value comes from the caller: the scene's seeded generator."""


def js_div(a: float, b: float) -> float:
    if b == 0:
        if a == 0 or a != a:
            return math.nan
        return math.copysign(math.inf, a) * (math.copysign(1.0, b))
    return a / b


def js_pow(a: float, b: float) -> float:
    try:
        r = a**b
    except ZeroDivisionError:
        return math.inf
    except OverflowError:
        return math.inf
    return math.nan if isinstance(r, complex) else float(r)


def js_mod(a: float, b: float) -> float:
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
    "pow": js_pow,
    "mod": js_mod,
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

BINARY: dict[str, Callable[[float, float], float]] = {
    "+": lambda a, b: a + b,
    "-": lambda a, b: a - b,
    "*": lambda a, b: a * b,
    "/": js_div,
    "^": js_pow,
    "%": js_mod,
    "<": lambda a, b: float(a < b),
    ">": lambda a, b: float(a > b),
    "<=": lambda a, b: float(a <= b),
    ">=": lambda a, b: float(a >= b),
    "==": lambda a, b: float(a == b),
    "!=": lambda a, b: float(a != b),
    "and": lambda a, b: float(bool(a) and bool(b)),
    "or": lambda a, b: float(bool(a) or bool(b)),
}
