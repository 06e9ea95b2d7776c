"""A lean request (the commands a line can mean, compact schemas) and schema mode: the reply held to
the commands in play, live names as enums, in each server's documented form; and the connection test
that finds out what a server honours. Real openai client, real HTTP server on 127.0.0.1."""

from __future__ import annotations

import json

import jsonschema
import pytest
from support.chat_server import Honours

from napari_talk.core.chat.client import constrained_reply, strict_legal
from napari_talk.core.chat.settings import LLMSettings
from napari_talk.core.contract.registry import default_registry
from napari_talk.core.llm.probe import TOKEN, probe
from napari_talk.core.llm.road import LLMRoad
from napari_talk.core.llm.shortlist import Shortlist


def _road(session, **update):
    session.llm = LLMRoad(session.registry, session.llm.settings.model_copy(update=update))
    return session


def _commands_in(schema: dict) -> dict[str, dict]:
    root = schema if "properties" in schema else schema["anyOf"][0]
    items = root["properties"]["commands"]["items"]["anyOf"]
    return {item["properties"]["action"]["const"]: item for item in items}


def openai_strict_problems(node: dict, at: str = "schema") -> list[str]:
    """OpenAI's rules for strict structured outputs, written out here apart from the code under
    test: an object at the root, not an anyOf; every object closed, every property required; no
    keyword strict mode refuses."""
    problems = []
    if at == "schema" and (node.get("type") != "object" or "anyOf" in node):
        problems.append("the root is not an object")
    if at == "schema" and _enum_values(node) > 1000:
        problems.append("more than 1,000 enum values")
    for refused in ("default", "title", "minLength", "maxLength", "oneOf", "allOf", "not"):
        if refused in node:
            problems.append(f"{at} has {refused}")
    if "properties" in node:
        if node.get("additionalProperties") is not False:
            problems.append(f"{at} is not closed")
        if sorted(node.get("required", [])) != sorted(node["properties"]):
            problems.append(f"{at} leaves properties optional")
        for name, child in node["properties"].items():
            problems += openai_strict_problems(child, f"{at}.{name}")
    for index, child in enumerate(node.get("anyOf", [])):
        problems += openai_strict_problems(child, f"{at}.anyOf[{index}]")
    if isinstance(node.get("items"), dict):
        problems += openai_strict_problems(node["items"], f"{at}.items")
    return problems


def _enum_values(node) -> int:
    if isinstance(node, list):
        return sum(_enum_values(v) for v in node)
    if not isinstance(node, dict):
        return 0
    return len(node.get("enum", ())) + sum(_enum_values(v) for k, v in node.items() if k != "enum")


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
    ],
)
def test_each_server_gets_the_schema_in_its_documented_form(llm_session, chat_server, form, where):
    _road(llm_session, mode="schema", schema_form=form)
    chat_server.say('{"commands": [{"action": "zoom_by", "factor": 2}]}')
    turn = llm_session.run("double the apparent size of everything onscreen")
    assert turn.ok, turn.message
    assert "zoom_by" in _commands_in(where(chat_server.requests[0]))


def test_the_json_schema_form_is_strict_where_openai_accepts_it(session, chat_server, llm_settings):
    """Every pack in play, every command offered, live names as enums: the schema OpenAI's strict
    mode gets is one it accepts, and a reply it allows (null for a parameter left out) runs."""
    session.llm = LLMRoad(
        session.registry, llm_settings.model_copy(update={"mode": "schema", "shortlist": 0})
    )
    chat_server.say('{"commands": [{"action": "pan", "direction": "left", "fraction": null}], "say": ""}')
    every_pack = "trace the prism, export the mesh, read notes.md and find similar entities"
    turn = session.run(f"hide nuclei, {every_pack}")
    assert not turn.ok, "a reply that leaves out what the line names does not run"
    chat_server.say('{"commands": [{"action": "pan", "direction": "left", "fraction": null}], "say": ""}')
    turn = session.run(f"pan left, {every_pack}")
    assert turn.ok and [c.action for c in turn.commands] == ["pan"], turn.message
    shape = chat_server.requests[0]["response_format"]
    assert shape["type"] == "json_schema" and shape["json_schema"]["strict"] is True
    schema = shape["json_schema"]["schema"]
    assert openai_strict_problems(schema) == []
    offered = _commands_in(schema)
    assert {"layer_visibility", "find_rays_inside_glass", "read_file"} <= set(offered)
    assert offered["pan"]["properties"]["fraction"]["type"] == ["number", "null"]
    jsonschema.validate({"commands": [], "say": "GFP glows green."}, schema)
    with pytest.raises(jsonschema.ValidationError):  # strict: a parameter left out is written as null
        jsonschema.validate({"commands": [{"action": "pan", "direction": "left"}], "say": ""}, schema)


@pytest.mark.parametrize(
    "schema",
    [
        {"anyOf": [{"type": "object", "properties": {}, "required": [], "additionalProperties": False}]},
        {
            "type": "object",
            "properties": {"a": {"type": "string"}},
            "required": [],
            "additionalProperties": False,
        },
        {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]},
        {
            "type": "object",
            "properties": {"a": {"type": "number", "default": 1}},
            "required": ["a"],
            "additionalProperties": False,
        },
        {
            "type": "object",
            "properties": {"a": {"enum": [f"layer {i}" for i in range(1001)]}},
            "required": ["a"],
            "additionalProperties": False,
        },
    ],
    ids=["anyOf root", "optional property", "open object", "default", "1001 enum values"],
)
def test_strict_is_left_out_where_openai_would_refuse_it(schema):
    assert openai_strict_problems(schema)
    assert not strict_legal(schema)
    assert "strict" not in constrained_reply(schema, "json_schema")["response_format"]["json_schema"]


def test_the_json_object_form_keeps_a_choice_of_commands_or_words(llm_session, chat_server):
    _road(llm_session, mode="schema", schema_form="json_object")
    chat_server.say('{"say": "ok"}')
    llm_session.run("please make the blue blobs disappear")
    shape = chat_server.requests[0]["response_format"]
    assert [option["required"] for option in shape["schema"]["anyOf"]] == [["commands"], ["say"]]
    assert "strict" not in shape
    text = json.dumps(shape["schema"])
    for noise in ('"description"', '"default"', '"title"'):  # the prompt describes; the schema holds
        assert noise not in text


def test_an_ollama_v1_server_is_found_to_take_json_schema_and_gets_it_there(llm_session, chat_server):
    """Ollama's /v1 reads the schema from response_format.json_schema.schema (json_object is plain
    JSON mode there, and a top-level format is not read): the probe finds that form, and schema
    mode sends the schema where Ollama reads it."""
    chat_server.honours = Honours(ollama=True)
    found = probe(llm_session.llm.settings)
    assert found.schema_form == "json_schema" and found.best(local=True) == ("schema", "json_schema")
    _road(llm_session, mode="schema", schema_form=found.schema_form)
    chat_server.say(
        '{"commands": [{"action": "layer_visibility", "name": "nuclei", "op": "hide"}], "say": ""}'
    )
    assert llm_session.run("please make the blue blobs disappear").ok
    body = chat_server.requests[-1]
    assert "format" not in body
    assert Honours(ollama=True).schema(body) is body["response_format"]["json_schema"]["schema"]
    assert "layer_visibility" in _commands_in(body["response_format"]["json_schema"]["schema"])


def test_a_schema_form_saved_as_format_reads_as_json_schema():
    assert LLMSettings.model_validate({"schema_form": "format"}).schema_form == "json_schema"


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


def test_a_model_that_answers_a_request_in_words_is_heard_as_a_suggestion_and_nothing_runs(
    llm_session, chat_server, cells_viewer
):
    _road(llm_session, mode="schema", schema_form="json_object")
    chat_server.say('{"say": "There is no T cell layer; the layers are nuclei, actin, GFP and the rest."}')
    before = [layer.visible for layer in cells_viewer.layers]
    turn = llm_session.run("hide the T cells")
    assert turn.spoken is None and not turn.commands and not turn.ok
    assert "The model suggested (nothing was done): There is no T cell layer" in turn.message
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
    assert chat_server.requests[2]["response_format"]["json_schema"]["strict"] is True
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
