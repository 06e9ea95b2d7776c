"""Reading a model's reply into candidate command objects, whatever shape it came in.

Accepted: tool calls; a bare command object; a list of them; ``{"command": ...}``;
``{"commands": [...]}``; the seed's agent envelope ``{"spoken", "instruction": {"tool_name",
"parameters"}, "user_prompt"}``; ``{"say": ...}``; any of these inside a Markdown code fence.
Nothing here validates: the road validates every candidate with the registry's adapter.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

_FENCE = re.compile(r"```(?:json|JSON)?\s*\n?(.*?)```", re.DOTALL)
_SAY_KEYS = ("say", "reply", "message", "answer", "spoken")
_CALL_SYNTAX = re.compile(r"\s*[A-Za-z_][\w.]*\s*\(.*\)\s*;?\s*", re.DOTALL)
"""``make_layer_transparent('DAPI', 0.5)``: what small models invent instead of a command."""
MAX_DEPTH = 8


@dataclass
class Reading:
    candidates: list[dict[str, Any]] = field(default_factory=list)
    call_ids: list[str | None] = field(default_factory=list)
    spoken: str | None = None
    user_prompt: str | None = None
    problems: list[str] = field(default_factory=list)

    def add(self, wire: dict[str, Any], call_id: str | None = None) -> None:
        self.candidates.append(wire)
        self.call_ids.append(call_id)


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
    return reading


def _read_text(text: str, reading: Reading) -> None:
    fenced = _FENCE.findall(text)
    sources = fenced or [text]
    found_json = False
    for source in sources:
        data = _loads(source.strip())
        if data is _NOTHING:
            continue
        found_json = True
        _read_value(data, reading)
    if not found_json and not reading.candidates:
        if _CALL_SYNTAX.fullmatch(text):
            reading.problems.append(
                f"{text[:80]!r} is a function call written as text, not a command: reply with JSON"
            )
        else:
            reading.spoken = text


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
    if "action" in data:
        parameters = data.get("parameters")
        if isinstance(parameters, dict) and set(data) <= {"action", "parameters"}:
            reading.add({**parameters, "action": data["action"]})  # small models wrap them so
        else:
            reading.add(dict(data))
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
    for key in ("command", "commands"):
        if key in data:
            _read_value(data[key], reading, depth + 1)
            return
    for key in _SAY_KEYS:
        if isinstance(data.get(key), str):
            reading.spoken = data[key]
            return
    reading.problems.append(f"no command in {json.dumps(data)[:200]}")
