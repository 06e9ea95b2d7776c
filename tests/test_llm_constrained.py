"""A lean request (the commands a line can mean, compact schemas) and schema mode: the reply held to
the commands in play, live names as enums, in each server's documented form; and the connection test
that finds out what a server honours. Real openai client, real HTTP server on 127.0.0.1."""

from __future__ import annotations

import json

import pytest
from chat_server import Honours

from napari_talk.core.llm.probe import TOKEN, probe
from napari_talk.core.llm.road import LLMRoad
from napari_talk.core.llm.shortlist import Shortlist
from napari_talk.core.registry import default_registry


def _road(session, **update):
    session.llm = LLMRoad(session.registry, session.llm.settings.model_copy(update=update))
    return session


def _commands_in(schema: dict) -> dict[str, dict]:
    items = schema["anyOf"][0]["properties"]["commands"]["items"]["anyOf"]
    return {item["properties"]["action"]["const"]: item for item in items}


def test_schema_mode_holds_the_reply_to_the_commands_and_live_layer_names(
    llm_session, chat_server, cells_viewer
):
    _road(llm_session, mode="schema", schema_form="json_object")
    chat_server.say('{"commands": [{"action": "layer_visibility", "name": "nuclei", "op": "hide"}]}')
    turn = llm_session.run("please make the blue blobs disappear")
    assert turn.road == "llm" and turn.ok, turn.message
    assert not cells_viewer.layers["nuclei"].visible
    request = chat_server.requests[0]
    assert "tools" not in request and request["response_format"]["type"] == "json_object"
    schema = request["response_format"]["schema"]
    offered = _commands_in(schema)
    assert "layer_visibility" in offered and len(offered) <= llm_session.llm.settings.shortlist
    layer_names = [layer.name for layer in cells_viewer.layers]
    assert offered["layer_visibility"]["properties"]["name"] == {"enum": layer_names}
    assert schema["anyOf"][1]["required"] == ["say"]
    # the model reads the commands in its prompt: the schema only holds its pen
    assert "layer_visibility(name: string, op: show|hide|toggle)" in request["messages"][0]["content"]


@pytest.mark.parametrize(
    ("form", "where"),
    [
        ("json_schema", lambda body: body["response_format"]["json_schema"]["schema"]),
        ("json_object", lambda body: body["response_format"]["schema"]),
        ("format", lambda body: body["format"]),
    ],
)
def test_each_server_gets_the_schema_in_its_documented_form(llm_session, chat_server, form, where):
    _road(llm_session, mode="schema", schema_form=form)
    chat_server.say('{"commands": [{"action": "zoom_by", "factor": 2}]}')
    turn = llm_session.run("can you get me closer, like twice")
    assert turn.ok, turn.message
    assert "zoom_by" in _commands_in(where(chat_server.requests[0]))


def test_a_constrained_reply_is_still_validated_and_reasked_under_the_same_schema(llm_session, chat_server):
    _road(llm_session, mode="schema", schema_form="json_object")
    chat_server.say('{"commands": [{"action": "layer_opacity", "name": "GFP", "opacity": 50}]}')
    chat_server.say('{"commands": [{"action": "layer_opacity", "name": "GFP", "opacity": 0.5}]}')
    turn = llm_session.run("I want to see through GFP, half way")
    assert turn.ok, turn.message
    first, second = chat_server.requests
    assert second["response_format"] == first["response_format"]
    assert "opacity" in second["messages"][-1]["content"] and "not valid" in second["messages"][-1]["content"]
    layer = llm_session.viewer.layers["GFP"]
    assert layer.opacity == pytest.approx(0.5)


def test_a_model_that_answers_in_words_is_heard_and_nothing_runs(llm_session, chat_server, cells_viewer):
    _road(llm_session, mode="schema", schema_form="json_object")
    chat_server.say('{"say": "There is no T cell layer; the layers are nuclei, actin, GFP and the rest."}')
    before = [layer.visible for layer in cells_viewer.layers]
    turn = llm_session.run("hide the T cells")
    assert turn.spoken.startswith("There is no T cell layer") and not turn.commands
    assert [layer.visible for layer in cells_viewer.layers] == before


def test_tools_are_compact_and_only_those_the_line_can_mean(llm_session, chat_server):
    chat_server.say("ok")
    llm_session.run("please make the blue blobs disappear")
    tools = chat_server.requests[0]["tools"]
    text = json.dumps(tools)
    for noise in ('"title"', '"null"', "additionalProperties", "x-names", "minLength"):
        assert noise not in text
    assert "layer_visibility" in {t["function"]["name"] for t in tools}
    assert len(tools) <= llm_session.llm.settings.shortlist


@pytest.mark.parametrize(
    ("line", "names", "expected"),
    [
        ("please make the blue blobs disappear", {}, "layer_visibility"),
        ("I can barely make out the GFP signal", {"layers": ["GFP", "nuclei"]}, "adjust_brightness"),
        (
            "which rays go through the north face of the Main Prism",
            {"glasses": ["Main Prism"]},
            "find_rays_crossing_edge",
        ),
        ("I want a doughnut shape to play with", {}, "spawn_primitive"),
        ("what's written in notes/a.md?", {}, "read_file"),
    ],
)
def test_the_shortlist_keeps_what_the_line_means(line, names, expected):
    registry = default_registry()
    every = tuple(registry.commands)
    chosen = Shortlist(registry).choose(line, every, names, keep=10)
    assert expected in chosen and len(chosen) <= 10


def test_a_line_sharing_no_word_keeps_the_first_commands_of_the_pool():
    registry = default_registry()
    pool = tuple(registry.commands)[:30]
    assert Shortlist(registry).choose("zzz qqq", pool, keep=5) == pool[:5]
    assert Shortlist(registry).choose("zzz qqq", pool, keep=0) == pool


def test_probe_finds_a_llama_cpp_like_server_and_suggests_schema_mode(llm_settings, chat_server):
    chat_server.honours = Honours(tools=False, forms=frozenset({"json_object"}))
    found = probe(llm_settings)
    assert found.answer == "ready" and not found.tools and found.schema_form == "json_object"
    assert found.best(local=True) == ("schema", "json_object")
    asked = [r.get("response_format", {}).get("type") for r in chat_server.requests]
    assert asked == [None, None, "json_schema", "json_object"]  # stops at the first form honoured
    assert chat_server.requests[3]["response_format"]["schema"]["properties"]["probe"] == {"const": TOKEN}


def test_probe_of_a_hosted_server_with_tools_suggests_tools(llm_settings, chat_server):
    chat_server.honours = Honours(tools=True, forms=frozenset({"json_schema"}))
    found = probe(llm_settings)
    assert found.tools and found.schema_form == "json_schema"
    assert found.best(local=False) == ("tools", None) and found.best(local=True) == ("schema", "json_schema")


def test_probe_of_a_server_that_ignores_schemas_suggests_json(llm_settings, chat_server):
    chat_server.honours = Honours()
    found = probe(llm_settings)
    assert (found.tools, found.schema_form) == (False, None)
    assert found.best(local=True) == ("json", None)
    assert "no tool calls, no schemas: use json" in found.summary(local=True)
