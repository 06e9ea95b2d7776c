"""The road's own faults, against a real HTTP server on 127.0.0.1 and the real openai client:
tools are offered with ``tool_choice``, a schema form the server refuses is given up for the next by
itself (said once), a line has one total deadline, a body is capped while it is read, and a client
that gives up closes the stream so the server stops generating."""

from __future__ import annotations

import json
import time

import pytest
from support.chat_server import ChatServer, Honours, Scripted, tool_call

from napari_talk.core.chat.client import MAX_REPLY_CHARS
from napari_talk.core.chat.settings import LLMSettings
from napari_talk.core.llm.road import REPLY_TOKENS, LLMRoad
from napari_talk.core.running.session import Session


@pytest.fixture
def server():
    with ChatServer() as running:
        yield running


def offline_session(tmp_path, server: ChatServer, **settings) -> Session:
    """A session without a viewer: the road, the files pack and the rest, with a model at ``server``."""
    session = Session(None, workspace=tmp_path)
    options = {"model": "scripted", "base_url": server.url, "timeout": 5, "max_retries": 0, **settings}
    session.llm = LLMRoad(session.registry, LLMSettings(**options))
    return session


def test_tools_mode_asks_the_server_to_choose_among_the_tools(tmp_path, server):
    session = offline_session(tmp_path, server, mode="tools")
    server.say(tool_calls=[tool_call("list_files", {})])
    server.say("Your workspace is empty.")
    turn = session.run("what have I got in the workspace folder?")
    assert server.requests[0]["tool_choice"] == "auto" and server.requests[0]["tools"]
    assert server.requests[0]["stream"] is True
    assert turn.commands[0].action == "list_files", turn.message


def test_a_server_that_refuses_json_schema_is_asked_with_a_schema_on_json_object_and_told_once(
    tmp_path, server
):
    session = offline_session(tmp_path, server, mode="schema", schema_form="json_schema")
    server.honours = Honours(forms=frozenset({"json_object"}))
    refusal = b'{"error": {"message": "response_format json_schema not supported"}}'
    server.replies.append(Scripted(status=500, raw=refusal))
    first = session.run("make me some pretty thing to look at")
    assert server.requests[0]["response_format"]["type"] == "json_schema"
    assert server.requests[1]["response_format"]["type"] == "json_object"
    assert "schema" in server.requests[1]["response_format"]
    assert "does not take a schema as json_schema" in first.message
    assert "failed (500)" not in first.message
    second = session.run("and another pretty thing please")
    assert server.requests[2]["response_format"]["type"] == "json_object", "the form learned is kept"
    assert "does not take a schema" not in second.message, "said once"


def test_the_last_fallback_is_plain_json_mode(tmp_path, server):
    session = offline_session(tmp_path, server, mode="schema")
    refusal = b'{"error": {"message": "unsupported response_format"}}'
    server.replies += [Scripted(status=400, raw=refusal), Scripted(status=400, raw=refusal)]
    server.say('{"commands": [{"action": "list_files"}]}')
    session.run("what have I got in the workspace folder?")
    assert server.requests[2]["response_format"] == {"type": "json_object"}
    assert session.llm.form is None


def test_a_server_trickling_a_byte_at_a_time_is_cut_off_at_the_lines_deadline(tmp_path, server):
    session = offline_session(tmp_path, server, timeout=1.5)
    server.say('{"commands": [{"action": "list_files"}]}', trickle=0.05)  # ~60 bytes a second
    started = time.monotonic()
    turn = session.run("what have I got in the workspace folder?")
    spent = time.monotonic() - started
    assert spent < 4, f"the line took {spent:.1f} s against a 1.5 s limit"
    assert not turn.ok and "1.5 s, the limit for one line" in turn.message and "nothing ran" in turn.message


def test_a_huge_body_is_refused_while_it_is_read(tmp_path, server):
    session = offline_session(tmp_path, server, timeout=30)
    flood = 300 * MAX_REPLY_CHARS  # 600 MB, never read whole
    server.replies.append(Scripted(raw=b"", flood=flood))
    started = time.monotonic()
    turn = session.run("what have I got in the workspace folder?")
    assert not turn.ok and "not read further" in turn.message, turn.message
    assert time.monotonic() - started < 20
    deadline = time.monotonic() + 5
    while server.abandoned < 1 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert server.abandoned == 1, "the client closed the connection instead of draining it"


def test_a_client_that_gives_up_closes_the_stream_and_the_server_stops(tmp_path, server):
    session = offline_session(tmp_path, server, timeout=1)
    server.say('{"commands": []}', generating=30)
    turn = session.run("what have I got in the workspace folder?")
    assert not turn.ok and "did not answer within 1 s" in turn.message
    deadline = time.monotonic() + 5
    while server.abandoned < 1 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert server.abandoned == 1, "the server went on generating for a line nobody waits for"


def test_a_server_silent_after_its_headers_ends_the_turn_at_its_deadline_with_a_sentence(tmp_path, server):
    session = offline_session(tmp_path, server, timeout=1)
    server.say('{"commands": []}', stall=10)
    started = time.monotonic()
    outcome = session.ask_llm("what have I got in the workspace folder?")
    assert outcome.error is not None and "did not answer within 1 s" in outcome.error, outcome.error
    assert time.monotonic() - started < 8, "the turn waited for the server instead of its deadline"


def test_replies_are_bounded_per_step_on_a_local_server(tmp_path, server):
    session = offline_session(tmp_path, server, mode="steps")
    server.say('{"commands": ["list_files"]}')
    server.say('{"commands": [{"action": "list_files"}]}')
    session.run("what have I got in the workspace folder?")
    assert server.requests[0]["max_tokens"] == REPLY_TOKENS["choose"]
    assert server.requests[1]["max_tokens"] == REPLY_TOKENS["fill"]


def test_a_streamed_tool_call_in_pieces_is_put_back_together(tmp_path, server):
    session = offline_session(tmp_path, server, mode="tools")
    server.say(tool_calls=[tool_call("write_file", {"path": "notes/a.txt", "content": "hello there"})])
    outcome = session.ask_llm("put a greeting in notes/a.txt")
    assert outcome.error is None, outcome.error
    (command,) = outcome.commands
    assert command.action == "write_file" and command.to_wire()["content"] == "hello there"


def test_a_non_streaming_server_still_works(tmp_path, server):
    session = offline_session(tmp_path, server, mode="json")
    server.streams = False
    server.say(json.dumps({"commands": [{"action": "list_files"}]}))
    server.say(json.dumps({"say": "The workspace folder is empty."}))
    outcome = session.ask_llm("what have I got in the workspace folder?")
    assert outcome.error is None and [c.action for c, _ in outcome.read] == ["list_files"]
    assert outcome.spoken == "The workspace folder is empty."
