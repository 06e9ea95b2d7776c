"""One risk policy for every door: the session's LLM road, the dock, agent functions, MCP."""

from __future__ import annotations

import pytest

from napari_talk.agents import get_agentic_tools
from napari_talk.agents.mcp_server import Bridge
from napari_talk.core.llm.road import LLMRoad
from napari_talk.core.llm.settings import LLMSettings
from napari_talk.core.risk import RiskPolicy
from napari_talk.core.session import Session


def validated(session: Session, **wire):
    return session.registry.validate(wire)


@pytest.fixture
def session(tmp_path):
    return Session(None, workspace=tmp_path)


def test_the_policy_reads_the_four_risks():
    policy = RiskPolicy()
    assert [policy.needs_person(r, "model") for r in ("read", "view", "data", "send")] == [
        False, False, True, True
    ]  # fmt: skip
    assert not any(policy.needs_person(r, "person") for r in ("read", "view", "data", "send"))
    trusting = RiskPolicy(trust_with_data=True)
    assert not trusting.needs_person("data", "agent")
    assert trusting.needs_person("send", "agent"), "sending somewhere new always waits for the person"


def test_a_file_change_and_its_undo_wait_for_the_person(session):
    write = validated(session, action="write_file", path="a.md", content="mine")
    assert session.needs_confirmation([write]) == [write]
    assert session.execute(write).ok
    undo = validated(session, action="undo_last_action")
    assert session.needs_confirmation([undo], origin="agent") == [undo], "undoing a file change changes data"
    assert session.undo().ok
    redo = validated(session, action="redo_last_action")
    assert session.needs_confirmation([redo]) == [redo]


def test_undo_of_a_view_change_does_not_ask(session):
    assert session.run("load the prism demo").ok
    undo = validated(session, action="undo_last_action")
    assert session.needs_confirmation([undo]) == []


def test_a_screenshot_over_an_existing_file_is_a_change_of_data(session, tmp_path):
    new = validated(session, action="screenshot", path="figures/new.png")
    assert session.risk(new) == "view"
    (tmp_path / "figures").mkdir()
    (tmp_path / "figures" / "new.png").write_bytes(b"the person's figure")
    assert session.risk(new) == "data" and session.needs_confirmation([new]) == [new]


def test_an_endpoint_a_model_chose_always_waits(session):
    session.llm = LLMRoad(session.registry, LLMSettings(model="m", allow_destructive=True))
    endpoint = validated(session, action="set_embedding_model", model="x", base_url="http://evil.example/v1")
    remove = validated(session, action="write_file", path="a.md", content="x")
    assert session.needs_confirmation([endpoint, remove]) == [endpoint]


def test_agent_functions_ask_before_a_change_of_data(session, tmp_path):
    tools = {t["name"]: t["function"] for t in get_agentic_tools(session, packs=["files"])}
    asked = []
    refused = tools["write_file"](path="a.md", content="x")
    assert "not confirmed" in refused and not (tmp_path / "a.md").exists()
    tools = {
        t["name"]: t["function"]
        for t in get_agentic_tools(session, packs=["files"], confirm=lambda c: asked.append(c) or True)
    }
    assert '"success"' in tools["write_file"](path="a.md", content="x")
    assert [c.action for c in asked] == ["write_file"]
    assert '"success"' in tools["read_file"](path="a.md") and len(asked) == 1, "reading asks nobody"


def test_mcp_hints_and_confirmation_come_from_the_same_policy(session):
    asked = []
    bridge = Bridge(
        session.registry,
        lambda command, _timeout: session.execute(command),
        confirm=lambda command, _timeout: asked.append(command.action) or False,
        needs_person=lambda command: bool(session.needs_confirmation([command], origin="agent")),
    )
    hints = {tool.name: tool.annotations for tool in bridge.tools()}
    assert hints["list_layers"].read_only_hint and not hints["list_layers"].destructive_hint
    assert hints["remove_layer"].destructive_hint
    assert hints["set_embedding_model"].open_world_hint
    text, _, is_error = bridge.call("write_file", {"path": "a.md", "content": "x"})
    assert is_error and "not confirmed" in text and asked == ["write_file"]
    _, _, is_error = bridge.call("list_files", {})
    assert not is_error and asked == ["write_file"]
