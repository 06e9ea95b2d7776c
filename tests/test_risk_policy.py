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
    bridge = Bridge(session, confirm=lambda command, _timeout: asked.append(command.action) or False)
    hints = {tool.name: tool.annotations for tool in bridge.tools()}
    assert hints["list_layers"].read_only_hint and not hints["list_layers"].destructive_hint
    assert hints["remove_layer"].destructive_hint
    assert hints["set_embedding_model"].open_world_hint
    text, _, is_error = bridge.call("write_file", {"path": "a.md", "content": "x"})
    assert is_error and "not confirmed" in text and asked == ["write_file"]
    _, _, is_error = bridge.call("list_files", {})
    assert not is_error and asked == ["write_file"]


# -- each command judged when its turn to run comes ----------------------------------------------


@pytest.fixture
def model_session(session, llm_settings):
    session.llm = LLMRoad(session.registry, llm_settings)
    return session


def _two_undos(chat_server):
    from chat_server import tool_call

    chat_server.say(
        tool_calls=[tool_call("undo_last_action", {}, "c1"), tool_call("undo_last_action", {}, "c2")]
    )


def test_a_second_undo_in_one_reply_waits_for_the_person(model_session, chat_server, tmp_path):
    """The person writes notes, then loads a scene; a model replies with two undos. The first
    reaches the scene (a view change) and runs; the second reaches the notes and waits."""
    session = model_session
    assert session.execute({"action": "write_file", "path": "notes/a.md", "content": "mine"}).ok
    assert session.run("load the prism demo").ok
    _two_undos(chat_server)
    asked = []
    turn = session.run("tidy up please", confirm=lambda c: asked.extend(c) or False)
    assert [c.action for c in asked] == ["undo_last_action"], "asked once, for the undo of the file"
    assert (tmp_path / "notes" / "a.md").read_text() == "mine"
    assert session.state("rays").current is None, "the first undo (the scene) ran"
    assert not turn.ok and "not confirmed" in turn.message
    assert (
        session.history.next_undo() is not None and session.history.next_undo().command.action == "write_file"
    )


def test_the_second_undo_runs_once_the_person_agrees(model_session, chat_server, tmp_path):
    session = model_session
    assert session.execute({"action": "write_file", "path": "notes/a.md", "content": "mine"}).ok
    assert session.run("load the prism demo").ok
    _two_undos(chat_server)
    turn = session.run("tidy up please", confirm=lambda c: True)
    assert turn.ok, turn.message
    assert not (tmp_path / "notes" / "a.md").exists()


def test_a_second_undo_waits_in_the_dock(
    qtbot, make_napari_viewer_proxy, llm_settings, chat_server, tmp_path
):
    from qtpy.QtCore import Qt

    from napari_talk._qt.dock import ChatDock
    from napari_talk.core.settings import FileStore, Settings
    from napari_talk.core.viewer import camera

    viewer = make_napari_viewer_proxy()
    viewer.add_points([[1, 1]], name="dots")
    store = FileStore(tmp_path / "settings.json")
    store.save(Settings(llm=llm_settings))
    dock = ChatDock(viewer, store=store)
    viewer.window.add_dock_widget(dock, name="Chat")
    notes = dock.session.workspace.root / "notes" / "a.md"
    assert dock.session.execute({"action": "write_file", "path": "notes/a.md", "content": "mine"}).ok
    assert dock.send("zoom to 2").ok
    _two_undos(chat_server)
    dock.send("tidy up please")
    qtbot.waitUntil(lambda: dock.cancel_button.isVisibleTo(dock), timeout=10_000)
    assert "undo_last_action" in dock.confirm_label.text() and "notes/a.md" in dock.confirm_label.text()
    assert camera(viewer).zoom != 2, "the first undo (the zoom) ran"
    qtbot.mouseClick(dock.cancel_button, Qt.MouseButton.LeftButton)
    assert notes.read_text() == "mine"
    assert "not confirmed" in dock.transcript.entries[-1].text
    assert not dock.cancel_button.isVisibleTo(dock)


# -- MCP: every door asks the session's policy ---------------------------------------------------


def test_the_stdio_bridge_refuses_an_undo_of_a_file_and_a_screenshot_over_one(
    make_napari_viewer_proxy, tmp_path
):
    """``napari-talk mcp`` builds its bridge with bridge_for: the session judges each call."""
    from napari_talk._qt.dock import ChatDock
    from napari_talk._qt.mcp_stdio import bridge_for
    from napari_talk.core.settings import FileStore

    viewer = make_napari_viewer_proxy()
    viewer.add_points([[1, 1]], name="dots")
    dock = ChatDock(viewer, store=FileStore(tmp_path / "settings.json"))
    root = dock.session.workspace.root
    assert dock.session.execute({"action": "write_file", "path": "notes/a.md", "content": "mine"}).ok
    (root / "figures").mkdir()
    (root / "figures" / "fig.png").write_bytes(b"the person's figure")
    bridge, _gui = bridge_for(dock, show=False)
    text, _, is_error = bridge.call("undo_last_action", {})
    assert is_error and "not confirmed" in text
    assert (root / "notes" / "a.md").read_text() == "mine" and dock.session.history.can_undo
    text, _, is_error = bridge.call("screenshot", {"path": "figures/fig.png"})
    assert is_error and "not confirmed" in text
    assert (root / "figures" / "fig.png").read_bytes() == b"the person's figure"
    _, _, is_error = bridge.call("list_layers", {})
    assert not is_error


def test_agreeing_to_one_undo_is_not_agreeing_to_another(session, tmp_path):
    """An MCP client asks for an undo of a.md; while the person is asked, they write b.md. Their
    Run agreed to undo a.md, so the undo, which now reaches b.md, is put to them again."""
    assert session.execute({"action": "write_file", "path": "a.md", "content": "first"}).ok
    asked = []

    def confirm(command, _timeout):
        asked.append(session.explain(command))
        if len(asked) == 1:
            assert session.execute({"action": "write_file", "path": "b.md", "content": "mine"}).ok
            return True
        return False

    text, _, is_error = Bridge(session, confirm=confirm).call("undo_last_action", {})
    assert is_error and "not confirmed" in text
    assert len(asked) == 2 and "a.md" in asked[0] and "b.md" in asked[1], asked
    assert (tmp_path / "b.md").read_text() == "mine" and (tmp_path / "a.md").read_text() == "first"
