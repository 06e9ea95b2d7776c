"""Slips of the keyboard are read against the words in play, only when a line is not understood as
typed, never inside quotes or paths, and the reading says what it changed."""

from __future__ import annotations

import pytest

from napari_talk.core.grammar.parser import read
from napari_talk.core.grammar.spelling import correct, regional

LAYERS = {"layers": ["nuclei (DAPI)", "cell walls", "GFP", "spots"]}


@pytest.mark.parametrize(
    ("typed", "meant", "wire"),
    [
        ("shwo GFP", "show", {"action": "layer_visibility", "name": "GFP", "op": "show"}),
        ("trun off spots", "turn", {"action": "layer_visibility", "name": "spots", "op": "hide"}),
        ("opacty of GFP to 0.5", "opacity", {"action": "layer_opacity", "name": "GFP", "opacity": 0.5}),
        ("spawm a cube", "spawn", {"action": "spawn_primitive", "primitive_type": "Cube"}),
        (
            "make the cell wals gray",
            "walls",
            {"action": "layer_colormap", "name": "cell walls", "colormap": "gray"},
        ),
        ("zoom ni", "in", {"action": "zoom_by", "factor": 2}),
    ],
)
def test_a_slip_is_read_and_the_reading_says_so(typed, meant, wire):
    reading = read(typed, LAYERS)
    assert [c.to_wire() for c in reading.commands] == [wire]
    assert len(reading.notes) == 1 and f"as {meant!r}" in reading.notes[0]


def test_a_line_understood_as_typed_carries_no_note():
    reading = read("show GFP", LAYERS)
    assert reading.commands and reading.notes == ()


def test_quoted_text_and_paths_are_never_corrected():
    fixed, changes = correct("write 'shwo the spots' to notes/shwo.md", frozenset({"show", "write"}))
    assert changes == [] and fixed == "write 'shwo the spots' to notes/shwo.md"
    (command,) = read("write 'shwo me' to notes/shwo.md", LAYERS).commands
    assert command.to_wire()["content"] == "shwo me" and command.to_wire()["path"] == "notes/shwo.md"


def test_the_fewest_changes_are_tried_first():
    """A material name is not a slip of a grammar word: only the verb is corrected."""
    reading = read("aply gold to segment 4", LAYERS)
    assert [c.to_wire() for c in reading.commands] == [
        {"action": "apply_material", "material_description": "gold", "segment_id": "4"}
    ]


def test_a_word_with_two_neighbours_is_left_alone():
    _, changes = correct("show bat", frozenset({"show", "cat", "hat"}))
    assert changes == []
    _, changes = correct("show hte", frozenset({"show", "the", "hat"}))
    assert changes == [("hte", "the")]  # two letters swapped is the likelier slip


def test_regional_spellings_go_both_ways():
    assert "color" in regional("colour") and "colour" in regional("color")
    assert "center" in regional("centre") and "gray" in regional("grey")
    (command,) = read("hide the tumor mask", {"layers": ["tumour mask"]}).commands
    assert command.to_wire()["name"] == "tumour mask"


def test_chat_is_not_made_into_a_command():
    for line in ("what's the weather like today?", "thanks, that was grate", "my sample is noisy"):
        assert read(line, LAYERS).commands == [], line


def test_a_slip_with_several_neighbours_is_the_one_the_grammar_reads():
    """ "reed" is one letter from "read" and from "red", a colour in play: the grammar decides."""
    files = {**LAYERS, "files": ["notes/plan.md"]}
    reading = read("reed notes/plan.md", files)
    assert [c.to_wire() for c in reading.commands] == [{"action": "read_file", "path": "notes/plan.md"}]
    assert reading.notes == ("(read 'reed' as 'read')",)


def test_a_real_word_inside_a_line_is_not_bent_into_a_command():
    """Only the word that opens a request is tried as its neighbours: "live" is not "like"."""
    atlas = {"entities": ["Coral Sentinel", "Reef Warden"]}
    assert read("what creatures live in the reef?", atlas).commands == []
    assert read("I hid the spots on the old laptop and it never came back", LAYERS).commands == []


def test_a_plural_spelt_as_it_sounds_is_read():
    (command,) = read("find entitys like Coral Sentinel", {"entities": ["Coral Sentinel"]}).commands
    assert command.to_wire() == {"action": "find_similar", "query": "Coral Sentinel"}
