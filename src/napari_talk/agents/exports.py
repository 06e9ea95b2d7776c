"""Command schemas for agent frameworks, all derived from the registry.

- ``json_schemas``: plain JSON Schema (draft 2020-12) of each command's parameters.
- ``openai_tools(strict=True)``: strict-compatible function tools: ``additionalProperties:
  false`` everywhere, every property required, optional ones nullable, only keywords strict mode
  accepts (``minLength`` becomes an equivalent ``pattern``).
- ``anthropic_tools``: ``{name, description, input_schema}``.
- ``from_tool_arguments``: what a strict tool call sends back, as a validated command (nulls of
  optional parameters mean "use the default").
"""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..core.basics.commands import Command
    from ..core.contract.registry import Registry

_STRICT_DROPPED = {"default", "title", "minLength", "maxLength"}


def json_schemas(registry: Registry) -> dict[str, dict[str, Any]]:
    return {action: registry.schema(action) for action in registry.commands}


def anthropic_tools(registry: Registry) -> list[dict[str, Any]]:
    return [
        {"name": action, "description": cls.description(), "input_schema": registry.schema(action)}
        for action, cls in registry.commands.items()
    ]


def openai_tools(registry: Registry, *, strict: bool = True) -> list[dict[str, Any]]:
    tools = []
    for action, cls in registry.commands.items():
        schema = registry.schema(action)
        function: dict[str, Any] = {"name": action, "description": cls.description()}
        if strict:
            function["parameters"] = strict_schema(schema)
            function["strict"] = True
        else:
            function["parameters"] = schema
        tools.append({"type": "function", "function": function})
    return tools


def strict_schema(schema: dict[str, Any]) -> dict[str, Any]:
    node = copy.deepcopy(schema)
    _make_strict(node)
    return node


def _make_strict(node: Any) -> None:
    if isinstance(node, list):
        for item in node:
            _make_strict(item)
        return
    if not isinstance(node, dict):
        return
    if node.get("minLength") and "pattern" not in node:
        node["pattern"] = r"\S" if node["minLength"] == 1 else rf"[\s\S]{{{node['minLength']},}}"
    for key in _STRICT_DROPPED & node.keys():
        del node[key]
    if node.get("type") == "object" or "properties" in node:
        properties = node.setdefault("properties", {})
        optional = set(properties) - set(node.get("required", []))
        for name in optional:
            properties[name] = _nullable(properties[name])
        node["required"] = list(properties)
        node["additionalProperties"] = False
        node["type"] = "object"
    for value in node.values():
        _make_strict(value)


def _nullable(prop: dict[str, Any]) -> dict[str, Any]:
    options = prop.get("anyOf")
    if options is not None:
        if not any(o.get("type") == "null" for o in options):
            options.append({"type": "null"})
        return prop
    description = prop.pop("description", None)
    wrapped: dict[str, Any] = {"anyOf": [prop, {"type": "null"}]}
    if description:
        wrapped["description"] = description
    return wrapped


def from_tool_arguments(registry: Registry, action: str, arguments: dict[str, Any]) -> Command:
    """Validate a tool call's arguments; a null for a parameter that has a default means the default."""
    cls = registry.commands.get(action)
    if cls is None:
        return registry.validate({**arguments, "action": action})  # raises: names the real commands
    cleaned = {
        key: value
        for key, value in arguments.items()
        if not (value is None and key in cls.model_fields and not cls.model_fields[key].is_required())
    }
    return registry.validate({**cleaned, "action": action})
