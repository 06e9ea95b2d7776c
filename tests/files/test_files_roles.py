"""Delegation: tasks recorded in the workspace, and roles that may call only their seed's tools."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from napari_talk.core.running.session import Session
from napari_talk.packs.files.roles import ROLES, RoleGate
from napari_talk.packs.files.tasks import TASKS_FILE


@pytest.fixture
def files(workspace: Path) -> Session:
    return Session(workspace=workspace)


ASSIGN = {
    "action": "assign_task",
    "target_agent": "narrator",
    "task_description": "Write the fight scene",
    "target_file": "manuscripts/ch03.md",
}


def test_assign_records_the_task_in_the_workspace_and_confirms_it(files, workspace):
    result = files.execute(ASSIGN)
    assert result.ok, result.message
    task = result.data
    assert task["target_agent"] == "narrator" and task["status"] == "assigned"
    assert task["allowed_tools"] == ["list_tasks", "read_file", "write_file"]
    lines = (workspace / TASKS_FILE).read_text().splitlines()
    assert json.loads(lines[-1])["id"] == task["id"] == result.meta["task_id"]


def test_list_tasks_shows_them_by_role_and_undo_withdraws(files):
    files.execute(ASSIGN)
    files.execute({**ASSIGN, "target_agent": "The Editor service", "task_description": "Proofread"})
    everything = files.execute({"action": "list_tasks"})
    assert [t["target_agent"] for t in everything.data] == ["narrator", "editor"]
    assert "Proofread" in everything.message
    only = files.execute({"action": "list_tasks", "target_agent": "editor"})
    assert [t["task_description"] for t in only.data] == ["Proofread"]
    assert files.undo().ok
    statuses = [t["status"] for t in files.execute({"action": "list_tasks"}).data]
    assert statuses == ["assigned", "withdrawn"]


def test_an_unknown_role_is_an_error_listing_the_roles(files, workspace):
    result = files.execute({**ASSIGN, "target_agent": "poet"})
    assert not result.ok and result.meta["error"] == "UnknownRole"
    assert "architect, editor, narrator" in result.message
    assert not (workspace / TASKS_FILE).exists()


def test_a_task_on_a_hostile_path_is_refused(files, workspace):
    result = files.execute({**ASSIGN, "target_file": "../../etc/passwd"})
    assert result.meta["error"] == "SecurityError" and not (workspace / TASKS_FILE).exists()


def test_a_torn_last_line_does_not_hide_the_other_tasks(files, workspace):
    files.execute(ASSIGN)
    with (workspace / TASKS_FILE).open("a") as log:
        log.write('{"event": "assigned", "id": "half')
    assert len(files.execute({"action": "list_tasks"}).data) == 1


@pytest.mark.parametrize(
    ("role", "allowed"),
    [
        ("architect", {"read_file", "write_file", "list_files", "search_code", "assign_task", "list_tasks"}),
        ("narrator", {"read_file", "write_file", "list_tasks"}),
        ("editor", {"read_file", "edit_file", "list_files", "search_code", "list_tasks"}),
    ],
)
def test_each_role_sees_only_the_seeds_allowed_tools(role, allowed):
    gate = RoleGate(role)
    assert {tool["function"]["name"] for tool in gate.tools()} == allowed == ROLES[role]
    for tool in gate.tools():
        assert tool["function"]["description"] and tool["function"]["parameters"]["type"] == "object"


def test_the_gate_refuses_what_the_role_may_not_call(files, workspace):
    editor = RoleGate("editor")
    refused = editor.call(files, "write_file", {"path": "a.txt", "content": "x"})
    assert refused["status"] == "error" and refused["meta"]["error"] == "PermissionDenied"
    assert "edit_file" in refused["data"] and not (workspace / "a.txt").exists()
    viewer = editor.execute(files, {"action": "set_zoom", "zoom": 2})
    assert not viewer.ok and viewer.meta["error"] == "PermissionDenied"


def test_the_gate_runs_what_the_role_may_call_in_the_seed_envelope(files, workspace):
    narrator = RoleGate("the narrator")
    wrote = narrator.call(files, "write_file", {"path": "ch01.md", "content": "Once"})
    assert wrote["status"] == "success" and wrote["meta"]["bytes_written"] == 4
    assert narrator.call(files, "read_file", {"path": "ch01.md"})["data"] == "Once"
    editor = RoleGate("editor")
    edited = editor.call(
        files, "edit_file", {"path": "ch01.md", "search_text": "Once", "replace_text": "Twice"}
    )
    assert edited["meta"]["occurrences"] == 1 and (workspace / "ch01.md").read_text() == "Twice"
    invalid = editor.call(files, "edit_file", {"path": "ch01.md"})
    assert invalid["status"] == "error" and invalid["meta"]["error"] == "InvalidCommand"


def test_an_unknown_role_cannot_get_a_gate():
    from napari_talk.packs.files.errors import FilesError

    with pytest.raises(FilesError, match="architect, editor, narrator"):
        RoleGate("poet")


def test_assign_task_refuses_past_its_budget_and_the_log_still_lists(files, workspace, monkeypatch):
    from napari_talk.packs.files import tasks

    monkeypatch.setattr(tasks, "TASKS_BUDGET_BYTES", 64 * 1024)
    refused = None
    for n in range(1000):
        result = files.execute({**ASSIGN, "task_description": f"task {n} " + "é" * 1000})
        if not result.ok:
            refused = result
            break
    assert refused is not None and refused.meta["error"] == "OverBudget"
    assert "budget is 65,536 bytes" in refused.message and "Move the log" in refused.message
    assert (workspace / TASKS_FILE).stat().st_size <= 64 * 1024
    listed = files.execute({"action": "list_tasks"})
    assert listed.ok and listed.meta["count"] == n
    assert files.execute({"action": "undo_last_action"}).ok, "withdrawing (an undo) is never refused"
