"""Request options that shape a model's reply: JSON mode, or a reply held to a JSON Schema in the
form each server documents (and OpenAI's strict mode only where it accepts the schema)."""

from __future__ import annotations

from typing import Any

from .settings import SchemaForm


def json_reply() -> dict[str, Any]:
    """JSON mode: any JSON object."""
    return {"response_format": {"type": "json_object"}}


def constrained_reply(schema: dict[str, Any], form: SchemaForm) -> dict[str, Any]:
    """A reply held to ``schema``, in the form each server documents on its Chat Completions
    endpoint: ``response_format`` ``json_schema`` (OpenAI, vLLM, Ollama's /v1, LM Studio), with
    ``strict`` where OpenAI's strict mode accepts the schema (:func:`strict_legal`); or a ``schema``
    on ``json_object`` (llama.cpp's server, llama-cpp-python)."""
    if form == "json_schema":
        shape: dict[str, Any] = {"name": "reply", "schema": schema}
        if strict_legal(schema):
            shape["strict"] = True
        return {"response_format": {"type": "json_schema", "json_schema": shape}}
    return {"response_format": {"type": "json_object", "schema": schema}}


STRICT_KEYWORDS = frozenset(
    {
        "type", "properties", "required", "additionalProperties", "items", "anyOf", "enum", "const",
        "description", "$ref", "$defs", "pattern", "format", "minimum", "maximum", "exclusiveMinimum",
        "exclusiveMaximum", "multipleOf", "minItems", "maxItems",
    }
)  # fmt: skip
"""The JSON Schema keywords OpenAI's strict mode accepts (``default``, ``minLength``, ``title``, ...
make it refuse the request)."""
STRICT_LIMITS = {"properties": 5000, "enum_values": 1000, "depth": 10}


def strict_legal(schema: dict[str, Any]) -> bool:
    """Whether OpenAI's strict mode accepts ``schema``: an object at the root (not an ``anyOf``),
    every object closed (``additionalProperties: false``) with every property required, only the
    keywords it supports, and within its limits (properties, enum values, nesting)."""
    if schema.get("type") != "object" or "anyOf" in schema:
        return False
    counts = {"properties": 0, "enum_values": 0}

    def legal(node: Any, depth: int) -> bool:
        if not isinstance(node, dict) or depth > STRICT_LIMITS["depth"] or not set(node) <= STRICT_KEYWORDS:
            return False
        counts["enum_values"] += len(node.get("enum", ()))
        properties = node.get("properties")
        kinds = node.get("type")
        if properties is not None or kinds == "object" or (isinstance(kinds, list) and "object" in kinds):
            properties = properties or {}
            if node.get("additionalProperties") is not False or set(node.get("required", ())) != set(
                properties
            ):
                return False
            counts["properties"] += len(properties)
        children = [*(properties or {}).values(), *node.get("anyOf", ()), *node.get("$defs", {}).values()]
        if "items" in node:
            children.append(node["items"])
        return all(legal(child, depth + 1) for child in children)

    return legal(schema, 1) and all(counts[k] <= STRICT_LIMITS[k] for k in counts)
