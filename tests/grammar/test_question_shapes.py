"""Shapes of asking shared across packs, proven on lines no set holds: what a holder is made of,
"who else", what one can say about a topic, whether anything was handed to someone, and a choice
said as a remark followed by "go with that"."""

from __future__ import annotations

import pytest

from napari_talk.core.grammar.parser import parse

SCENE = {
    "layers": ["GFP", "membrane dye"],
    "segments": ["wheel", "mast"],
    "entities": ["Dune Walker", "Saltmaw"],
    "scene_objects": ["Crown Glass", "Lamp 1"],
    "glasses": ["Crown Glass"],
}


def actions(text):
    return [c.to_wire()["action"] for c in parse(text, SCENE)]


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("what is the catalogue made up of?", "list_entities"),
        ("what does the model consist of", "describe_model"),
        ("what makes up the model at the moment", "describe_model"),
    ],
)
def test_what_a_holder_is_made_of_is_the_question_about_what_it_holds(text, action):
    assert actions(text) == [action]


def test_who_else_asks_who():
    assert [c.to_wire() for c in parse("which else share sref 4411?", SCENE)] == [
        {"action": "find_by_sref", "sref_code": "4411"}
    ]


def test_what_one_can_say_about_a_topic_is_help_on_it():
    assert [c.to_wire() for c in parse("what should I ask about files?", SCENE)] == [
        {"action": "help", "topic": "files"}
    ]


def test_whether_anything_was_handed_to_someone_lists_their_tasks():
    assert [c.to_wire() for c in parse("was any work delegated to the editor?", SCENE)] == [
        {"action": "list_tasks", "target_agent": "editor"}
    ]


def test_a_choice_said_as_a_remark_then_go_with_that_is_one_choice():
    assert [c.to_wire() for c in parse("option three looks great, go with that", SCENE)] == [
        {"action": "select_concept", "option_id": 3}
    ]


@pytest.mark.parametrize("text", ["GFP looks nice, I like that", "I like that", "that should be it"])
def test_a_bare_that_in_a_remark_reads_nothing(text):
    assert actions(text) == []
