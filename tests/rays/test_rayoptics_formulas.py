"""Formulas from scene files are parsed by the project's own parser over a whitelist: they compute
what math.js and LaTeX mean, and anything else is refused, bounded in size, never executed."""

from __future__ import annotations

import math

import pytest

from napari_talk.packs.rays.rayoptics.formula import MAX_CHARS, FormulaError, compile_tree, derivative, parse
from napari_talk.packs.rays.rayoptics.rng import SeededRandom
from napari_talk.packs.rays.rayoptics.scene_objs.special.module_obj import ModuleError, expand_module


@pytest.mark.parametrize(
    "text, latex, scope, value",
    [
        ("1.5+\\frac{0.2}{\\left(0.001\\lambda\\right)^2}", True, {"lambda": 500}, 1.5 + 0.2 / 0.25),
        ("\\operatorname{abs}\\left(0.001y\\right)", True, {"y": -3}, 0.003),
        ("\\sqrt{1-x^2}", True, {"x": 0.6}, 0.8),
        ("t\\cdot\\frac{\\pi}{2}", True, {"t": 1}, math.pi / 2),
        ("\\pi-\\theta_0", True, {"theta_0": 1}, math.pi - 1),
        ("n_{0}+P_0", True, {"n_0": 1, "P_0": 2}, 3),
        ("x^23", True, {"x": 2}, 12),
        (
            "brightness/((max-min)/step)",
            False,
            {"brightness": 50, "max": 700, "min": 380, "step": 10},
            50 / 32,
        ),
        ("2x^2 - -1", False, {"x": 3}, 19),
        ("-2^2", False, {}, -4),
        ("sqrt(-1)", False, {}, math.nan),
        ("1/0", False, {}, math.inf),
        ("7 mod 3 + (2 > 1 ? 10 : 20)", False, {}, 11),
    ],
)
def test_formulas_compute_what_they_mean(text, latex, scope, value):
    got = parse(text, latex=latex).evaluate(scope)
    if math.isnan(value):
        assert math.isnan(got)
    else:
        assert got == pytest.approx(value)


@pytest.mark.parametrize(
    "text",
    [
        "__import__('os').system('true')",
        "().__class__.__bases__[0]",
        "x.real",
        "open('/etc/passwd')",
        "lambda: 1",
        "x; y",
        "exec(1)",
    ],
)
def test_anything_but_arithmetic_is_refused(text):
    with pytest.raises(FormulaError):
        formula = parse(text)
        formula.evaluate({"x": 1, "y": 2})


def test_size_and_nesting_are_bounded():
    with pytest.raises(FormulaError, match="longer"):
        parse("1+" * MAX_CHARS + "1")
    with pytest.raises(FormulaError, match="deeper"):
        parse("(" * 200 + "1" + ")" * 200)


def test_module_functions_that_recurse_or_explode_are_refused():
    recursive = {
        "numPoints": 0,
        "params": [],
        "vars": ["f(x) = f(x) + 1"],
        "objs": [{"type": "Blocker", "p1": {"x": "`f(1)`", "y": 0}, "p2": {"x": 1, "y": 1}}],
    }
    with pytest.raises((ModuleError, FormulaError)):
        expand_module({"module": "M", "params": {}, "points": []}, {"M": recursive})
    doubling = ["f0(x) = x + x"] + [f"f{i}(x) = f{i - 1}(x) * f{i - 1}(x)" for i in range(1, 40)]
    explode = {
        "numPoints": 0,
        "params": [],
        "vars": doubling,
        "objs": [{"type": "Blocker", "p1": {"x": "`f39(1)`", "y": 0}, "p2": {"x": 1, "y": 1}}],
    }
    with pytest.raises((ModuleError, FormulaError)):
        expand_module({"module": "M", "params": {}, "points": []}, {"M": explode})


def test_symbolic_derivative_matches_finite_differences():
    tree = parse(
        "\\left(1.1+0.1\\cdot\\cos\\left(0.1\\cdot y\\right)\\right)e^{-\\frac{x^2}{50}}", latex=True
    ).tree
    f = compile_tree(tree)
    for var in ("x", "y"):
        d = compile_tree(derivative(tree, var))
        at = {"x": 3.0, "y": 7.0}
        h = 1e-6
        plus, minus = dict(at), dict(at)
        plus[var] += h
        minus[var] -= h
        assert d(at) == pytest.approx((f(plus) - f(minus)) / (2 * h), rel=1e-6)


def test_module_expansion_fills_loops_and_equations():
    definition = {
        "numPoints": 1,
        "params": ["n=1:1:5:3"],
        "vars": ["w = 2*n"],
        "objs": [
            {
                "for": "i=1:1:n",
                "type": "Blocker",
                "p1": {"x": "`x_1 + i*w`", "y": "`y_1`"},
                "p2": {"x": 0, "y": "``x_1 + t``"},
            }
        ],
    }
    objs = expand_module({"module": "M", "points": [{"x": 10, "y": 20}]}, {"M": definition})
    assert [o["p1"]["x"] for o in objs] == [16, 22, 28]
    assert objs[0]["p2"]["y"].evaluate({"t": 1}) == 11


def test_seeded_random_is_the_generator_ray_optics_uses():
    # seedrandom('hello.') starts with 0.9282578795792454 (its documented example)
    assert SeededRandom("hello.")() == 0.9282578795792454
    a, b = SeededRandom("0"), SeededRandom("0")
    assert [a() for _ in range(5)] == [b() for _ in range(5)]
