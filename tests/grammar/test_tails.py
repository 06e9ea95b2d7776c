"""Options said after a request, and where a free-text slot ends (core/grammar/tails.py, tokens.py)."""

from __future__ import annotations

import pytest

from napari_talk.core.contract.registry import default_registry
from napari_talk.core.grammar.parser import parse

CONTEXT = {
    "layers": ["nuclei", "actin", "GFP", "sky mask", "terrain"],
    "entities": ["Eigensage", "Ashen Moth"],
}


def wire(text: str) -> list[dict]:
    return [c.to_wire() for c in parse(text, CONTEXT)]


@pytest.mark.parametrize(
    ("text", "count"),
    [
        ("search for 'orbit' and only show the first 3 hits", 3),
        ("grep 'orbit', top 7 results", 7),
        ("find 'orbit' and stop after two matches", 2),
        ("search 'orbit' then limit it to 12 results", 12),
        ("search for 'orbit' and give me at most four hits", 4),
    ],
)
def test_a_count_said_after_a_search_limits_it_and_leaves_the_query_alone(text, count):
    assert wire(text) == [{"action": "search_code", "query": "orbit", "max_results": count}]


def test_a_folder_and_a_count_after_a_quoted_query_are_both_options():
    assert wire("search for 'orbit' in notes and return no more than 6 matches") == [
        {"action": "search_code", "query": "orbit", "directory": "notes", "max_results": 6}
    ]


def test_a_count_beyond_the_fields_limit_is_not_understood_rather_than_cut():
    # max_results has an upper bound: the tail fails validation, and the query never takes the words
    for command in wire("search for 'orbit' and show the first 100000 hits"):
        assert command.get("query") == "orbit" or command["action"] != "search_code"
        assert "hits" not in str(command.get("query", ""))


def test_the_count_goes_to_the_field_the_command_names():
    assert wire("find entities like Eigensage, top 3 results") == [
        {"action": "find_similar", "query": "Eigensage", "limit": 3}
    ]


def test_a_command_that_takes_no_count_keeps_its_plain_reading():
    # zoom has no count tail: "3 results" is not peeled off into a field it does not have
    commands = wire("zoom to 3 results")
    assert all("max_results" not in c and "limit" not in c for c in commands)


@pytest.mark.parametrize(
    ("text", "fields"),
    [
        (
            "add GFP to the catalogue as Blue Seer, domain The Lattice, type Oracle",
            {"name": "Blue Seer", "layer": "GFP", "domain": "The Lattice", "type": "Oracle"},
        ),
        (
            "add GFP to the catalogue as Blue Seer, class Wanderer",
            {"name": "Blue Seer", "layer": "GFP", "class_name": "Wanderer"},
        ),
    ],
)
def test_labelled_options_after_a_free_name_fill_their_fields(text, fields):
    assert wire(text) == [{"action": "add_to_catalogue", **fields}]


def test_a_label_with_the_before_it_is_an_option_too():
    assert wire("write a description for Ashen Moth in the domain Verdant Archive") == [
        {"action": "generate_description", "name": "Ashen Moth", "domain": "Verdant Archive"}
    ]


def test_every_tail_names_a_field_of_its_command():
    for action, cls in default_registry().commands.items():
        for kind, field in cls.tails.items():
            assert field in cls.model_fields, f"{action}: tail {kind!r} names no field {field!r}"


def test_a_quoted_value_ends_at_its_closing_quote():
    # the rest of the line is read as its own request or not at all, never as part of the query
    for command in wire("search for 'orbit' and hide actin"):
        assert command.get("query") in (None, "orbit")
    assert {"action": "layer_visibility", "name": "actin", "op": "hide"} in wire(
        "search for 'orbit' and hide actin"
    )


@pytest.mark.parametrize(
    "text",
    [
        "turn off everything except actin",
        "switch off all layers but actin",
        "hide everything apart from actin",
        "disable all the layers other than actin",
    ],
)
def test_hiding_everything_except_a_layer_shows_that_layer_alone(text):
    assert wire(text) == [{"action": "solo_layer", "name": "actin"}]


def test_names_joined_after_except_are_shown_not_hidden():
    assert wire("hide all layers except actin and GFP") == [
        {"action": "solo_layer", "name": "actin"},
        {"action": "layer_visibility", "name": "GFP", "op": "show"},
    ]


def test_the_is_never_a_name_alone_even_with_an_entity_called_the_something():
    # "The Shallows" may be said as "shallows", never as "the", which stands before every name
    context = {"entities": ["The Shallows"], "scene_objects": ["Mirror 1"]}
    assert [c.to_wire() for c in parse("refractive index for the Mirror 1", context)] == [
        {"action": "describe_scene_object", "name": "Mirror 1", "what": "index"}
    ]
