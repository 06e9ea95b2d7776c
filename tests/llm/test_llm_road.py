"""The LLM road against a real HTTP server that scripts Chat Completions replies,
with the real openai client and a real napari viewer."""

from __future__ import annotations

import json
import logging

import pytest
from conftest import SECRET_KEY
from support.chat_server import tool_call

from napari_talk.core.chat.client import LOCAL_REPLY_TOKENS
from napari_talk.core.llm.road import REPLY_TOKENS, LLMRoad
from napari_talk.core.viewer.access import camera


def test_a_tool_call_runs_and_the_request_carries_tools_and_context(llm_session, chat_server, cells_viewer):
    chat_server.say(tool_calls=[tool_call("layer_visibility", {"name": "nuclei", "op": "hide"})])
    turn = llm_session.run("make the nuclei go away, I can't stand them")
    assert turn.road == "llm" and turn.ok, turn.message
    assert not cells_viewer.layers["nuclei"].visible
    request = chat_server.requests[0]
    assert request["model"] == "scripted-model"
    names = {t["function"]["name"] for t in request["tools"]}
    assert "layer_visibility" in names and len(names) <= llm_session.llm.settings.shortlist
    assert "oneOf" not in json.dumps(request["tools"]) and '"null"' not in json.dumps(request["tools"])
    system = request["messages"][0]["content"]
    # the facts a person sees: kind, colormap, contrast, shape, opacity; the camera
    assert "cell boundaries (image, magenta, contrast " in system and "spots (60 points" in system
    assert "Labels (labels, 512x512, opacity 0.4)" in system and "Camera: zoom " in system
    assert request["messages"][1] == {
        "role": "user",
        "content": "make the nuclei go away, I can't stand them (Named in this line: layer 'nuclei'.)",
    }
    assert chat_server.headers[0]["authorization"] == f"Bearer {SECRET_KEY}"


@pytest.mark.parametrize(
    "content",
    [
        '{"action": "set_zoom", "zoom": 4}',
        '[{"action": "set_zoom", "zoom": 4}]',
        '{"command": {"action": "set_zoom", "zoom": 4}}',
        'Sure!\n```json\n{"action": "set_zoom", "zoom": 4}\n```',
    ],
    ids=["bare", "list", "command-key", "fenced"],
)
def test_json_replies_in_every_accepted_shape(llm_session, chat_server, cells_viewer, content):
    chat_server.say(content)
    turn = llm_session.run("magnify four times please, thank you so much")
    assert turn.ok, turn.message
    assert camera(cells_viewer).zoom == pytest.approx(4)


def test_the_seed_envelope_speaks_and_sets_the_generative_prompt(llm_session, chat_server, cells_viewer):
    envelope = {
        "spoken": "Hiding the actin for you.",
        "instruction": {"tool_name": "layer_visibility", "parameters": {"name": "actin", "op": "hide"}},
        "user_prompt": "a crisp fluorescence micrograph, green and magenta",
    }
    chat_server.say(json.dumps(envelope))
    turn = llm_session.run("would you kindly conceal those filaments")
    assert turn.ok and turn.spoken == "Hiding the actin for you."
    assert not cells_viewer.layers["actin"].visible
    assert llm_session.state("mesh").generative_prompt == "a crisp fluorescence micrograph, green and magenta"


def test_an_invalid_reply_is_sent_back_once_and_the_fix_runs(llm_session, chat_server, cells_viewer):
    chat_server.say(tool_calls=[tool_call("layer_opacity", {"name": "GFP", "opacity": 5})])
    chat_server.say(tool_calls=[tool_call("layer_opacity", {"name": "GFP", "opacity": 0.5}, "call_2")])
    turn = llm_session.run("GFP to half strength")
    assert turn.ok, turn.message
    assert cells_viewer.layers["GFP"].opacity == pytest.approx(0.5)
    feedback = chat_server.requests[1]["messages"][-1]
    assert feedback["role"] == "tool" and feedback["tool_call_id"] == "call_1"
    assert "opacity" in feedback["content"] and "less than or equal to 1" in feedback["content"]


def test_invalid_twice_runs_nothing_and_says_what_was_understood(llm_session, chat_server, cells_viewer):
    for _ in range(2):
        chat_server.say('{"action": "set_zoom", "zoom": -3}')
    before = camera(cells_viewer).zoom
    turn = llm_session.run("zoom to minus three")
    assert not turn.ok and len(chat_server.requests) == 2
    assert "nothing ran" in turn.message and "set_zoom" in turn.message and "Nearest commands" in turn.message
    assert camera(cells_viewer).zoom == before


def test_an_unknown_tool_is_refused(llm_session, chat_server):
    chat_server.say(tool_calls=[tool_call("execute_code", {"code": "import os; os.remove('x')"})])
    chat_server.say(tool_calls=[tool_call("execute_code", {"code": "import os"}, "call_2")])
    turn = llm_session.run("run some python for me")
    assert not turn.ok and "there is no command 'execute_code'" in turn.message


def test_a_plain_answer_to_a_request_is_a_suggestion_not_an_answer(llm_session, chat_server):
    chat_server.say("I can't blur images, but I can change contrast or colormaps.")
    turn = llm_session.run("blur the image")
    assert not turn.ok and turn.commands == [] and turn.spoken is None
    assert "The model suggested (nothing was done): I can't blur images" in turn.message


def test_a_plain_answer_to_a_question_is_spoken(llm_session, chat_server):
    chat_server.say("Blurring is not something I can do; contrast and colormaps I can change.")
    turn = llm_session.run("can the image be blurred here?")
    assert turn.ok and turn.commands == [] and turn.spoken.startswith("Blurring is not")


def test_read_only_commands_chain_for_two_rounds(llm_session, chat_server):
    chat_server.say(tool_calls=[tool_call("list_layers", {})])
    chat_server.say(tool_calls=[tool_call("help", {"topic": "contrast"}, "call_2")])
    chat_server.say("You have 6 layers; actin and GFP are images whose contrast you can set.")
    turn = llm_session.run("what do I have here and what can I do with the images?")
    assert turn.ok and [c.action for c in turn.commands] == ["list_layers", "help"]
    assert len(chat_server.requests) == 3
    second = chat_server.requests[1]["messages"]
    assert second[-1]["role"] == "tool" and "spots" in second[-1]["content"]
    assert turn.spoken.startswith("You have 6 layers")


def test_the_model_sees_the_tools_of_the_packs_in_play(llm_session, chat_server):
    llm_session.llm = LLMRoad(
        llm_session.registry, llm_session.llm.settings.model_copy(update={"shortlist": 0})
    )
    chat_server.say("ok")
    chat_server.say("ok")
    llm_session.run("please tint the blue blobs a bit greener")
    llm_session.run("which rays leave the prism through its top face")
    first, second = ({t["function"]["name"] for t in r["tools"]} for r in chat_server.requests)
    assert "layer_visibility" in first and "read_file" in first
    assert not any(name.startswith("find_rays") for name in first)
    assert "find_rays_crossing_edge" in second and "layer_visibility" in second


LOOKUPS = ("list_layers", "list_files", "list_tasks", "help")


def test_at_most_three_lookups_per_request(llm_session, chat_server):
    for i, action in enumerate(LOOKUPS):
        chat_server.say(tool_calls=[tool_call(action, {}, f"call_{i}")])
    turn = llm_session.run("tell me everything about everything, over and over")
    assert len(chat_server.requests) == 4 and [c.action for c in turn.commands] == list(LOOKUPS[:3])
    assert not turn.ok and "more than 3 lookups" in turn.message


def test_a_model_asking_again_for_what_it_read_ends_its_turn_with_what_it_read(llm_session, chat_server):
    for i in range(4):
        chat_server.say(tool_calls=[tool_call("list_layers", {}, f"call_{i}")])
    turn = llm_session.run("tell me everything about everything, over and over")
    assert len(chat_server.requests) == 2 and [c.action for c in turn.commands] == ["list_layers"]
    assert turn.ok and "nuclei" in turn.message


def test_a_destructive_command_waits_for_confirmation(llm_session, chat_server, cells_viewer):
    chat_server.say(tool_calls=[tool_call("remove_layer", {"name": "spots"})])
    turn = llm_session.run("get those dots out of here")
    assert not turn.ok and "not confirmed" in turn.message
    assert "spots" in [layer.name for layer in cells_viewer.layers]
    asked = []
    chat_server.say(tool_calls=[tool_call("remove_layer", {"name": "spots"})])
    turn = llm_session.run("get those dots out of here", ask=lambda risky: asked.append(risky) or True)
    assert turn.ok and [a.action for a in asked] == ["remove_layer"]
    assert "spots" not in [layer.name for layer in cells_viewer.layers]


def test_json_mode_sends_response_format_and_no_tools(llm_session, chat_server, cells_viewer):
    llm_session.llm = LLMRoad(
        llm_session.registry, llm_session.llm.settings.model_copy(update={"mode": "json"})
    )
    chat_server.say('{"commands": [{"action": "grid_mode", "op": "on"}]}')
    turn = llm_session.run("tile everything next to each other")
    assert turn.ok, turn.message
    request = chat_server.requests[0]
    assert request["response_format"] == {"type": "json_object"} and "tools" not in request
    assert "grid_mode(op: on|off|toggle)" in request["messages"][0]["content"]


@pytest.mark.parametrize(
    ("script", "expected"),
    [
        (lambda s: s.fail(500), "failed (500)"),
        (lambda s: s.fail(401), "refused the API key (401): check NAPARI_TALK_TEST_KEY"),
        (lambda s: s.fail(404), "has no model 'scripted-model'"),
        (lambda s: s.fail(429, headers={"retry-after": "0"}), "rate limiting (429)"),
        (lambda s: s.fail(400), "rejected the request (400: "),
    ],
    ids=["500", "401", "404", "429", "400"],
)
def test_http_errors_give_one_line_with_cause_and_fix(llm_session, chat_server, script, expected, caplog):
    script(chat_server)
    with caplog.at_level(logging.DEBUG):
        turn = llm_session.run("do the thing with the stuff")
    assert not turn.ok and expected in turn.message
    assert "Traceback" not in turn.message
    assert SECRET_KEY not in turn.message and SECRET_KEY not in caplog.text


def test_429_then_success_retries(llm_session, chat_server, cells_viewer):
    llm_session.llm = LLMRoad(
        llm_session.registry, llm_session.llm.settings.model_copy(update={"max_retries": 2})
    )
    chat_server.fail(429, headers={"retry-after-ms": "10"})
    chat_server.say(tool_calls=[tool_call("scale_bar", {"op": "show"})])
    turn = llm_session.run("I'd love a ruler on the picture")
    assert turn.ok, turn.message
    assert len(chat_server.requests) == 2


def test_a_timeout_says_so_and_the_session_goes_on(llm_session, chat_server):
    llm_session.llm = LLMRoad(
        llm_session.registry, llm_session.llm.settings.model_copy(update={"timeout": 0.5})
    )
    chat_server.say('{"action": "help"}', delay=2)
    turn = llm_session.run("ponder the meaning of it all")
    assert not turn.ok and "did not answer within 0.5 s" in turn.message
    assert llm_session.run("hide nuclei").ok


def test_connection_refused_names_the_server(llm_session):
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    settings = llm_session.llm.settings.model_copy(update={"base_url": f"http://127.0.0.1:{port}/v1"})
    llm_session.llm = LLMRoad(llm_session.registry, settings)
    turn = llm_session.run("anything at all really")
    assert not turn.ok and f"cannot reach http://127.0.0.1:{port}/v1" in turn.message


def test_a_missing_key_says_how_to_set_one(llm_session, monkeypatch):
    monkeypatch.delenv("NAPARI_TALK_TEST_KEY")
    settings = llm_session.llm.settings.model_copy(update={"base_url": "https://llm.example.org/v1"})
    llm_session.llm = LLMRoad(llm_session.registry, settings)
    turn = llm_session.run("anything at all really")
    assert not turn.ok and "set NAPARI_TALK_TEST_KEY" in turn.message


def test_without_a_model_the_parser_road_works_and_the_reply_says_how_to_set_one_up(session):
    assert session.run("hide nuclei").ok
    turn = session.run("blur the image")
    assert turn.road == "none" and "docs/llm.md" in turn.message
    assert "no LLM configured" in session.llm_status()


def test_a_local_server_is_asked_for_a_reply_of_bounded_length(llm_session, chat_server):
    """A small local model held to a schema can otherwise generate until its context is full."""
    chat_server.say("GFP is a green fluorescent protein.")
    llm_session.run("what is GFP, in one sentence?")
    assert chat_server.requests[0]["max_tokens"] == REPLY_TOKENS["reply"] <= LOCAL_REPLY_TOKENS
