"""Questions about what is in play are asked the same ways of every pack, and answered by the
read command that lists it (core/grammar/questions.py)."""

from __future__ import annotations

import pytest

from napari_talk.core.grammar.parser import read
from napari_talk.core.grammar.questions import asked_about
from napari_talk.packs.viewer import commands as viewer_cmd

CONTEXT = {
    "layers": ["nuclei (DAPI)", "GFP", "spots"],
    "glasses": ["Front Lens", "Prism"],
    "scene_objects": ["Front Lens", "Prism", "Point source 1"],
    "entities": ["Coral Sentinel", "Reef Warden"],
    "files": ["notes/plan.md", "chapters/ch01.md"],
}


def wires(line: str) -> list[dict]:
    return [c.to_wire() for c in read(line, CONTEXT).commands]


@pytest.mark.parametrize(
    ("line", "wire"),
    [
        ("what layers have I got loaded?", {"action": "list_layers"}),
        ("which channels are there at the moment?", {"action": "list_layers"}),
        ("how many layers are open right now?", {"action": "list_layers"}),
        ("what parts does the model have?", {"action": "describe_model"}),
        ("which materials are on the model?", {"action": "describe_model"}),
        (
            "what edges does the front lens have?",
            {"action": "describe_glass_edges", "glass_name": "Front Lens"},
        ),
        ("how many light sources are in the scene?", {"action": "describe_scene"}),
        ("which entities are in the catalogue?", {"action": "list_entities"}),
        ("what entities live in The Shallows?", {"action": "list_entities", "domain": "The Shallows"}),
        ("show me the task list", {"action": "list_tasks"}),
        ("what tasks does the editor have?", {"action": "list_tasks", "target_agent": "editor"}),
        ("what documents do we have in the workspace?", {"action": "list_files"}),
        ("what files are in here?", {"action": "list_files"}),
    ],
)
def test_a_question_about_what_is_in_play_is_read_as_the_command_that_lists_it(line, wire):
    assert wires(line) == [wire]


def test_the_layer_list_is_napari_panel_not_a_question():
    """``named_list=False``: "the layer list" names a panel of napari's."""
    panels = {**CONTEXT, "panels": ["layer list", "console"]}
    (command,) = read("show the layer list", panels).commands
    assert command.to_wire()["action"] == "panel_toggle"


@pytest.mark.parametrize(
    "line",
    [
        "the layers look great today",
        "I counted the parts by hand yesterday",
        "my entities are mostly fish",
        "which layers should I use for the figure, do you think?",
    ],
)
def test_a_remark_about_the_things_asks_for_nothing(line):
    assert wires(line) == []


def test_a_rule_without_things_is_refused():
    with pytest.raises(ValueError, match="the things the command lists"):
        asked_about(viewer_cmd.ListLayers)


def test_a_folder_is_listed_by_its_name_and_a_verb_is_never_a_name():
    """ "list" is a word of napari's "layer list" panel, but a verb first: never a name alone."""
    folders = {**CONTEXT, "folders": ["scripts", "config"], "panels": ["layer list", "console"]}
    assert [c.to_wire() for c in read("list the scripts folder", folders).commands] == [
        {"action": "list_files", "directory": "scripts"}
    ]
    assert [
        c.to_wire() for c in read("read notes/plan.md then list the config directory", folders).commands
    ] == [
        {"action": "read_file", "path": "notes/plan.md"},
        {"action": "list_files", "directory": "config"},
    ]
    assert read("list the recipes folder", folders).commands == []  # no such folder: not guessed


def test_a_detector_named_by_the_scene_gives_its_readings():
    scene = {"scene_objects": ["PMT Detector", "Camera Detector", "Mirror 2"]}
    assert [c.to_wire() for c in read("PMT Detector readings", scene).commands] == [
        {"action": "detector_readings", "name": "PMT Detector"}
    ]
    assert [c.to_wire() for c in read("readings of the camera detector as a table", scene).commands] == [
        {"action": "detector_readings", "name": "Camera Detector", "table": True}
    ]
    assert read("the blood pressure readings were high", scene).commands == []
