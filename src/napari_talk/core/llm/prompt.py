"""What the model is told: the commands (as function tools, listed for JSON mode, or as the schema its
reply is held to) and the session's context, all generated from the registry so the model sees real
names."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ..basics.commands import NAMES_KEY

if TYPE_CHECKING:
    from ..contract.registry import Registry

RULES = """You drive a napari viewer for a scientist: call the functions that do what they ask, \
in order, with names from the context (case-insensitive; a unique part is enough; a layer may be \
named by its colour or kind as the context shows it). Points are world [x, y], x = column. \
Read-only functions return results to you; then act or answer briefly. A remark or chat that asks \
for nothing gets no function. Never say you did something: only functions act."""

JSON_RULES = """Reply with one JSON object and nothing else:
{"commands": [{"action": "<name>", ...parameters}, ...]} to act; {"commands": []} when the line \
asks for nothing (a remark, chat); {"say": "<one sentence>"} to answer a question in words. \
Available commands, name(parameters): description"""

STEPS_RULES = """You read lines a scientist types into napari-talk, a plugin of the napari viewer, and \
say what each asks for in two steps: first which commands, then their parameters. Use names from the \
context (case-insensitive; a unique part is enough; a layer may be named by its colour or kind as the \
context shows it). Points are world [x, y], x = column. A remark, a story, a complaint or chat asks \
for nothing: no_command. A question that no command answers: answer. Commands:"""

CHOOSE_OPENING = """Step 1: which commands does the line below ask for, in order? Reply \
{"commands": [names]}: ["no_command"] if it asks for nothing, ["answer"] if it is a question to \
answer in words."""
"""The first step's question up to the line: the same for every line, so a local server can have
read it, with the scene's prompt, before the line comes (see ``LLMRoad.prime``)."""

FILL_QUESTION = """Step 2: their parameters.
{signatures}
Reply {{"commands": [{{"action": name, ...parameters}}]}}, or [{{"action": "no_command"}}] if the \
line asks for none of these after all."""

FILL_ONE_QUESTION = """Step 2: its parameters.
{signatures}
Reply with them as one object {{"parameter": value, ...}}, or {{"action": "no_command"}} if the line \
does not ask for it after all."""
"""The second step when one command was chosen: its parameters alone, a reply of half the tokens."""

WORDS_QUESTION = """Step 2: answer the question in one or two sentences, from the context. Never say \
you did something."""

NO_COMMAND = "no_command"
ANSWER = "answer"

MAX_ENUM = 200
"""More live names than this are left as free text (the context lists them; validation resolves)."""
MAX_COMMANDS = 8
"""Commands one constrained reply may hold (the road refuses more than its own cap anyway)."""

_DROPPED = {"title", "additionalProperties", "minLength", "maxLength"}
"""Schema keywords the model needs no telling about: validation happens here, not there."""

Names = Mapping[str, Sequence[str]]


def compact(node: Any, names: Names | None = None) -> Any:
    """A schema with only what guides the model: every token of it is sent with every request.

    An optional field is its type (leaving it out is how a model says "none"); an enum's values say
    what its type and description would; a parameter that names a live object is an enum of the live
    names when ``names`` has them, else a string the context explains.
    """
    if isinstance(node, list):
        return [compact(v, names) for v in node]
    if not isinstance(node, dict):
        return node
    options = node.get("anyOf")
    if isinstance(options, list) and {"type": "null"} in options:
        kept = [o for o in options if o != {"type": "null"}]
        rest = {k: v for k, v in node.items() if k != "anyOf"}
        return compact({**rest, **kept[0]} if len(kept) == 1 else {**rest, "anyOf": kept}, names)
    kind = node.get(NAMES_KEY)
    if kind is not None:
        live = list((names or {}).get(kind, ()))
        if names is not None and 0 < len(live) <= MAX_ENUM:
            return {"enum": live}
        return {"type": node.get("type", "string")}
    return {
        k: compact(v, names)
        for k, v in node.items()
        if k not in _DROPPED
        and not (k == "default" and v is None)
        and not (k == "pattern" and v == r"\S")  # "not blank": checked here
        and not (k == "required" and not v)
        and not (k in ("description", "type") and "enum" in node)
    }


def _chosen(registry: Registry, actions: Iterable[str] | None) -> Iterable[str]:
    return registry.commands if actions is None else actions


def tool_schemas(registry: Registry, actions: Iterable[str] | None = None) -> list[dict[str, Any]]:
    """One function tool per command (``anyOf`` for alternatives; no ``oneOf`` anywhere)."""
    return [
        {
            "type": "function",
            "function": {
                "name": action,
                "description": registry.commands[action].description(),
                "parameters": compact(registry.schema(action)),
            },
        }
        for action in _chosen(registry, actions)
    ]


_PEN_ONLY = {"description", "default"}
"""Left out of a reply's schema: the prompt lists each command with its description, and a server
holds the reply to the schema with a grammar that reads neither (OpenAI's strict mode refuses
``default``)."""


def _pen(node: Any) -> Any:
    """``node`` without what only describes (parameters named "description" stay)."""
    if isinstance(node, list):
        return [_pen(v) for v in node]
    if not isinstance(node, dict):
        return node
    return {
        k: ({name: _pen(p) for name, p in v.items()} if k == "properties" else _pen(v))
        for k, v in node.items()
        if k not in _PEN_ONLY
    }


def _nullable(node: dict[str, Any]) -> dict[str, Any]:
    """``node`` that also allows null: how strict mode, where every property is required, leaves
    one out (the road drops nulls before validating)."""
    if "enum" in node:
        return {**node, "enum": [*node["enum"], None]}
    if "anyOf" in node:
        return {**node, "anyOf": [*node["anyOf"], {"type": "null"}]}
    if isinstance(node.get("type"), str):
        return {**node, "type": [node["type"], "null"]}
    return {"anyOf": [node, {"type": "null"}]}


def command_schema(registry: Registry, action: str, names: Names, *, strict: bool = False) -> dict[str, Any]:
    """One command as a reply may write it: ``action`` a ``const``, live names as enums."""
    params = _pen(compact(registry.schema(action), names))
    properties = params.get("properties", {})
    required = params.get("required", [])
    if strict:
        properties = {k: v if k in required else _nullable(v) for k, v in properties.items()}
        required = list(properties)
    return {
        "type": "object",
        "properties": {"action": {"const": action}, **properties},
        "required": ["action", *required],
        "additionalProperties": False,
    }


def reply_schema(
    registry: Registry, actions: Iterable[str], names: Names, *, strict: bool = False
) -> dict[str, Any]:
    """The JSON schema a constrained reply is held to: commands (``action`` a ``const``, live names as
    enums) or a sentence. It helps a small model say something valid; the road still validates.

    ``strict``: the shape OpenAI's strict mode accepts (an object at the root, every property
    required, null for a parameter left out): ``{"commands": [...], "say": "..."}``, the list empty
    when the model answers in words. Otherwise one of ``{"commands": [...]}`` and ``{"say": "..."}``.
    """
    commands = [command_schema(registry, action, names, strict=strict) for action in actions]
    listed: dict[str, Any] = {"type": "array", "items": {"anyOf": commands}, "maxItems": MAX_COMMANDS}
    # an empty list is how a reply says the line asks for nothing: "no command" is an answer
    say = {"type": "string"}
    if strict:
        return {
            "type": "object",
            "properties": {"commands": listed, "say": say},
            "required": ["commands", "say"],
            "additionalProperties": False,
        }
    return {
        "anyOf": [
            {
                "type": "object",
                "properties": {"commands": listed},
                "required": ["commands"],
                "additionalProperties": False,
            },
            {
                "type": "object",
                "properties": {"say": say},
                "required": ["say"],
                "additionalProperties": False,
            },
        ]
    }


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
            else:
                kinds.append(option.get("type", "any"))
        optional = "" if name in schema.get("required", []) else "?"
        parts.append(f"{name}{optional}: {'|'.join(kinds)}")
    return ", ".join(parts)


def system_prompt(
    registry: Registry,
    context: Sequence[str],
    *,
    listed: bool,
    actions: Iterable[str] | None = None,
    examples: Sequence[tuple[str, str]] = (),
) -> str:
    """``listed``: the commands are written out here (JSON and schema modes: no tools are sent)."""
    lines = [RULES]
    if listed:
        lines.append(JSON_RULES)
        lines += [
            f"- {a}({_signature(compact(registry.schema(a)))}): {registry.commands[a].description()}"
            for a in _chosen(registry, actions)
        ]
    lines += worked(examples)
    if context:
        lines.append("Context:")
        lines += [f"- {line}" for line in context]
    return "\n".join(lines)


def results_message(results: Sequence[tuple[str, dict[str, Any]]]) -> str:
    """Read-only results for JSON mode, where there are no tool messages."""
    return "Results:\n" + "\n".join(f"{action}: {json.dumps(r, default=str)}" for action, r in results)


def choice_schema(actions: Sequence[str]) -> dict[str, Any]:
    """The first of two steps: which commands (of ``actions``), or none, or an answer in words."""
    return {
        "type": "object",
        "properties": {
            "commands": {
                "type": "array",
                "items": {"enum": [*actions, NO_COMMAND, ANSWER]},
                "minItems": 1,
                "maxItems": 3,
            }
        },
        "required": ["commands"],
        "additionalProperties": False,
    }


def fill_schema(registry: Registry, actions: Sequence[str], names: Names) -> dict[str, Any]:
    """The second step: the parameters of the chosen commands, each under its own schema; of one
    command, its parameters alone (see :func:`.replies.as_command`)."""
    commands = [command_schema(registry, action, names) for action in actions]
    none = {
        "type": "object",
        "properties": {"action": {"const": NO_COMMAND}},
        "required": ["action"],
        "additionalProperties": False,
    }  # the way out when the line turns out to ask for none of them
    if len(commands) == 1:
        (own,) = commands
        parameters = {k: v for k, v in own["properties"].items() if k != "action"}
        required = [k for k in own["required"] if k != "action"]
        alone = {**own, "properties": parameters, "required": required}
        return {"anyOf": [alone, none]}
    items = {"anyOf": [*commands, none]}
    return {
        "type": "object",
        "properties": {
            "commands": {"type": "array", "items": items, "minItems": 1, "maxItems": MAX_COMMANDS}
        },
        "required": ["commands"],
        "additionalProperties": False,
    }


BRIEF_WORDS = 9
"""Words of a command's description the steps' shared prompt shows: its name says the rest."""


def brief(description: str) -> str:
    """The first clause of ``description``, at most :data:`BRIEF_WORDS` words."""
    head = re.split(r"[.:;]\s|\s\(|,\s(?!\w+ or )", description, maxsplit=1)[0].rstrip(".")
    words = head.split()
    return " ".join(words[:BRIEF_WORDS]) + (" …" if len(words) > BRIEF_WORDS else "")


def steps_prompt(registry: Registry, actions: Iterable[str], context: Sequence[str]) -> str:
    """The system prompt both steps share: the rules, every command in play in one line, the context.

    It depends on the packs in play and their objects, not on the line, so a local server that
    keeps the last prompt's prefix evaluated (llama.cpp, llama-cpp-python) reads only the line and
    the step's question for each new line and step."""
    lines = [STEPS_RULES]
    lines += [f"- {a}: {brief(registry.commands[a].description())}" for a in actions]
    if context:
        lines.append("Context:")
        lines += [f"- {line}" for line in context]
    return "\n".join(lines)


HINT_OPENING = "Named in this line:"
"""How the road's hint of the live names a line holds opens (it follows the quoted line)."""


def choose_question(
    line: str, registry: Registry | None = None, also: Sequence[str] = (), hint: str = ""
) -> str:
    """The first step's question; ``also``: commands the line brings into play that the scene's
    prompt does not list (described here, after the part a server may have read already); ``hint``
    follows the quoted line, outside it, so it is never read as the person's words."""
    extra = [f"- {a}: {brief(registry.commands[a].description())}" for a in also] if registry else []
    also_lines = ["Also:", *extra] if extra else []
    quoted = f"Line: {json.dumps(line, ensure_ascii=False)}" + (f" {hint}" if hint else "")
    return "\n".join([CHOOSE_OPENING, *also_lines, quoted])


def fill_question(registry: Registry, actions: Sequence[str], names: Names) -> str:
    """The second step's question: the chosen commands with their parameters (live names listed)."""
    signatures = "\n".join(f"- {a}({_signature(compact(registry.schema(a), names))})" for a in actions)
    return (FILL_ONE_QUESTION if len(actions) == 1 else FILL_QUESTION).format(signatures=signatures)


def worked(examples: Sequence[tuple[str, str]]) -> list[str]:
    if not examples:
        return []
    return ["Examples:", *(f"- {line!r} -> {reply}" for line, reply in examples)]
