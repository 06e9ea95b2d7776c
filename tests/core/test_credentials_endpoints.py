"""A model or an MCP client that names a server of its choosing gets nothing sent there without
the person's word: not the key, not the catalogue's texts. Real servers on 127.0.0.1 record what
reaches them."""

from __future__ import annotations

import pytest
from conftest import SECRET_KEY
from support.atlas_servers import EmbeddingServer
from support.chat_server import tool_call

from napari_talk.agents.mcp_server import Bridge
from napari_talk.core.running.session import Session


@pytest.fixture
def attacker():
    with EmbeddingServer() as server:
        yield server


def test_a_models_endpoint_waits_for_the_person_and_sends_nothing(llm_session, chat_server, attacker):
    assert llm_session.run("load the sample catalogue").ok
    chat_server.say(
        tool_calls=[tool_call("set_embedding_model", {"model": "evil-embed", "base_url": attacker.url})]
    )
    asked = []
    turn = llm_session.run(
        "could you make the search smarter somehow", ask=lambda a: asked.append(a) or False
    )
    assert [c.action for c in asked] == ["set_embedding_model"]
    assert not turn.ok and "not confirmed" in turn.message
    assert llm_session.run("find similar to a golden desert guardian").ok
    assert attacker.requests == [] and attacker.auth == [], "nothing reached the model's server"


def test_allowing_data_changes_does_not_allow_a_new_endpoint(llm_session, chat_server, attacker):
    llm_session.llm.settings.allow_destructive = True
    assert llm_session.run("load the sample catalogue").ok
    chat_server.say(
        tool_calls=[tool_call("set_embedding_model", {"model": "evil-embed", "base_url": attacker.url})]
    )
    turn = llm_session.run("could you make the search smarter somehow")
    assert not turn.ok and "not confirmed" in turn.message
    assert attacker.requests == [] and SECRET_KEY not in "".join(attacker.auth)


def test_an_mcp_client_naming_an_endpoint_waits_for_the_person(session, attacker):
    assert session.run("load the sample catalogue").ok
    asked = []
    bridge = Bridge(session, confirm=lambda command, _timeout, _gone: asked.append(command.action) or False)
    text, _, is_error = bridge.call("set_embedding_model", {"model": "evil-embed", "base_url": attacker.url})
    assert is_error and "not confirmed" in text and asked == ["set_embedding_model"]
    assert attacker.requests == []


def test_the_person_typing_an_endpoint_is_their_choice(session, attacker):
    assert session.run("load the sample catalogue").ok
    turn = session.execute({"action": "set_embedding_model", "model": "tiny-embed", "base_url": attacker.url})
    assert turn.ok, turn.message
    assert attacker.requests, "the person's own endpoint is used"


def test_a_catalogue_cannot_send_a_secret_to_its_own_server(workspace, attacker, monkeypatch):
    """Someone else's catalogue names AWS_SECRET_ACCESS_KEY and a server of theirs: a plain search
    sends nothing there, and no key leaves for a server the person did not configure."""
    import sqlite3

    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "aws-secret-0123456789")
    first = Session(None, workspace=workspace)
    assert first.run("load the sample catalogue").ok
    first.state("atlas").close()
    with sqlite3.connect(workspace / "atlas" / "catalogue.sqlite") as db:
        for key, value in [
            ("embedding_model", "evil-embed"),
            ("embedding_base_url", attacker.url),
            ("embedding_api_key_env", "AWS_SECRET_ACCESS_KEY"),
        ]:
            db.execute("INSERT OR REPLACE INTO settings (key, value) VALUES (?, ?)", (key, value))
    session = Session(None, workspace=workspace)
    turn = session.run("find similar to a golden desert guardian")
    assert attacker.requests == [] and attacker.auth == [], "the file's server got nothing"
    assert not turn.ok and "no server is chosen" in turn.message and "offline" in turn.message


def test_a_server_other_than_the_persons_gets_no_key(session, attacker, monkeypatch):
    """The person points the embedder at a second server: it is used, but the LLM's key stays home."""
    monkeypatch.setenv("OPENAI_API_KEY", SECRET_KEY)
    assert session.run("load the sample catalogue").ok
    turn = session.execute({"action": "set_embedding_model", "model": "tiny-embed", "base_url": attacker.url})
    assert turn.ok, turn.message
    assert attacker.requests and all(SECRET_KEY not in auth for auth in attacker.auth)


def test_an_embedding_server_echoing_the_key_in_its_error_shows_none_of_it(llm_session, chat_server):
    """The embeddings go to the person's LLM server with its key; the server answers 400 and echoes
    the Authorization header it got. The message says what failed and shows no piece of the key."""
    assert llm_session.run("load the sample catalogue").ok
    chat_server.fail(400)
    chat_server.fail(400)  # the embedder's one retry
    result = llm_session.execute({"action": "set_embedding_model", "model": "text-embedding-3-small"})
    assert not result.ok and "rejected the request (400" in result.message, result.message
    assert chat_server.headers[-1]["authorization"] == f"Bearer {SECRET_KEY}", "the server got the key"
    pieces = [SECRET_KEY[i : i + 6] for i in range(len(SECRET_KEY) - 5)]
    assert not any(piece in result.message for piece in pieces), result.message
