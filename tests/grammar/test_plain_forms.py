"""General forms of asking said again as the plain request (a wish for a done state, "should",
a request named by its noun, "break X up", "just A, hide the rest", "minus", fractions in words,
a name followed by what it is), each proven with lines of several packs that no set holds."""

from __future__ import annotations

import pytest

from napari_talk.core.grammar.parser import parse
from napari_talk.core.grammar.plain_forms import plain_forms, says_a_wish

SCENE = {
    "layers": ["GFP", "membrane dye", "phase contrast", "tracked cells"],
    "segments": ["wheel", "mast", "chassis"],
    "entities": ["Dune Walker", "Saltmaw"],
    "glasses": ["Crown Glass", "Water Tank"],
    "scene_objects": ["Crown Glass", "Water Tank", "Lamp 1"],
}


def wire(text):
    return [c.to_wire() for c in parse(text, SCENE)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "I'd like the GFP layer renamed to green cells",
            {"action": "rename_layer", "name": "GFP", "new_name": "green cells"},
        ),
        ("could I get the scene saved to scenes/b.json", {"action": "save_scene", "path": "scenes/b.json"}),
        (
            "I want the tracked cells shown",
            {"action": "layer_visibility", "name": "tracked cells", "op": "show"},
        ),
    ],
)
def test_a_wish_for_a_thing_in_a_done_state_is_the_request_that_does_it(text, expected):
    assert wire(text) == [expected]


def test_a_done_state_without_a_wish_is_news_not_a_request():
    assert says_a_wish("the scene saved fine") is False
    assert wire("the scene saved to scenes/b.json") == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("the membrane dye should be cyan", {"action": "layer_colormap", "name": "membrane dye",
                                             "colormap": "cyan"}),
        ("the crown glass should have an index of 1.6", {"action": "set_refractive_index",
                                                         "name": "Crown Glass", "index": 1.6}),
        ("the GFP layer should have an opacity of 40%", {"action": "layer_opacity", "name": "GFP",
                                                         "opacity": 0.4}),
    ],
)  # fmt: skip
def test_what_a_thing_should_be_or_have_is_a_request(text, expected):
    assert wire(text) == [expected]


@pytest.mark.parametrize(
    "text",
    ["it should be fine", "the model should be fine", "the model should be done soon", "that should be it"],
)
def test_how_a_thing_should_turn_out_is_a_remark(text):
    assert wire(text) == []


@pytest.mark.parametrize(
    "text", ["kick off a segmentation of the buggy", "break the buggy up into pieces", "segment the buggy"]
)
def test_a_request_named_by_its_noun_or_broken_up_is_the_verb(text):
    assert wire(text) == [{"action": "request_segmentation"}]


def test_a_noun_the_grammar_has_no_verb_for_stays_as_typed():
    assert plain_forms("run the marathon on sunday") == "run the marathon on sunday"


def test_one_thing_kept_and_the_rest_hidden_is_only_that_thing():
    assert wire("only the membrane dye, lose the others") == [
        {"action": "solo_layer", "name": "membrane dye"}
    ]


def test_minus_and_fractions_in_words_are_numbers():
    assert wire("center on minus 5, 10") == [{"action": "center_on", "point": [-5, 10]}]
    assert wire("pan down by three tenths of the screen") == [
        {"action": "pan", "direction": "down", "fraction": 0.3}
    ]


def test_a_name_followed_by_what_it_is_is_the_name_and_its_kind_or_not_read():
    assert wire("write a blurb about Dune Walker, a Nomad") == [
        {"action": "generate_description", "name": "Dune Walker", "class_name": "Nomad"}
    ]
    assert wire("rename GFP to Cells, a test") == []


@pytest.mark.parametrize("text", ["fire the model out as a glb", "kick that out as a glb"])
def test_a_thing_sent_out_as_a_format_is_exported(text):
    assert [c["action"] for c in wire(text)] == ["export_final_model"]


def test_readings_for_a_named_detector_are_its_readings():
    scene = {"scene_objects": ["Slit Detector", "Lamp 1"]}
    got = [c.to_wire() for c in parse("measurements from the Slit Detector in a table", scene)]
    assert got == [{"action": "detector_readings", "name": "Slit Detector", "table": True}]
