"""A yes/no option said as an aside anywhere in a request (between commas, in brackets, as
"<thing> included") is read with the pack's own option words, for any command that has the
option; a command without it leaves the line unread."""

from __future__ import annotations

import pytest

from napari_talk.core.grammar.parser import parse

SCENE = {
    "files": ["lab/notes.md", "lab/scripts/plot.py", "drafts/intro.md"],
    "scene_objects": ["Slit Detector", "Lamp 1"],
}


def wire(text):
    return [c.to_wire() for c in parse(text, SCENE)]


@pytest.mark.parametrize(
    ("text", "options"),
    [
        ("grep 'Kd', matching case, in lab", {"case_sensitive": True}),
        ("look for 'pH' (case-sensitive) in drafts", {"case_sensitive": True}),
        ("search for 'v[0-9]+' (regular expression) in lab", {"regex": True}),
    ],
)
def test_a_search_option_said_as_an_aside_is_its_flag(text, options):
    (command,) = wire(text)
    assert command["action"] == "search_code"
    assert {k: command.get(k) for k in options} == options
    assert "(" not in command["query"] and "," not in command["query"]


def test_things_included_is_including_them():
    assert wire("list the files in lab, subdirectories included") == [
        {"action": "list_files", "directory": "lab", "recursive": True}
    ]


def test_an_aside_the_command_has_no_field_for_is_not_read():
    assert wire("open lab/notes.md, recursively") == []


def test_every_thing_is_all_of_them():
    assert wire("list every file in drafts") == [{"action": "list_files", "directory": "drafts"}]
