"""A line the rules do not read as typed is read once more in plain words (core/rules/text.py's
rephrase): slang verbs, things named by their place, a request said with how many times."""

from __future__ import annotations

import pytest

from napari_talk.core.grammar.parser import read

CONTEXT = {
    "layers": ["heart (myl7:GFP)", "rock targets"],
    "panels": ["layer list", "console"],
    "entities": ["Dust Wraith", "Coral Sentinel"],
    "segments": ["chassis", "mast", "left wheels"],
}


def wires(line: str) -> list[dict]:
    return [c.to_wire() for c in read(line, CONTEXT).commands]


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("gimme a cube", [{"action": "spawn_primitive", "primitive_type": "Cube"}]),
        (
            "gimme the heart in magma",
            [{"action": "layer_colormap", "name": "heart (myl7:GFP)", "colormap": "magma"}],
        ),
        ("lose the scale bar", [{"action": "scale_bar", "op": "hide"}]),
        ("bin the rock targets", [{"action": "remove_layer", "name": "rock targets"}]),
        ("get rid of the ray highlights", [{"action": "clear_ray_selection"}]),
        ("pick the third segment", [{"action": "select_segment", "segment_id": 3}]),
        ("go with the second concept", [{"action": "select_concept", "option_id": 2}]),
        ("open the first result", [{"action": "open_result", "rank": 1}]),
        ("undo twice", [{"action": "undo_last_action"}] * 2),
        ("redo three times", [{"action": "redo_last_action"}] * 3),
        (
            "I'd rather not see the rock targets right now",
            [{"action": "layer_visibility", "name": "rock targets", "op": "hide"}],
        ),
        ("I need the console open", [{"action": "panel_toggle", "name": "console", "op": "open"}]),
        ("it would be nice to have the scale bar off", [{"action": "scale_bar", "op": "hide"}]),
        (
            "critical angle from oil (1.518) to water (1.333)",
            [{"action": "optics_angle", "kind": "critical", "n1": 1.518, "n2": 1.333}],
        ),
        (
            "fresnel from air to sapphire (1.77) at 60 degrees",
            [{"action": "fresnel_transmittances", "n1": 1, "n2": 1.77, "theta_i_deg": 60}],
        ),
    ],
)
def test_a_second_reading_in_plain_words(line, expected):
    assert wires(line) == expected


def test_twice_inside_a_request_is_left_to_the_rules():
    assert wires("make the rock targets twice as bright") == [
        {"action": "adjust_brightness", "name": "rock targets", "factor": 2}
    ]


@pytest.mark.parametrize(
    "line",
    [
        "we lose the signal after an hour",
        "the first segment of the talk was dull",
        "I binned the old slides twice",
        "gimme a break",
        "the door was open",
        "my laptop is off",
        "I'd rather not see that film again",
    ],
)
def test_remarks_in_the_same_words_ask_for_nothing(line):
    assert wires(line) == []
