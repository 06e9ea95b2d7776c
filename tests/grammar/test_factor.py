"""Factored patterns: a long rule compiles small and reads every line as its plain alternation does."""

from __future__ import annotations

import copy
import itertools
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from napari_talk.core.contract.registry import default_registry
from napari_talk.core.rules import factor
from napari_talk.core.rules import rule as rules
from napari_talk.core.rules.lookup import known
from napari_talk.packs.rays.grammar import RULES as RAY_RULES


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        (r"ab?c", ("a", "b?", "c")),
        (r"\s+edge", (r"\s+", "e", "d", "g", "e")),
        (r"[]\]x]*?(?:a|(?:b))+y{3}", (r"[]\]x]*?", "(?:a|(?:b))+", "y{3}")),
        (r"(?P<g>[(\[]?\s*\d)(?![\d.])", (r"(?P<g>[(\[]?\s*\d)", r"(?![\d.])")),
        (r"\x41\(", (r"\x41", r"\(")),
    ],
)
def test_a_regex_is_cut_into_its_top_level_items(source, expected):
    assert factor.items(source) == expected


@pytest.mark.parametrize("source", [r"a|b", r"(a)\1", r"(?P<x>a)(?P=x)", r"(?i)abc", r"(a"])
def test_a_regex_whose_items_would_not_mean_the_same_is_not_cut(source):
    assert factor.items(source) is None


ITEMS = st.sampled_from(["a", "b", "b?", "(?:a|c)", "c*", r"\s", "(?:ab)?", "[bc]"])


@settings(max_examples=150, deadline=None)
@given(st.lists(st.lists(ITEMS, max_size=5).map(tuple), min_size=1, max_size=6))
def test_the_union_matches_exactly_what_the_alternation_matches(sequences):
    union = re.compile(factor.union(sequences))
    alternation = re.compile("|".join(f"(?:{''.join(s)})" for s in sequences))
    for length in range(6):
        for text in map("".join, itertools.product("abc ", repeat=length)):
            assert bool(union.fullmatch(text)) == bool(alternation.fullmatch(text)), text


def test_runs_gather_the_variants_of_one_sentence():
    first = [factor.items(rf"rays at \d+ degrees to edge {edge}") for edge in "NESW"]
    second = [factor.items(rf"segments? crossing {edge} at [0-9]+") for edge in "NE"]
    assert factor.runs([*first, *second], 16) == [(0, 4), (4, 6)]
    assert factor.runs([*first, *second], 3) == [(0, 3), (3, 4), (4, 6)]
    assert factor.runs([first[0], None, first[1]], 16) == [(0, 1), (1, 2), (2, 3)]


def test_every_pass_of_the_installed_grammar_stays_small():
    for rule in default_registry().rules:
        for generic in (False, True) if rule.name_kinds and rule.free_names else (bool(rule.name_kinds),):
            assert len(rule._pass(generic).source) <= rules.MAX_PATTERN, rule.action


LINES = [
    ("rays that hit edge N at under 20 degrees", {"glasses": ["Main Prism"]}),
    ("rays at 10 to 40 degrees to edge 2 of Lens 2", {"glasses": ["Main Prism", "Lens 2"]}),
    ("rays hitting edge S of Slab 1 at more than 60 degrees", {"glasses": ["Prism", "Slab 1"]}),
    ("find the light at under twenty degrees to the normal of the west edge", {"glasses": ["normal", "L"]}),
    ("find all the light rays by angle to the N edge from 1 to 2 deg", {}),
    ("rays hitting the the N edge at 10 to 20°", {}),
    ("show rays between 30 and 60 deg from the north edge of prism", {"glasses": ["Prism", "Slab"]}),
    ("rays crossing edge N of Prism", {"glasses": ["Prism"]}),
]


@pytest.fixture
def angle_rules(monkeypatch):
    """The rays' angle-to-edge rule (84 templates) factored, and a copy compiled as one alternation."""
    factored = next(r for r in RAY_RULES if r.action == "find_rays_by_angle_to_edge")
    plain = copy.copy(factored)
    plain._passes = {}
    with monkeypatch.context() as patched:
        patched.setattr(rules, "MAX_PATTERN", 10**9)
        for generic in (False, True):
            assert len(plain._pass(generic).branches) == len(plain.templates)
    return factored, plain


def test_a_factored_rule_reads_each_line_as_its_plain_alternation(angle_rules):
    factored, plain = angle_rules
    for generic in (False, True):
        assert len(factored._pass(generic).branches) < len(factored.templates) / 8
        assert len(factored._pass(generic).source) < len(plain._pass(generic).source) / 5
    readings = []
    for text, context in LINES:
        names = {kind: known(values) for kind, values in context.items()}
        readings.append(factored.match(text, names))
        assert readings[-1] == plain.match(text, names), text
    assert readings[0] == {
        "action": "find_rays_by_angle_to_edge",
        "glass_name": "Main Prism",
        "edge_label": "N",
        "max_angle": 20.0,
    }
    assert readings[3] is not None and readings[3]["edge_label"] == "W"  # a later template's reading
    assert readings[-1] is None
