"""Reading a model's reply into candidate command objects, whatever shape it came in.

Accepted: tool calls; a bare command object; a list of them; ``{"command": ...}``;
``{"commands": [...]}`` (with a ``"say"`` beside it or not); the seed's agent envelope ``{"spoken",
"instruction": {"tool_name", "parameters"}, "user_prompt"}``; ``{"say": ...}``; and the shapes small
models write: ``{"action", "parameters": {...}}`` (other keys beside it, such as a ``"reason"``, are
kept apart), ``{"name", "arguments"}`` (the arguments an object or a JSON string), a tool call's
``{"function": {...}}``, and Qwen's and Hermes' ``<tool_call>{...}</tool_call>`` text; any of these
inside a Markdown code fence.

A reply without a command that writes a function call as text (``make_layer_transparent('DAPI',
0.5)``, as a line of its own, after a few words, or in a fence) is not an answer: the call's name is
noted for the road, which sends it back. Nothing here validates: the road validates every candidate
with the registry's adapter.
"""

from __future__ import annotations

import ast
import json
import re
from dataclasses import dataclass, field
from typing import Any

_FENCE = re.compile(r"```[\w+-]*[ \t]*\n?(.*?)```", re.DOTALL)
_TOOL_CALL = re.compile(r"<tool_call>(.*?)(?:</tool_call>|$)", re.DOTALL)
"""Qwen's and Hermes' tool-call text (a server without their tool parser passes it on as it is)."""
_SAY_KEYS = ("say", "reply", "message", "answer", "spoken")
_WRAPPERS = ("parameters", "arguments", "params", "args")
"""Where small models put a command's parameters instead of beside its ``action``."""
_CONTAINERS = ("command", "commands", "tool_calls")
_CALL_START = re.compile(r"(?<!\w)[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*\(")
MAX_DEPTH = 8


@dataclass
class Reading:
    candidates: list[dict[str, Any]] = field(default_factory=list)
    call_ids: list[str | None] = field(default_factory=list)
    spoken: str | None = None
    user_prompt: str | None = None
    problems: list[str] = field(default_factory=list)
    calls: list[str] = field(default_factory=list)
    """Names of function calls written as text in a reply that holds no command."""
    loose: list[dict[str, Any]] = field(default_factory=list)
    """Per candidate: keys written beside a parameters wrapper (parameters put there, or a "reason")."""
    nothing: bool = False
    """The reply said, as its schema allows, that the line asks for no command (an empty list)."""

    def add(
        self, wire: dict[str, Any], call_id: str | None = None, loose: dict[str, Any] | None = None
    ) -> None:
        self.candidates.append(wire)
        self.call_ids.append(call_id)
        self.loose.append(loose or {})


def read_reply(content: str | None, tool_calls: list[dict[str, Any]] | None) -> Reading:
    reading = Reading()
    for call in tool_calls or []:
        function = call.get("function") or {}
        name, raw = function.get("name", ""), function.get("arguments") or "{}"
        try:
            arguments = json.loads(raw) if isinstance(raw, str) else raw
        except (ValueError, RecursionError):
            reading.problems.append(f"the arguments of {name} are not JSON: {raw[:200]}")
            continue
        if not isinstance(arguments, dict):
            reading.problems.append(f"the arguments of {name} are not an object")
            continue
        reading.add({**arguments, "action": name}, call.get("id"))
    text = (content or "").strip()
    if text:
        _read_text(text, reading)
    if not reading.candidates and reading.spoken:
        reading.calls = written_calls(reading.spoken)
        if reading.calls:  # invented function syntax is not an answer, wherever it was written
            reading.spoken = None
    return reading


def _read_text(text: str, reading: Reading) -> None:
    tagged = _TOOL_CALL.findall(text)
    if tagged:
        rest = _TOOL_CALL.sub(" ", text).strip()
        sources = tagged
    else:
        rest = ""
        sources = _FENCE.findall(text) or [text.removeprefix("[TOOL_CALLS]")]
    found_json = False
    for source in sources:
        data = _loads(source.strip())
        if data is _NOTHING:
            continue
        found_json = True
        _read_value(data, reading)
    if not found_json and not reading.candidates:
        reading.spoken = text
    elif rest and not reading.spoken:
        reading.spoken = rest


def written_calls(text: str) -> list[str]:
    """The names of the function calls written in ``text``: ``make_layer_transparent('DAPI', 0.5)``,
    ``viewer.layers.remove("GFP")``, ``zoom_in()``; not the parentheses of prose ("the layer(s)",
    "GFP (green fluorescent protein)", "f(x)"): a call counts when it reads as code, its name
    snake_case or dotted, or its arguments values or keywords."""
    text = text.replace("`", " ")
    found: list[str] = []
    for match in _CALL_START.finditer(text):
        end = _closing(text, match.end() - 1)
        if end is None:
            continue
        try:
            node = ast.parse(text[match.start() : end + 1].strip(), mode="eval").body
        except (SyntaxError, ValueError, RecursionError):
            continue
        if not isinstance(node, ast.Call):
            continue
        name = match.group()[:-1]
        valued = any(isinstance(a, ast.Constant) for a in node.args) or bool(node.keywords)
        empty = not node.args and not node.keywords
        if ("_" in name or "." in name or valued or empty) and name not in found:
            found.append(name)
    return found


def _closing(text: str, start: int, limit: int = 2000) -> int | None:
    """Where the parenthesis opened at ``start`` closes (quotes respected), if within ``limit``."""
    depth, quote = 0, ""
    for at in range(start, min(len(text), start + limit)):
        char = text[at]
        if quote:
            if char == quote and text[at - 1] != "\\":
                quote = ""
        elif char in "'\"":
            quote = char
        elif char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
            if depth == 0:
                return at
    return None


_NOTHING = object()


def _loads(text: str) -> Any:
    try:
        return json.loads(text)
    except RecursionError:
        return _NOTHING
    except ValueError:
        pass
    start = min((i for i in (text.find("{"), text.find("[")) if i >= 0), default=-1)
    if start < 0:
        return _NOTHING
    try:
        return json.JSONDecoder().raw_decode(text[start:])[0]
    except (ValueError, RecursionError):
        return _NOTHING


def _read_value(data: Any, reading: Reading, depth: int = 0) -> None:
    if depth > MAX_DEPTH:
        reading.problems.append("the reply nests commands too deeply")
        return
    if isinstance(data, list):
        for item in data:
            _read_value(item, reading, depth + 1)
        return
    if not isinstance(data, dict):
        reading.problems.append(f"expected a command object, got {json.dumps(data)[:200]}")
        return
    if _read_call(data, reading, depth):
        return
    if "action" in data:
        wrapper = next((k for k in _WRAPPERS if isinstance(data.get(k), dict)), None)
        if wrapper is None:
            reading.add(dict(data))
        else:  # small models wrap the parameters, and may add a "reason" beside them
            rest = {k: v for k, v in data.items() if k not in ("action", wrapper)}
            reading.add({**data[wrapper], "action": data["action"]}, loose=rest)
        return
    if "instruction" in data or "user_prompt" in data or "spoken" in data:
        reading.spoken = data.get("spoken") or reading.spoken
        if isinstance(data.get("user_prompt"), str) and data["user_prompt"].strip():
            reading.user_prompt = data["user_prompt"].strip()
        if data.get("instruction"):
            _read_value(data["instruction"], reading, depth + 1)
        return
    if "tool_name" in data:
        parameters = data.get("parameters") or {}
        if not isinstance(parameters, dict):
            reading.problems.append(f"the parameters of {data['tool_name']} are not an object")
            return
        reading.add({**parameters, "action": data["tool_name"]})
        return
    for key in _CONTAINERS:
        if key in data:
            if data[key] == [] and key == "commands":
                reading.nothing = True
            _read_value(data[key], reading, depth + 1)
            said = next((data[k] for k in _SAY_KEYS if isinstance(data.get(k), str)), "")
            reading.spoken = said.strip() or reading.spoken
            return
    for key in _SAY_KEYS:
        if isinstance(data.get(key), str):
            reading.spoken = data[key]
            return
    reading.problems.append(f"no command in {json.dumps(data)[:200]}")


def _read_call(data: dict[str, Any], reading: Reading, depth: int) -> bool:
    """``{"name", "arguments"}`` (or ``"parameters"``) and a tool call's ``{"function": {...}}``,
    written as text; False when ``data`` is neither (``{"name": "nuclei", ...}`` is a parameter)."""
    function = data.get("function")
    if isinstance(function, dict) and set(data) <= {"function", "type", "id"}:
        _read_value(function, reading, depth + 1)
        return True
    name = data.get("name")
    wrapper = next((k for k in ("arguments", "parameters") if k in data), None)
    if not isinstance(name, str) or wrapper is None or not set(data) <= {"name", wrapper, "type", "id"}:
        return False
    arguments = data[wrapper]
    if isinstance(arguments, str):
        arguments = _loads(arguments.strip() or "{}")
    if arguments is None:
        arguments = {}
    if not isinstance(arguments, dict):
        reading.problems.append(f"the arguments of {name} are not an object")
        return True
    reading.add({**arguments, "action": name})
    return True


_COMMAND_KEYS = frozenset({"action", "command", "commands", "say"})


def as_command(content: str | None, action: str) -> str | None:
    """A second step's reply for one command: its parameters alone (``{"factor": 2}``) read as that
    command; a reply that names its command itself is left as it is."""
    try:
        data = json.loads(content or "")
    except ValueError:
        return content
    if isinstance(data, dict) and not _COMMAND_KEYS & data.keys():
        return json.dumps({"action": action, **data})
    return content
