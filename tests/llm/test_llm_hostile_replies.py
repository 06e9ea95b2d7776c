"""Whatever a server sends back, the person gets one clear line and a usable session.

A real HTTP server on 127.0.0.1 scripts each reply body; the real openai client fetches it.
"""

from __future__ import annotations

import json
import time

import pytest
from conftest import SECRET_KEY
from support.chat_server import tool_call

from napari_talk.core.chat.client import redact
from napari_talk.core.llm.road import MAX_COMMANDS_PER_REPLY


def completion(message) -> str:
    return json.dumps({"id": "x", "object": "chat.completion", "model": "m", "choices": [message]})


HOSTILE_BODIES = [
    pytest.param("this is not json", "text/plain", "did not answer in JSON", id="plain text"),
    pytest.param(
        "<html><body>502 Bad Gateway</body></html>", "text/html", "did not answer in JSON", id="html"
    ),
    pytest.param(json.dumps({"choices": [None]}), "application/json", "without a reply", id="choices null"),
    pytest.param(json.dumps({"choices": []}), "application/json", "without a reply", id="no choices"),
    pytest.param(completion({"message": None}), "application/json", "without a reply", id="message null"),
    pytest.param(json.dumps([1, 2, 3]), "application/json", "without a reply", id="a list"),
    pytest.param(
        json.dumps({"error": {"message": "model overloaded"}}),
        "application/json",
        "model overloaded",
        id="error",
    ),
    pytest.param("[" * 100_000, "application/json", "did not answer in JSON", id="deep body"),
]


@pytest.mark.parametrize(("body", "content_type", "says"), HOSTILE_BODIES)
def test_a_hostile_body_ends_in_a_line_and_the_session_goes_on(
    llm_session, chat_server, body, content_type, says
):
    chat_server.send_raw(body, content_type)
    turn = llm_session.run("do the thing with the stuff over there")
    assert turn.road == "llm" and not turn.ok and says in turn.message, turn.message
    chat_server.say(tool_calls=[tool_call("set_zoom", {"zoom": 2})])
    assert llm_session.run("and now something else: a zoom of two").ok, "the session is still usable"


@pytest.mark.parametrize(
    "message",
    [
        {"role": "assistant", "content": "[" * 100_000},
        {"role": "assistant", "content": None, "tool_calls": [tool_call("set_zoom", "[" * 100_000)]},
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [{"id": "1", "type": "function", "function": None}],
        },
        {"role": "assistant", "content": [{"type": "text", "text": 42}]},
    ],
    ids=["deep content", "deep arguments", "function null", "odd content parts"],
)
def test_hostile_content_is_re_asked_then_answered(llm_session, chat_server, message):
    chat_server.send_raw(completion({"index": 0, "message": message}))
    chat_server.send_raw(completion({"index": 0, "message": message}))
    turn = llm_session.run("do the thing with the stuff over there")
    assert turn.road == "llm" and isinstance(turn.message, str) and turn.message
    assert llm_session.run("zoom to 2").ok


def test_too_many_commands_in_one_reply_run_none(llm_session, chat_server, cells_viewer):
    """500 toggles in one reply: none runs (a body of megabytes is refused unread before that)."""
    calls = [tool_call("layer_visibility", {"name": "nuclei", "op": "toggle"}, f"c{i}") for i in range(500)]
    chat_server.say(tool_calls=calls)
    turn = llm_session.run("flicker the nuclei for a while")
    assert not turn.ok and f"at most {MAX_COMMANDS_PER_REPLY}" in turn.message
    assert cells_viewer.layers["nuclei"].visible, "nothing ran"


INVENTED = [
    pytest.param("make_layer_transparent('nuclei', 0.5)", id="alone"),
    pytest.param("Sure! make_layer_transparent('DAPI', 0.5)", id="after words"),
    pytest.param(
        "Here you go:\n```python\nmake_layer_transparent(layer='nuclei', alpha=0.5)\n```", id="fenced"
    ),
    pytest.param(
        "To do that, run\n\n    viewer.layers['nuclei'].set_opacity(0.5)\n\nand it is done.", id="a line"
    ),
    pytest.param('{"say": "make_layer_transparent(\'nuclei\', 0.5)"}', id="said in JSON"),
    pytest.param("<tool_call>make_layer_transparent('nuclei', 0.5)</tool_call>", id="tagged"),
]


@pytest.mark.parametrize("invented", INVENTED)
def test_invented_function_syntax_is_sent_back_with_the_commands_then_the_fix_runs(
    llm_session, chat_server, cells_viewer, invented
):
    chat_server.say(invented)
    chat_server.say(tool_calls=[tool_call("layer_opacity", {"name": "nuclei", "opacity": 0.5})])
    turn = llm_session.run("let me see through the nuclei a bit")
    assert turn.ok and turn.spoken is None, turn.message
    assert cells_viewer.layers["nuclei"].opacity == pytest.approx(0.5)
    assert len(chat_server.requests) == 2, "the invented call was sent back to be fixed"
    note = chat_server.requests[1]["messages"][-1]["content"]
    offered = [tool["function"]["name"] for tool in chat_server.requests[0]["tools"]]
    assert "there is no command" in note and f"The commands are: {', '.join(offered)}." in note


def test_invented_twice_shows_the_nearest_commands_and_never_the_invention(
    llm_session, chat_server, cells_viewer
):
    chat_server.say("Sure! make_layer_transparent('nuclei', 0.5)")
    chat_server.say('```\nset_layer_alpha("nuclei", 0.5)\n```')
    turn = llm_session.run("let me see through the nuclei a bit")
    assert not turn.ok and turn.spoken is None and not turn.commands
    assert "Nearest commands" in turn.message and "set_layer_alpha" in turn.message, turn.message
    assert "Sure!" not in turn.message
    assert cells_viewer.layers["nuclei"].opacity == pytest.approx(1.0)


def test_a_real_command_written_as_a_call_is_asked_for_again_as_json(llm_session, chat_server, cells_viewer):
    chat_server.say("layer_opacity(name='nuclei', opacity=0.5)")
    chat_server.say('{"action": "layer_opacity", "name": "nuclei", "opacity": 0.5}')
    assert llm_session.run("let me see through the nuclei a bit").ok
    note = chat_server.requests[1]["messages"][-1]["content"]
    assert 'reply with JSON, {"action": "layer_opacity"' in note


@pytest.mark.parametrize(
    "prose",
    [
        "GFP is a fluorescent protein (27 kDa) first found in jellyfish; it marks the layer(s) you loaded.",
        "Contrast is the spread of f(x) around its mean (roughly).",
        "I can't blur images, but I can change contrast or colormaps (try 'auto contrast GFP').",
    ],
)
def test_prose_with_parentheses_is_shown_as_the_answer(llm_session, chat_server, prose):
    chat_server.say(prose)
    turn = llm_session.run("tell me something about what I am looking at")
    assert turn.ok and turn.spoken == prose and len(chat_server.requests) == 1


SMALL_MODEL_SHAPES = [
    pytest.param(
        '{"action": "layer_opacity", "parameters": {"name": "nuclei", "opacity": 0.25}}',
        id="action-parameters",
    ),
    pytest.param(
        '{"action": "layer_opacity", "parameters": {"name": "nuclei", "opacity": 0.25}, '
        '"reason": "the person wants to see through it"}',
        id="action-parameters-reason",
    ),
    pytest.param(
        '{"action": "layer_opacity", "name": "nuclei", "parameters": {"opacity": 0.25}}',
        id="split parameters",
    ),
    pytest.param(
        '{"name": "layer_opacity", "arguments": {"name": "nuclei", "opacity": 0.25}}', id="name-arguments"
    ),
    pytest.param(
        json.dumps({"name": "layer_opacity", "arguments": json.dumps({"name": "nuclei", "opacity": 0.25})}),
        id="arguments as a JSON string",
    ),
    pytest.param(
        '{"name": "layer_opacity", "parameters": {"name": "nuclei", "opacity": 0.25}}', id="name-parameters"
    ),
    pytest.param(
        '<tool_call>\n{"name": "layer_opacity", "arguments": {"name": "nuclei", "opacity": 0.25}}\n'
        "</tool_call>",
        id="qwen tool_call",
    ),
    pytest.param(
        'I will make it see-through.\n<tool_call>{"name": "layer_opacity", "arguments": '
        '{"name": "nuclei", "opacity": 0.25}}',
        id="tool_call left open",
    ),
    pytest.param(
        '{"type": "function", "function": {"name": "layer_opacity", "arguments": '
        '"{\\"name\\": \\"nuclei\\", \\"opacity\\": 0.25}"}}',
        id="function",
    ),
    pytest.param(
        '[TOOL_CALLS][{"name": "layer_opacity", "arguments": {"name": "nuclei", "opacity": 0.25}}]',
        id="mistral",
    ),
]


@pytest.mark.parametrize("content", SMALL_MODEL_SHAPES)
def test_the_shapes_small_models_write_are_read_and_validated(
    llm_session, chat_server, cells_viewer, content
):
    chat_server.say(content)
    turn = llm_session.run("let me see through the nuclei a bit")
    assert turn.ok, turn.message
    assert cells_viewer.layers["nuclei"].opacity == pytest.approx(0.25)
    assert len(chat_server.requests) == 1


@pytest.mark.parametrize(
    "content",
    [
        '{"name": "layer_opacity", "arguments": {"name": "nuclei", "opacity": 25}}',
        '<tool_call>{"name": "layer_opacity", "arguments": {"name": "nuclei", "opacity": 0.25, "blend": "x"}}'
        "</tool_call>",
        '{"action": "layer_opacity", "parameters": {"name": "nuclei", "opacity": 25}, "reason": "half"}',
    ],
    ids=["out of range", "unknown parameter", "wrapped out of range"],
)
def test_those_shapes_are_validated_like_any_other(llm_session, chat_server, cells_viewer, content):
    chat_server.say(content)
    chat_server.say(content)
    turn = llm_session.run("let me see through the nuclei a bit")
    assert not turn.ok and "not a valid command twice" in turn.message
    assert cells_viewer.layers["nuclei"].opacity == pytest.approx(1.0)


def test_a_long_retry_after_is_not_waited_beyond_the_timeout(llm_session, chat_server):
    llm_session.llm.settings.timeout = 1
    llm_session.llm.settings.max_retries = 2
    chat_server.fail(429, headers={"Retry-After": "50"})
    started = time.perf_counter()
    turn = llm_session.run("do the thing with the stuff over there")
    assert time.perf_counter() - started < 3
    assert not turn.ok and "429" in turn.message
    assert len(chat_server.requests) == 1, "no retry that the timeout cannot hold"


def test_a_short_retry_after_is_honoured(llm_session, chat_server):
    llm_session.llm.settings.max_retries = 1
    chat_server.fail(429, headers={"Retry-After": "0.2"})
    chat_server.say(tool_calls=[tool_call("set_zoom", {"zoom": 2})])
    assert llm_session.run("do the zoom thing with the stuff, two times over").ok
    assert len(chat_server.requests) == 2


def test_the_key_is_hidden_before_the_cut_and_in_pieces():
    key = SECRET_KEY
    assert key not in redact(f"auth Bearer {key} failed", key)
    for start, end in [(0, 28), (3, 31), (5, 20), (0, 6)]:
        piece = key[start:end]
        shown = redact("x" * 390 + f" Bearer {piece} rest", key)
        assert piece not in shown, piece
    split = redact(f"Bearer {key[:12]}\n{key[12:]}", key)
    assert key[:12] not in split and key[12:] not in split
    assert redact("a" * 1000, key).endswith("…") and len(redact("a" * 1000, key)) == 401


def test_error_messages_from_the_server_never_carry_the_key(llm_session, chat_server):
    chat_server.fail(400)  # the scripted server echoes the Authorization header in its error text
    turn = llm_session.run("do the thing with the stuff over there")
    assert not turn.ok and SECRET_KEY[:6] not in turn.message and SECRET_KEY[-6:] not in turn.message
