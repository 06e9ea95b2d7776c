"""Whatever a server sends back, the person gets one clear line and a usable session.

A real HTTP server on 127.0.0.1 scripts each reply body; the real openai client fetches it.
"""

from __future__ import annotations

import json
import time

import pytest
from chat_server import tool_call
from conftest import SECRET_KEY

from napari_talk.core.llm.client import redact
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
    assert llm_session.run("and now something else entirely").ok, "the session is still usable"


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


def test_invented_function_syntax_is_not_shown_as_an_answer(llm_session, chat_server, cells_viewer):
    chat_server.say("make_layer_transparent('nuclei', 0.5)")
    chat_server.say(tool_calls=[tool_call("layer_opacity", {"name": "nuclei", "opacity": 0.5})])
    turn = llm_session.run("let me see through the nuclei a bit")
    assert turn.ok and "make_layer_transparent" not in turn.message
    assert cells_viewer.layers["nuclei"].opacity == pytest.approx(0.5)
    assert len(chat_server.requests) == 2, "the invented call was sent back to be fixed"


def test_parameters_wrapped_by_a_small_model_are_accepted(llm_session, chat_server, cells_viewer):
    chat_server.say('{"action": "layer_opacity", "parameters": {"name": "nuclei", "opacity": 0.25}}')
    assert llm_session.run("let me see through the nuclei a bit").ok
    assert cells_viewer.layers["nuclei"].opacity == pytest.approx(0.25)


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
    assert llm_session.run("do the thing with the stuff over there").ok
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
