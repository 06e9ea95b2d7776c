"""What the model is told: the commands (as function tools, or listed for JSON mode) and the
session's context, all generated from the registry so the model sees real names."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..registry import Registry

RULES = """You drive a napari viewer for a scientist: call the functions that do what they ask, \
in order, with names from the context (case-insensitive; a unique part is enough). Points are \
world [x, y], x = column. Read-only functions return results to you; then act or answer briefly. \
If no function fits, say so in one sentence."""

JSON_RULES = """Reply with one JSON object and nothing else:
{"commands": [{"action": "<name>", ...parameters}, ...]} to act, or {"say": "<one sentence>"} \
when nothing applies. Available commands, name(parameters): description"""


_DROPPED = {"title", "additionalProperties", "minLength"}
"""Schema keywords the model needs no telling about: validation happens here, not there."""


def _compact(node: Any) -> Any:
    """A schema with only what guides the model: every token of it is sent with every request.

    An enum's values say what its type and description would, so those go.
    """
    if isinstance(node, dict):
        return {
            k: _compact(v)
            for k, v in node.items()
            if k not in _DROPPED
            and not (k == "default" and v is None)
            and not (k == "required" and not v)
            and not (k in ("description", "type") and "enum" in node)
        }
    if isinstance(node, list):
        return [_compact(v) for v in node]
    return node


def tool_schemas(registry: Registry, actions: Iterable[str] | None = None) -> list[dict[str, Any]]:
    """One function tool per command (``anyOf`` for optional fields; no ``oneOf`` anywhere)."""
    chosen = registry.commands if actions is None else {a: registry.commands[a] for a in actions}
    return [
        {
            "type": "function",
            "function": {
                "name": action,
                "description": cls.description(),
                "parameters": _compact(registry.schema(action)),
            },
        }
        for action, cls in chosen.items()
    ]


def _signature(schema: dict[str, Any]) -> str:
    parts = []
    for name, prop in schema["properties"].items():
        options = prop.get("anyOf", [prop])
        kinds = []
        for option in options:
            if "enum" in option:
                kinds.append("|".join(map(str, option["enum"])))
            elif "const" in option:
                kinds.append(str(option["const"]))
            elif option.get("type") != "null":
                kinds.append(option.get("type", "any"))
        optional = "" if name in schema.get("required", []) else "?"
        parts.append(f"{name}{optional}: {'|'.join(kinds)}")
    return ", ".join(parts)


def system_prompt(
    registry: Registry, context: Sequence[str], *, json_mode: bool, actions: Iterable[str] | None = None
) -> str:
    lines = [RULES]
    if json_mode:
        chosen = registry.commands if actions is None else {a: registry.commands[a] for a in actions}
        lines.append(JSON_RULES)
        lines += [
            f"- {a}({_signature(registry.schema(a))}): {cls.description()}" for a, cls in chosen.items()
        ]
    if context:
        lines.append("Context:")
        lines += [f"- {line}" for line in context]
    return "\n".join(lines)


def results_message(results: Sequence[tuple[str, dict[str, Any]]]) -> str:
    """Read-only results for JSON mode, where there are no tool messages."""
    return "Results:\n" + "\n".join(f"{action}: {json.dumps(r, default=str)}" for action, r in results)
