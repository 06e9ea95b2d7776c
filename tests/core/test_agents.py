"""Agent interfaces derived from the registry: tool functions and schema exports."""

from __future__ import annotations

import inspect
import json

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import ValidationError
from support.schema_strategies import from_schema

from napari_talk.agents import (
    anthropic_tools,
    from_tool_arguments,
    get_agentic_tools,
    json_schemas,
    openai_tools,
)
from napari_talk.core.contract.registry import ALLOWED_ADAPTER, default_registry

REGISTRY = default_registry()
ACTIONS = sorted(REGISTRY.commands)


def _cross_field_only(exc: ValidationError) -> bool:
    """Errors JSON Schema cannot express (low < high, a box with area): the model's own checks."""
    return all(len(e["loc"]) == 1 for e in exc.errors())


@pytest.mark.parametrize(
    "schemas",
    [
        pytest.param(lambda: list(json_schemas(REGISTRY).values()), id="json-schema"),
        pytest.param(
            lambda: [t["function"]["parameters"] for t in openai_tools(REGISTRY)], id="openai-strict"
        ),
        pytest.param(lambda: [t["input_schema"] for t in anthropic_tools(REGISTRY)], id="anthropic"),
    ],
)
def test_every_exported_schema_is_valid_json_schema(schemas):
    for schema in schemas():
        jsonschema.Draft202012Validator.check_schema(schema)


def test_openai_strict_tools_follow_strict_mode_rules():
    def walk(node):
        if isinstance(node, dict):
            if node.get("type") == "object":
                assert node["additionalProperties"] is False
                assert set(node["required"]) == set(node["properties"])
            assert not {"default", "minLength", "title"} & node.keys()
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    tools = openai_tools(REGISTRY)
    assert [t["function"]["name"] for t in tools] == list(REGISTRY.commands)
    for tool in tools:
        assert tool["function"]["strict"] is True
        walk(tool["function"]["parameters"])
    slice_params = next(t for t in tools if t["function"]["name"] == "set_slice")["function"]["parameters"]
    assert {"type": "null"} in slice_params["properties"]["axis"]["anyOf"]


@pytest.mark.parametrize("action", ACTIONS)
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_generated_arguments_round_trip_through_the_adapter(action, data):
    plain = data.draw(from_schema(REGISTRY.schema(action)))
    try:
        command = ALLOWED_ADAPTER.validate_python({**plain, "action": action})
    except ValidationError as exc:
        assert _cross_field_only(exc), exc
    else:
        assert ALLOWED_ADAPTER.validate_python(command.to_wire()) == command
    strict = next(t for t in openai_tools(REGISTRY) if t["function"]["name"] == action)["function"][
        "parameters"
    ]
    arguments = data.draw(from_schema(strict))
    try:
        from_tool_arguments(REGISTRY, action, arguments)
    except ValidationError as exc:
        assert _cross_field_only(exc), exc


def test_tool_functions_cover_the_registry_and_carry_their_descriptions():
    tools = get_agentic_tools()
    assert [t["name"] for t in tools] == list(REGISTRY.commands)
    for tool in tools:
        assert set(tool) == {"name", "function", "description", "parameters"}
        signature = inspect.signature(tool["function"])
        assert set(signature.parameters) == set(tool["parameters"]["properties"])
        for name in signature.parameters:
            assert f"    {name}: " in tool["function"].__doc__
        json.dumps(tool["parameters"])


def test_tool_functions_run_on_the_sessions_viewer_and_return_json(session, cells_viewer):
    tools = {t["name"]: t["function"] for t in get_agentic_tools(session, packs=["viewer"])}
    assert "find_similar" not in tools and "layer_visibility" in tools
    reply = json.loads(tools["layer_visibility"](name="gfp", op="hide"))
    assert reply["status"] == "success" and not cells_viewer.layers["GFP"].visible
    refused = json.loads(tools["layer_opacity"](name="GFP", opacity=3))
    assert refused["status"] == "error" and "opacity" in refused["message"]
    listed = json.loads(tools["list_layers"]())
    assert next(item["name"] for item in listed["data"]) == "spots"


def test_destructive_tool_functions_ask_when_told_to(session, cells_viewer):
    asked = []
    tools = {
        t["name"]: t["function"]
        for t in get_agentic_tools(session, packs=["viewer"], ask=lambda a: asked.append(a) or False)
    }
    reply = json.loads(tools["remove_layer"](name="spots"))
    assert reply["status"] == "error" and "not confirmed" in reply["message"]
    assert [c.action for c in asked] == ["remove_layer"] and "spots" in [
        la.name for la in cells_viewer.layers
    ]


def test_frameworks_that_introspect_functions_read_the_descriptions():
    from fastcore.funccall import get_schema  # what claudette and lisette use
    from langchain_core.tools import StructuredTool

    tool = next(t for t in get_agentic_tools() if t["name"] == "layer_opacity")
    langchain = StructuredTool.from_function(tool["function"], parse_docstring=True)
    assert langchain.args["opacity"]["description"] == "0 to 1; 30% is 0.3."
    assert langchain.args["name"]["type"] == "string"
    claudette = get_schema(tool["function"])
    assert claudette["name"] == "layer_opacity"
    assert claudette["input_schema"]["properties"]["opacity"] == {
        "description": "0 to 1; 30% is 0.3.",
        "type": "number",
    }
    assert claudette["input_schema"]["required"] == ["name", "opacity"]
    visibility = next(t for t in get_agentic_tools() if t["name"] == "layer_visibility")
    op = get_schema(visibility["function"])["input_schema"]["properties"]["op"]
    assert op["type"] == "string" and "show, hide, toggle" in op["description"]
