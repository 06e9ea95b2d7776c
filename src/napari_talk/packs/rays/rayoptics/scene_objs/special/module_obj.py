# SPDX-License-Identifier: Apache-2.0
# SPDX-FileCopyrightText: 2024 The Ray Optics Simulation authors and contributors
# SPDX-FileCopyrightText: 2026 napari-talk contributors
#
# Translated from ray-optics (https://github.com/ricktu288/ray-optics, by Yi-Ting Tu and contributors):
# src/core/sceneObjs/special/ModuleObj.js.
# Licensed under the Apache License, Version 2.0 (see LICENSES/Apache-2.0.txt); modified: translated to
# Python and changed for napari-talk (2026).
"""``ModuleObj``: a parametrised group of objects defined in the scene's ``modules``.

A module definition has ``numPoints`` control points (``x_1``, ``y_1``, ...), ``params``
(``"name=start:step:end[:default]"``), ``vars`` (math.js assignments and one-line functions) and
``objs``: object templates whose strings hold math.js between backticks (``"`x_1 + d`"`` is a
number) or an equation between double backticks (``"``x_1 + t``"`` is a formula in ``t`` with the
parameters filled in). A template with ``for`` (``"i=0:1:n"``, or a list of them) repeats; ``if``
keeps it only where true. Loops are bounded by ``maxLoopLength`` (default 1000). ``random()``
draws from the scene's seeded generator, in the order ray-optics draws: objects in file order,
each template's keys in order, loops with the first variable slowest.

A short module can stand for a great many objects (loops inside loops, modules of modules), so
the expansion is paid from an :class:`ExpansionBudget` shared by every module of a scene: each
loop pays for what it will build (its runs times its template's values) before building it.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from typing import Any

from ....limits import MAX_LOOP as DEFAULT_MAX_LOOP
from ....limits import MAX_LOOP_CEILING, MAX_MODULE_VALUES
from ...formula import Formula, FormulaError, Node, UserFunction, compile_tree, free_variables, parse
from ...formula.nodes import Num, Var, with_operands

_FUNC_DEF = re.compile(r"^\s*(\w+)\s*\(\s*([^)]+)\s*\)\s*=\s*(.+)$")
_ASSIGN = re.compile(r"^\s*([A-Za-z]\w*)\s*=(?!=)\s*(.+)$")


class ModuleError(ValueError):
    """A module that cannot be expanded; the message names the module and the reason."""


class ExpansionTooLarge(ModuleError):
    """The scene's modules would expand past their budget: the scene is refused, not trimmed."""


class ExpansionBudget:
    """The values (objects, points, numbers, texts) a scene's modules may still expand to."""

    def __init__(self, limit: int = MAX_MODULE_VALUES) -> None:
        self.limit = limit
        self.spent = 0

    def pay(self, values: int, name: str) -> None:
        self.spent += values
        if self.spent > self.limit:
            raise ExpansionTooLarge(
                f"module {name!r}: the scene's modules expand to more than {self.limit:,} values "
                "(loops inside loops, or modules of modules)"
            )


def template_size(value: Any) -> int:
    """The values a template holds (itself included), counted without recursion."""
    count, stack = 0, [value]
    while stack:
        item = stack.pop()
        count += 1
        if isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return count


class _Scope:
    def __init__(
        self,
        values: dict[str, float],
        functions: dict[str, UserFunction],
        random: Callable[[], float] | None = None,
        budget: ExpansionBudget | None = None,
    ) -> None:
        self.values = values
        self.functions = functions
        self.random = random
        self.budget = budget or ExpansionBudget()
        self._compiled: dict[str, Callable[[dict[str, float]], float]] = {}
        """Formulas compiled so far, by text (forgotten when a function is defined)."""

    def evaluate(self, text: str, values: dict[str, float] | None = None) -> float:
        compiled = self._compiled.get(text)  # a loop evaluates the same text at every run
        if compiled is None:
            tree = parse(text, functions=self.functions).tree
            compiled = self._compiled[text] = compile_tree(tree, self.random)
        return compiled(values if values is not None else self.values)

    def equation(self, text: str, values: dict[str, float]) -> Formula:
        """An equation with the module's numbers substituted, its free names left for the object."""
        formula = parse(text, functions=self.functions)

        def fill(node: Node) -> Node:
            if isinstance(node, Var) and node.name in values and isinstance(values[node.name], float):
                return Num(values[node.name])
            return with_operands(node, fill)

        tree = fill(formula.tree)
        return Formula(text, tree, tuple(sorted(free_variables(tree))))


def _range(text: str, scope: _Scope, values: dict[str, float]) -> tuple[str, float, float, float, float]:
    name, _, spec = text.partition("=")
    parts = spec.split(":")
    if not name.strip() or len(parts) not in (3, 4):
        raise ModuleError(f"{text!r} is not 'name=start:step:end[:default]'")
    start, step, end = (scope.evaluate(p, values) for p in parts[:3])
    default = scope.evaluate(parts[3], values) if len(parts) == 4 else start
    return name.strip(), start, step, end, default


def expand_module(
    obj: dict[str, Any],
    modules: dict[str, Any],
    random: Callable[[], float] | None = None,
    budget: ExpansionBudget | None = None,
) -> list[dict[str, Any]]:
    """The plain object dicts a ``ModuleObj`` stands for; ``random`` is the scene's generator,
    ``budget`` what the scene's modules may still expand to (a fresh one when not given)."""
    name = obj.get("module")
    definition = modules.get(name) if isinstance(name, str) and isinstance(modules, dict) else None
    if not isinstance(definition, dict):
        raise ModuleError(f"module {name!r} is not defined in the scene's modules")
    max_loop = definition.get("maxLoopLength") or DEFAULT_MAX_LOOP
    numeric = isinstance(max_loop, (int, float)) and not isinstance(max_loop, bool)
    if not numeric or not 0 < max_loop <= MAX_LOOP_CEILING:
        raise ModuleError(
            f"module {name!r}: maxLoopLength {max_loop!r} is not a number up to {MAX_LOOP_CEILING}"
        )
    try:
        return _expand(obj, definition, str(name), int(max_loop), random, budget or ExpansionBudget())
    except (ModuleError, FormulaError):
        raise
    except (ValueError, TypeError, ArithmeticError, AttributeError) as exc:
        raise ModuleError(f"module {name!r}: {exc}") from None


def _expand(
    obj: dict[str, Any],
    definition: dict[str, Any],
    name: str,
    max_loop: int,
    random: Callable[[], float] | None,
    budget: ExpansionBudget,
) -> list[dict[str, Any]]:
    scope = _Scope({}, {}, random, budget)
    params = obj.get("params")
    values: dict[str, float] = {}
    if isinstance(params, dict):
        for key, value in params.items():
            values[str(key)] = float(value) if isinstance(value, (int, float)) else scope.evaluate(str(value))
    else:
        for spec in definition.get("params") or []:
            pname, _, _, _, default = _range(str(spec), scope, {})
            values[pname] = default
    points = obj.get("points") or []
    if not isinstance(points, list):
        raise ModuleError(f"module {name!r}: points must be a list")
    for i, point in enumerate(points, 1):
        if not isinstance(point, dict):
            raise ModuleError(f"module {name!r}: point {i} is not {{x, y}}")
        for axis in ("x", "y"):
            value = point.get(axis, 0)
            try:
                values[f"{axis}_{i}"] = float(value)
            except (TypeError, ValueError):
                raise ModuleError(
                    f"module {name!r}: point {i}'s {axis} should be a number, not {str(value)[:40]!r}"
                ) from None
    for spec in definition.get("vars") or []:
        text = str(spec)
        if m := _FUNC_DEF.match(text):
            fname, args, body = m.groups()
            arg_names = tuple(a.strip() for a in args.split(","))
            scope.functions[fname] = (arg_names, parse(body, functions=scope.functions).tree)
            scope._compiled.clear()
        elif m := _ASSIGN.match(text):
            values[m.group(1)] = scope.evaluate(m.group(2), values)
        else:
            scope.evaluate(text, values)
    scope.values = values
    templates = definition.get("objs") or []
    if not isinstance(templates, list):
        raise ModuleError(f"module {name!r}: objs must be a list")
    expanded = _expand_list(templates, values, scope, max_loop, name)
    return [o for o in expanded if isinstance(o, dict)]


def _expand_list(
    items: list[Any], values: dict[str, float], scope: _Scope, max_loop: int, name: str
) -> list[Any]:
    out: list[Any] = []
    for item in items:
        if isinstance(item, dict) and "for" in item:
            specs = item["for"] if isinstance(item["for"], list) else [item["for"]]
            runs = _loop(specs, values, scope, max_loop, name)
            scope.budget.pay(len(runs) * template_size(item), name)  # before building any of them
            for loop_values in runs:
                if "if" in item and not scope.evaluate(str(item["if"]), loop_values):
                    continue
                out.append(_expand_dict(item, loop_values, scope, max_loop, name))
        elif isinstance(item, dict) and "if" in item:
            if scope.evaluate(str(item["if"]), values):
                scope.budget.pay(template_size(item), name)
                out.append(_expand_dict(item, values, scope, max_loop, name))
        else:
            scope.budget.pay(template_size(item), name)
            out.append(_expand_value(item, values, scope, max_loop, name))
    return out


def _loop(
    specs: list[Any], values: dict[str, float], scope: _Scope, max_loop: int, name: str
) -> list[dict[str, float]]:
    combos = [values]
    ranges = [_range(str(s), scope, values) for s in specs]
    result: list[dict[str, float]] = [dict(values)]
    for var, start, step, end, _ in reversed(ranges):
        if step == 0 or (end - start) * step < 0:
            raise ModuleError(f"module {name!r}: the loop over {var} never ends")
        if (end - start) / step + 1 > max_loop:
            raise ModuleError(f"module {name!r}: the loop over {var} runs more than {max_loop} times")
        combos = []
        value = start
        while (value <= end) if step > 0 else (value >= end):
            for inner in result:
                combos.append({**inner, var: value})
                if len(combos) > max_loop:
                    raise ModuleError(f"module {name!r}: loops make more than {max_loop} objects")
            value += step
        result = combos
    # ray-optics varies the first loop variable slowest
    return result


def _expand_dict(
    obj: dict[str, Any], values: dict[str, float], scope: _Scope, max_loop: int, name: str
) -> dict[str, Any]:
    return {
        k: _expand_value(v, values, scope, max_loop, name) for k, v in obj.items() if k not in ("for", "if")
    }


def _expand_value(value: Any, values: dict[str, float], scope: _Scope, max_loop: int, name: str) -> Any:
    if isinstance(value, str):
        return _expand_string(value, values, scope, name)
    if isinstance(value, list):
        return _expand_list(value, values, scope, max_loop, name)
    if isinstance(value, dict):
        return _expand_dict(value, values, scope, max_loop, name)
    return value


def _expand_string(text: str, values: dict[str, float], scope: _Scope, name: str) -> Any:
    parts = text.split("`")
    try:
        if (len(parts) == 3 and parts[0] == "" and parts[2] == "") or (len(parts) == 2 and parts[0] == ""):
            return scope.evaluate(parts[1], values)
        if len(parts) == 5 and parts[0] == parts[1] == parts[3] == parts[4] == "":
            return scope.equation(parts[2], values)
        if len(parts) == 1:
            return text
        result = []
        for i, part in enumerate(parts):
            if i % 2 == 0:
                result.append(part)
            elif part == "":
                raise ModuleError(
                    f"module {name!r}: an equation inside other text is not supported: {text[:60]!r}"
                )
            else:
                result.append(_js_text(scope.evaluate(part, values)))
        return "".join(result)
    except FormulaError as exc:
        raise ModuleError(f"module {name!r}: {exc} in {text[:80]!r}") from None


def _js_text(value: float) -> str:
    """A number as JavaScript writes it into text (``Infinity``, ``NaN``, ``3``, ``0.5``)."""
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "Infinity" if value > 0 else "-Infinity"
    return str(int(value)) if value == int(value) else repr(value)
