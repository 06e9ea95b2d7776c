"""A pronoun in a chained line stands for what the request before it named, in that request's
words ("segment 2"), through "its" too; a reading that would take it for something else is not
made (a wrong action is worse than none)."""

from __future__ import annotations

import pytest

from napari_talk.core.grammar.parser import parse

SCENE = {
    "layers": ["GFP", "membrane dye", "phase contrast", "tracked cells"],
    "segments": ["wheel", "mast", "chassis", "antenna"],
    "entities": ["Dune Walker", "Saltmaw"],
}


def wire(text):
    return [c.to_wire() for c in parse(text, SCENE)]


def test_it_after_a_counted_thing_is_that_thing_said_as_it_was():
    assert wire("paint part 3 in copper, then isolate it") == [
        {"action": "apply_material", "material_description": "copper", "segment_id": "3"},
        {"action": "isolate_segment", "segment_id": "3"},
    ]


def test_it_after_a_named_part_is_that_part():
    got = wire("make the mast matte black and then isolate it")
    assert got[-1] == {"action": "isolate_segment", "segment_id": "mast"}


def test_its_field_is_the_field_of_the_thing_named_before():
    assert wire("colour the membrane dye cyan and lower its gamma to 0.7") == [
        {"action": "layer_colormap", "name": "membrane dye", "colormap": "cyan"},
        {"action": "layer_gamma", "name": "membrane dye", "gamma": 0.7},
    ]


@pytest.mark.parametrize(
    ("text", "field", "value"),
    [
        ("push the opacity of phase contrast to 35%", "opacity", 0.35),
        ("pull down the gamma of GFP to 0.5", "gamma", 0.5),
        ("crank up the opacity of tracked cells to 100 percent", "opacity", 1.0),
    ],
)
def test_a_change_said_with_the_value_it_ends_at_sets_that_value(text, field, value):
    (command,) = wire(text)
    assert command[field] == pytest.approx(value)


def test_a_pronoun_two_requests_on_stands_for_the_request_just_before_it():
    assert wire("hide GFP and phase contrast, then make it 30% opaque") == [
        {"action": "layer_visibility", "name": "GFP", "op": "hide"},
        {"action": "layer_visibility", "name": "phase contrast", "op": "hide"},
        {"action": "layer_opacity", "name": "phase contrast", "opacity": 0.3},
    ]


def test_it_as_the_current_thing_stands_when_the_request_names_nothing_of_that_kind():
    assert [c["action"] for c in wire("import meshes/buggy.glb and segment it")] == [
        "import_model",
        "request_segmentation",
    ]


def test_a_trailing_too_or_as_well_is_no_part_of_the_request():
    assert wire("hide GFP and the tracked cells as well") == [
        {"action": "layer_visibility", "name": "GFP", "op": "hide"},
        {"action": "layer_visibility", "name": "tracked cells", "op": "hide"},
    ]
