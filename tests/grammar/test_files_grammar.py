"""How the files pack's commands are typed: the seed's lines, new phrasings, and what it must not take."""

from __future__ import annotations

import pytest

from napari_talk.core.grammar.parser import parse

CONTEXT = {
    "layers": ["nuclei", "cell boundaries", "actin", "GFP", "Labels", "spots"],
    "panels": ["console", "layer list", "layer controls"],
}


def wires(text: str) -> list[dict]:
    return [c.to_wire() for c in parse(text, CONTEXT)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("read notes/plan.md", {"action": "read_file", "path": "notes/plan.md"}),
        ("open notes/plan.md", {"action": "read_file", "path": "notes/plan.md"}),
        ("show me the contents of a.txt", {"action": "read_file", "path": "a.txt"}),
        ("cat README", {"action": "read_file", "path": "README"}),
        ("what does notes/plan.md say?", {"action": "read_file", "path": "notes/plan.md"}),
        ("read 'my notes/first draft.md'", {"action": "read_file", "path": "my notes/first draft.md"}),
        ("write 'text' to notes/a.txt", {"action": "write_file", "path": "notes/a.txt", "content": "text"}),
        ("save 'hello' to a.txt", {"action": "write_file", "path": "a.txt", "content": "hello"}),
        ("write hello world to a.txt", {"action": "write_file", "path": "a.txt", "content": "hello world"}),
        ('save "it\'s done" to log.txt', {"action": "write_file", "path": "log.txt", "content": "it's done"}),
        (
            "create notes/b.md with 'first line'",
            {"action": "write_file", "path": "notes/b.md", "content": "first line"},
        ),
        ("create an empty file notes/c.md", {"action": "write_file", "path": "notes/c.md", "content": ""}),
        (
            "in a.md replace 'x' with 'y'",
            {"action": "edit_file", "path": "a.md", "search_text": "x", "replace_text": "y"},
        ),
        (
            "replace 'teh' with 'the' in notes/a.md",
            {"action": "edit_file", "path": "notes/a.md", "search_text": "teh", "replace_text": "the"},
        ),
        (
            "in a.md, change colour to color",
            {"action": "edit_file", "path": "a.md", "search_text": "colour", "replace_text": "color"},
        ),
        (
            "edit ch01.md: replace 'Jon' with 'John'",
            {"action": "edit_file", "path": "ch01.md", "search_text": "Jon", "replace_text": "John"},
        ),
        ("list files", {"action": "list_files"}),
        ("list files in manuscripts", {"action": "list_files", "directory": "manuscripts"}),
        ("list the files in drafts", {"action": "list_files", "directory": "drafts"}),
        ("what files are in the drafts folder", {"action": "list_files", "directory": "drafts"}),
        ("list all files recursively", {"action": "list_files", "recursive": True}),
        ("ls notes", {"action": "list_files", "directory": "notes"}),
        ("tree notes", {"action": "list_files", "directory": "notes", "recursive": True}),
        ("show me the contents of notes", {"action": "list_files", "directory": "notes"}),
        ("search 'castle'", {"action": "search_code", "query": "castle"}),
        ("find 'dragon' in chapters", {"action": "search_code", "query": "dragon", "directory": "chapters"}),
        ("search for castle in the workspace", {"action": "search_code", "query": "castle"}),
        ("which files mention the king", {"action": "search_code", "query": "the king"}),
        ("find all mentions of Eldra", {"action": "search_code", "query": "Eldra"}),
        (
            "case-sensitive search for Castle",
            {"action": "search_code", "query": "Castle", "case_sensitive": True},
        ),
        (
            "grep regex 'ch[0-9]+' in notes",
            {"action": "search_code", "query": "ch[0-9]+", "directory": "notes", "regex": True},
        ),
        (
            "search for /drag(on|oon)/ in chapters",
            {"action": "search_code", "query": "drag(on|oon)", "directory": "chapters", "regex": True},
        ),
        (
            "assign the architect to outline chapter 2 in plan.md",
            {
                "action": "assign_task",
                "target_agent": "architect",
                "task_description": "outline chapter 2",
                "target_file": "plan.md",
            },
        ),
        (
            "ask the narrator to write the fight scene in manuscripts/ch03.md",
            {
                "action": "assign_task",
                "target_agent": "narrator",
                "task_description": "write the fight scene",
                "target_file": "manuscripts/ch03.md",
            },
        ),
        (
            "have the editor proofread ch01.md",
            {
                "action": "assign_task",
                "target_agent": "editor",
                "task_description": "proofread ch01.md",
                "target_file": "ch01.md",
            },
        ),
        (
            "delegate 'write the fight scene' to narrator on ch03.md",
            {
                "action": "assign_task",
                "target_agent": "narrator",
                "task_description": "write the fight scene",
                "target_file": "ch03.md",
            },
        ),
        ("list tasks", {"action": "list_tasks"}),
        ("what tasks does the editor have?", {"action": "list_tasks", "target_agent": "editor"}),
        ("what is the narrator working on", {"action": "list_tasks", "target_agent": "narrator"}),
    ],
)
def test_files_phrasings_parse(text, expected):
    assert wires(text) == [expected]


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("list layers", "list_layers"),
        ("show everything", "all_layers_visibility"),
        ("open the console", "panel_toggle"),
        ("show nuclei", "layer_visibility"),
        ("screenshot shots/cells.png", "screenshot"),
        ("save screenshot to figs/nuclei.png", "screenshot"),
        ("take a screenshot and save it as view1.png", "screenshot"),
        ("help", "help"),
        ("undo", "undo_last_action"),
    ],
)
def test_viewer_and_session_phrasings_keep_their_reading(text, action):
    assert [w["action"] for w in wires(text)] == [action]


@pytest.mark.parametrize(
    "text",
    [
        "search",
        "open my email",
        "open /data/experiment1.czi",
        "open cells.tif",
        "save the labels as a tiff file",
        "find similar to void walker",
        "show the Cellpose panel",
        "what time is it",
    ],
)
def test_what_is_not_a_files_request_is_left_alone(text):
    assert not any(w["action"] in FILES_ACTIONS for w in wires(text)), wires(text)


FILES_ACTIONS = {
    "read_file",
    "write_file",
    "edit_file",
    "list_files",
    "search_code",
    "assign_task",
    "list_tasks",
}


def test_a_hostile_path_is_parsed_so_the_sandbox_can_refuse_it_clearly():
    assert wires("read ../../etc/passwd") == [{"action": "read_file", "path": "../../etc/passwd"}]


def test_files_requests_join_with_and_then():
    assert [w["action"] for w in wires("write 'a, b and c' to x.txt, then read x.txt")] == [
        "write_file",
        "read_file",
    ]
