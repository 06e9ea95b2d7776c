"""Consent judged by what a command will do, at the act, for every door: the parser road, the
LLM road, the dock, agent functions and MCP; and one typed outcome for "the person must agree"."""

from __future__ import annotations

import json
from typing import ClassVar

import pytest
from support.chat_server import tool_call

from napari_talk.agents import get_agentic_tools
from napari_talk.agents.mcp_server import Bridge
from napari_talk.core.basics.commands import Command
from napari_talk.core.basics.result import Result
from napari_talk.core.chat.settings import LLMSettings
from napari_talk.core.contract.pack import Handlers, Pack
from napari_talk.core.contract.registry import Registry, default_registry
from napari_talk.core.llm.road import LLMRoad
from napari_talk.core.running.history import Changes
from napari_talk.core.running.session import Session
from napari_talk.core.safety.net import NetPolicy
from napari_talk.core.safety.risk import Consent, Effect, NeedsApproval, RiskPolicy
from napari_talk.core.viewer.layers import added


def validated(session: Session, **wire):
    return session.registry.validate(wire)


@pytest.fixture
def session(tmp_path):
    return Session(None, workspace=tmp_path)


def test_effects_decide_who_is_asked():
    policy = RiskPolicy()
    theirs = Effect.replace("notes.md, which napari-talk did not write", "d1")
    unnamed = Effect.replace("layer 'cells', painted on since", "d2", named=False)
    send = Effect.send("evil.example:443")
    assert [policy.needs_person(e, "model") for e in (theirs, unnamed, send)] == [True, True, True]
    assert [policy.needs_person(e, "person") for e in (theirs, unnamed, send)] == [False, True, False]
    assert policy.needs_person(theirs, "person", implicit=True), "a redo names none of what it replaces"
    trusting = RiskPolicy(trust_with_data=True)
    assert not trusting.needs_person(theirs, "agent")
    assert trusting.needs_person(send, "agent"), "sending somewhere new always waits for the person"


def test_an_agreement_covers_exactly_the_state_it_was_given_for():
    consent = Consent(origin="model", wire={"action": "write_file", "path": "a.md"})
    before = Effect.replace("a.md, which napari-talk did not write", "digest-1")
    with pytest.raises(NeedsApproval) as asked:
        consent.require(before)
    agreed = Consent(origin="model", wire=consent.wire, agreed=asked.value.approval.tokens)
    agreed.require(before)
    with pytest.raises(NeedsApproval):
        agreed.require(Effect.replace("a.md, which napari-talk did not write", "digest-2"))


def test_a_model_replacing_a_file_of_the_persons_is_asked_naming_it(session, tmp_path):
    (tmp_path / "notes.md").write_text("mine")
    refused = session.execute(
        validated(session, action="write_file", path="notes.md", content="x"), origin="model"
    )
    assert refused.approval is not None and (tmp_path / "notes.md").read_text() == "mine"
    assert refused.meta["error"] == "needs_approval" and "not confirmed" in refused.message
    (effect,) = refused.meta["approval"]["effects"]
    assert effect == {"kind": "replace", "what": "notes.md, which napari-talk did not write"}
    assert not session.history.can_undo


def test_a_model_writing_a_new_file_or_its_own_again_is_not_asked(session, tmp_path):
    new = session.execute({"action": "write_file", "path": "draft.md", "content": "one"}, origin="model")
    assert new.ok, new.message
    again = session.execute({"action": "write_file", "path": "draft.md", "content": "two"}, origin="model")
    assert again.ok and (tmp_path / "draft.md").read_text() == "two"
    (tmp_path / "draft.md").write_text("the person's edit")
    edited = session.execute({"action": "write_file", "path": "draft.md", "content": "3"}, origin="model")
    assert edited.approval is not None and "changed since napari-talk wrote it" in edited.approval.question


def test_the_person_naming_their_own_file_is_not_asked(session, tmp_path):
    (tmp_path / "notes.md").write_text("mine")
    assert session.run("write 'new' to notes.md").ok
    assert (tmp_path / "notes.md").read_text() == "new"


def test_undo_of_a_file_change_asks_a_model_but_not_the_person(session, tmp_path):
    assert session.execute({"action": "write_file", "path": "a.md", "content": "mine"}).ok
    undo = validated(session, action="undo_last_action")
    approval = session.judge(undo, "agent")
    assert approval is not None and "a.md" in approval.question
    assert session.judge(undo, "person") is None
    assert session.run("undo").ok and not (tmp_path / "a.md").exists()


def test_redo_over_a_file_the_person_wrote_after_the_undo_asks_even_the_person(session, tmp_path):
    assert session.execute({"action": "write_file", "path": "a.md", "content": "napari-talk's"}).ok
    assert session.run("undo").ok and not (tmp_path / "a.md").exists()
    (tmp_path / "a.md").write_text("the person's own")
    asked = []
    turn = session.run("redo", ask=lambda approval: asked.append(approval) or False)
    assert not turn.ok and (tmp_path / "a.md").read_text() == "the person's own"
    assert len(asked) == 1 and "a.md, which napari-talk did not write" in asked[0].question
    assert session.history.can_redo, "refused, the redo is still there"
    assert session.run("redo", ask=lambda approval: True).ok
    assert (tmp_path / "a.md").read_text() == "napari-talk's"


def test_undo_of_a_view_change_does_not_ask(session):
    assert session.run("load the prism demo").ok
    assert session.judge(validated(session, action="undo_last_action"), "model") is None


def test_a_screenshot_over_a_file_of_the_persons_asks_a_model(session, tmp_path):
    new = validated(session, action="screenshot", path="figures/new.png")
    assert session.judge(new, "model") is None
    (tmp_path / "figures").mkdir()
    (tmp_path / "figures" / "new.png").write_bytes(b"the person's figure")
    approval = session.judge(new, "model")
    assert approval is not None and "figures/new.png" in approval.question


def test_an_endpoint_a_model_chose_always_waits(session):
    session.llm = LLMRoad(session.registry, LLMSettings(model="m", allow_destructive=True))
    endpoint = validated(session, action="set_embedding_model", model="x", base_url="http://evil.example/v1")
    write = validated(session, action="write_file", path="a.md", content="x")
    approval = session.judge(endpoint, "model")
    assert approval is not None and approval.effects == (Effect.send("evil.example:80"),)
    assert session.judge(write, "model") is None


def test_agent_functions_answer_a_structured_refusal_or_ask(session, tmp_path):
    (tmp_path / "a.md").write_text("mine")
    tools = {t["name"]: t["function"] for t in get_agentic_tools(session, packs=["files"])}
    refused = json.loads(tools["write_file"](path="a.md", content="x"))
    assert refused["meta"]["error"] == "needs_approval" and (tmp_path / "a.md").read_text() == "mine"
    assert refused["meta"]["approval"]["effects"][0]["what"].startswith("a.md")
    asked = []
    tools = {
        t["name"]: t["function"]
        for t in get_agentic_tools(session, packs=["files"], ask=lambda a: asked.append(a) or True)
    }
    assert json.loads(tools["write_file"](path="a.md", content="x"))["status"] == "success"
    assert [a.action for a in asked] == ["write_file"]
    assert json.loads(tools["read_file"](path="a.md"))["status"] == "success" and len(asked) == 1


def test_mcp_hints_and_confirmation_come_from_the_same_policy(session, tmp_path):
    (tmp_path / "a.md").write_text("mine")
    asked = []
    bridge = Bridge(session, confirm=lambda approval, _timeout, _gone: asked.append(approval.action) or False)
    hints = {tool.name: tool.annotations for tool in bridge.tools()}
    assert hints["list_layers"].read_only_hint and not hints["list_layers"].destructive_hint
    assert hints["remove_layer"].destructive_hint
    assert hints["set_embedding_model"].open_world_hint
    text, structured, is_error = bridge.call("write_file", {"path": "a.md", "content": "x"})
    assert is_error and "not confirmed" in text and asked == ["write_file"]
    assert structured["meta"]["approval"]["action"] == "write_file"
    _, _, is_error = bridge.call("list_files", {})
    assert not is_error and asked == ["write_file"]


# -- a URL a model or an agent chose ----------------------------------------------------------------


@pytest.fixture
def image_host():
    """A real server on 127.0.0.1 serving a picture; the person allowed 127.0.0.1 in the settings,
    but a URL spelled ``localhost:<port>`` is a host they did not configure."""
    from support.atlas_servers import FileServer, Route

    with FileServer() as server:
        server.routes["/a.png?notes=SECRET"] = Route(_png())
        yield server


def _png() -> bytes:
    import numpy as np
    from imageio.v3 import imwrite

    return imwrite("<bytes>", np.arange(64 * 64, dtype=np.uint8).reshape(64, 64), extension=".png")


def _exfiltrating_url(server) -> str:
    return server.base.replace("127.0.0.1", "localhost") + "/a.png?notes=SECRET"


def test_a_models_analyze_image_of_an_unconfigured_host_asks_the_person_and_sends_nothing(
    llm_session, chat_server, image_host
):
    llm_session.net = NetPolicy.from_setting("127.0.0.1")
    url = _exfiltrating_url(image_host)
    chat_server.say(tool_calls=[tool_call("analyze_image", {"image_url": url})])
    asked = []
    turn = llm_session.run("summarise the document", ask=lambda a: asked.append(a) or False)
    assert image_host.hits == [], "nothing reached the host before the person's word"
    assert [a.action for a in asked] == ["analyze_image"]
    assert asked[0].effects == (Effect.send(f"localhost:{image_host.base.rsplit(':', 1)[1]}"),)
    assert not turn.ok and "not confirmed" in turn.message
    chat_server.say(tool_calls=[tool_call("analyze_image", {"image_url": url})])
    turn = llm_session.run("summarise the document", ask=lambda a: True)
    assert image_host.hits == ["/a.png?notes=SECRET"], turn.message


def test_an_mcp_clients_analyze_image_of_an_unconfigured_host_gets_a_structured_refusal(session, image_host):
    session.net = NetPolicy.from_setting("127.0.0.1")
    _, structured, is_error = Bridge(session).call(
        "analyze_image", {"image_url": _exfiltrating_url(image_host)}
    )
    assert is_error and image_host.hits == []
    assert structured["meta"]["error"] == "needs_approval"
    assert structured["meta"]["approval"]["effects"][0]["kind"] == "send"


def test_the_person_typing_a_url_is_their_choice(session, image_host):
    session.net = NetPolicy.from_setting("127.0.0.1")
    result = session.execute({"action": "analyze_image", "image_url": _exfiltrating_url(image_host)})
    assert result.ok, result.message
    assert image_host.hits == ["/a.png?notes=SECRET"]


# -- a layer the person painted on since --------------------------------------------------------------


class AddLabels(Command, action="add_test_labels"):
    """Add a small labels layer (a test pack's, made through the core's layer helper)."""

    examples: ClassVar[tuple[str, ...]] = ("add test labels",)
    no_rule: ClassVar[str] = "the test runs it as a command, nobody types it"


def _labels_pack() -> Pack:
    handlers = Handlers[None]()

    @handlers.on(AddLabels)
    def add(command: AddLabels, ctx) -> Result:
        import numpy as np

        with Changes() as changes:
            layer = added(
                ctx.viewer, ctx.viewer.add_labels(np.zeros((8, 8), np.uint8), name="cells"), changes
            )
        return Result.success(f"added {layer.name}.", undo=changes)

    return Pack("labels-test", (AddLabels,), handlers=handlers)


def test_undo_removing_a_layer_painted_on_since_asks_the_person(make_napari_viewer):
    viewer = make_napari_viewer()
    session = Session(viewer, registry=Registry([*default_registry().packs, _labels_pack()]))
    assert session.execute({"action": "add_test_labels"}).ok
    assert session.judge(validated(session, action="undo_last_action"), "person") is None
    viewer.layers["cells"].paint((2, 2), 7)
    asked = []
    turn = session.run("undo", ask=lambda a: asked.append(a) or False)
    assert not turn.ok and "cells" in [layer.name for layer in viewer.layers]
    assert len(asked) == 1 and "layer 'cells'" in asked[0].question
    assert session.run("undo", ask=lambda a: True).ok
    assert "cells" not in [layer.name for layer in viewer.layers]


# -- each command judged when its turn to run comes ----------------------------------------------


@pytest.fixture
def model_session(session, llm_settings):
    session.llm = LLMRoad(session.registry, llm_settings)
    return session


def _two_undos(chat_server):
    from support.chat_server import tool_call

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
    turn = session.run("tidy up please", ask=lambda a: asked.append(a) or False)
    assert [a.action for a in asked] == ["undo_last_action"], "asked once, for the undo of the file"
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
    turn = session.run("tidy up please", ask=lambda a: True)
    assert turn.ok, turn.message
    assert not (tmp_path / "notes" / "a.md").exists()


def test_a_second_undo_waits_in_the_dock(
    qtbot, make_napari_viewer_proxy, llm_settings, chat_server, tmp_path
):
    from qtpy.QtCore import Qt

    from napari_talk._qt.dock import ChatDock
    from napari_talk.core.running.settings import FileStore, Settings
    from napari_talk.core.viewer.access import camera

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
    from napari_talk.core.running.settings import FileStore

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

    def confirm(approval, _timeout, _gone):
        asked.append(session.explain(approval))
        if len(asked) == 1:
            assert session.execute({"action": "write_file", "path": "b.md", "content": "mine"}).ok
            return True
        return False

    text, _, is_error = Bridge(session, confirm=confirm).call("undo_last_action", {})
    assert is_error and "not confirmed" in text
    assert len(asked) == 2 and "a.md" in asked[0] and "b.md" in asked[1], asked
    assert (tmp_path / "b.md").read_text() == "mine" and (tmp_path / "a.md").read_text() == "first"


def test_a_file_put_back_by_undo_is_the_persons_again(session, tmp_path):
    (tmp_path / "notes.md").write_text("mine")
    assert session.execute({"action": "write_file", "path": "notes.md", "content": "draft"}).ok
    assert session.run("undo").ok and (tmp_path / "notes.md").read_text() == "mine"
    again = session.execute({"action": "write_file", "path": "notes.md", "content": "x"}, origin="model")
    assert again.approval is not None and (tmp_path / "notes.md").read_text() == "mine"
    redone = session.run("redo")
    assert redone.ok, "the person's redo repeats the change they made over what the undo put back"
    assert (tmp_path / "notes.md").read_text() == "draft"


def test_the_persons_undo_of_a_layer_they_painted_waits_in_the_dock(
    qtbot, make_napari_viewer_proxy, tmp_path
):
    """napari-talk makes a labels layer, the person paints on it, then types "undo" in the dock:
    the dock asks before removing their work, naming the layer; Cancel keeps it."""
    from qtpy.QtCore import Qt

    from napari_talk._qt.dock import ChatDock
    from napari_talk.core.running.settings import FileStore

    viewer = make_napari_viewer_proxy()
    registry = Registry([*default_registry().packs, _labels_pack()])
    dock = ChatDock(viewer, store=FileStore(tmp_path / "settings.json"), registry=registry)
    viewer.window.add_dock_widget(dock, name="Chat")
    assert dock.session.execute({"action": "add_test_labels"}).ok
    viewer.layers["cells"].paint((3, 3), 5)
    dock.send("undo")
    qtbot.waitUntil(lambda: dock.cancel_button.isVisibleTo(dock), timeout=10_000)
    assert "layer 'cells'" in dock.confirm_label.text(), dock.confirm_label.text()
    qtbot.mouseClick(dock.cancel_button, Qt.MouseButton.LeftButton)
    assert "cells" in [layer.name for layer in viewer.layers]
    assert "not confirmed" in dock.transcript.entries[-1].text
    dock.send("undo")
    qtbot.waitUntil(lambda: dock.run_button.isVisibleTo(dock), timeout=10_000)
    qtbot.mouseClick(dock.run_button, Qt.MouseButton.LeftButton)
    assert "cells" not in [layer.name for layer in viewer.layers]
