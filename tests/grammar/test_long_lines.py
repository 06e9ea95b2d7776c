"""Long chained lines: a verb carried over several names, as many requests as run at once, and
lines past that, read the same way however long the line is."""

from __future__ import annotations

from napari_talk.core.contract.registry import default_registry
from napari_talk.core.grammar.parser import MAX_COMMANDS, Parser, parse

LAYERS = {"layers": ["nuclei", "cell boundaries", "actin", "GFP", "Labels", "spots", "salt and pepper"]}


def wire(text):
    return [c.to_wire() for c in parse(text, LAYERS)]


def test_a_verb_carries_over_a_list_and_the_request_after_it_is_its_own():
    assert wire("hide nuclei, actin and GFP, then show spots") == [
        {"action": "layer_visibility", "name": n, "op": "hide"} for n in ("nuclei", "actin", "GFP")
    ] + [{"action": "layer_visibility", "name": "spots", "op": "show"}]


def test_a_carried_verb_keeps_a_name_that_holds_and():
    assert wire("hide actin and salt and pepper") == [
        {"action": "layer_visibility", "name": "actin", "op": "hide"},
        {"action": "layer_visibility", "name": "salt and pepper", "op": "hide"},
    ]


def test_a_pronoun_after_a_carried_verb_names_the_last_thing_carried():
    assert wire("hide nuclei and actin, then make it 30% opaque") == [
        {"action": "layer_visibility", "name": "nuclei", "op": "hide"},
        {"action": "layer_visibility", "name": "actin", "op": "hide"},
        {"action": "layer_opacity", "name": "actin", "opacity": 0.3},
    ]


REQUESTS = [
    ("hide the nuclei", {"action": "layer_visibility", "name": "nuclei", "op": "hide"}),
    ("make actin magenta", {"action": "layer_colormap", "name": "actin", "colormap": "magenta"}),
    ("set the opacity of GFP to 20%", {"action": "layer_opacity", "name": "GFP", "opacity": 0.2}),
    ("show the spots", {"action": "layer_visibility", "name": "spots", "op": "show"}),
]


def test_as_many_requests_as_run_at_once_are_read_in_order_whatever_joins_them():
    joins = [" and ", ", then ", "; ", " then "]
    said = [REQUESTS[i % len(REQUESTS)] for i in range(MAX_COMMANDS)]
    line = "".join(text + (joins[i % 4] if i < len(said) - 1 else "") for i, (text, _) in enumerate(said))
    assert wire(line) == [expected for _, expected in said]


def test_a_line_asking_for_more_than_run_at_once_is_not_read_and_says_why():
    said = [REQUESTS[i % len(REQUESTS)][0] for i in range(20)]
    line = " and then ".join(said)
    assert wire(line) == []
    explained = Parser(default_registry()).explain(line, LAYERS)
    assert explained is not None and str(MAX_COMMANDS) in explained
