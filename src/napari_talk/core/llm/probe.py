"""What a server honours: a reply at all, tool calls, and a reply held to a JSON schema (in which of
the documented forms), and the mode that suits it best. Blocking: run it off the GUI thread."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from ..chat.client import ChatClient, LLMError, constrained_reply
from ..chat.settings import SCHEMA_FORMS, LLMSettings, SchemaForm

TOKEN = "x7q2"
"""A word no model writes unasked: a reply holding it came from the schema, not from the prompt."""
PROBE_SCHEMA = {
    "type": "object",
    "properties": {"probe": {"const": TOKEN}},
    "required": ["probe"],
    "additionalProperties": False,
}
PROBE_TOOL = {
    "type": "function",
    "function": {
        "name": "report_colour",
        "description": "Report a colour.",
        "parameters": {
            "type": "object",
            "properties": {"colour": {"enum": ["teal", "ochre"]}},
            "required": ["colour"],
        },
    },
}
SHORT = {"max_tokens": 40, "temperature": 0}


@dataclass
class Abilities:
    model: str
    answer: str
    tools: bool = False
    schema_form: SchemaForm | None = None
    notes: list[str] = field(default_factory=list)

    def best(self, local: bool) -> tuple[str, SchemaForm | None]:
        """A local model chooses best held to a schema; a hosted one calls tools well."""
        if self.schema_form is not None and (local or not self.tools):
            return "schema", self.schema_form
        if self.tools:
            return "tools", None
        return "json", None

    def summary(self, local: bool) -> str:
        mode, form = self.best(local)
        honoured = ["tool calls" if self.tools else "no tool calls"]
        honoured.append(f"schemas as {self.schema_form}" if self.schema_form else "no schemas")
        suggested = f"{mode} ({form})" if form else mode
        return f"✓ {self.model} answered {self.answer!r}; it honours {', '.join(honoured)}: use {suggested}"


def probe(settings: LLMSettings, session_key: str | None = None) -> Abilities:
    """Four short requests at most; an unreachable server or a refused key raises :class:`LLMError`."""
    client = ChatClient(settings, session_key)
    try:
        reply = client.complete([{"role": "user", "content": "Reply with the word: ready"}], None, SHORT)
        found = Abilities(reply.model or settings.model, (reply.content or "").strip()[:60])
        found.tools = _calls_tools(client, found)
        found.schema_form = _schema_form(client, found)
        return found
    finally:
        client.close()


def _calls_tools(client: ChatClient, found: Abilities) -> bool:
    ask = [{"role": "user", "content": "Call report_colour with the colour teal."}]
    try:
        reply = client.complete(ask, [PROBE_TOOL], SHORT)
    except LLMError as exc:
        found.notes.append(f"tools: {exc}")
        return False
    return any(call["function"]["name"] == "report_colour" for call in reply.tool_calls)


def _schema_form(client: ChatClient, found: Abilities) -> SchemaForm | None:
    ask = [{"role": "user", "content": "Reply with the word: ready"}]
    for form in SCHEMA_FORMS:
        try:
            reply = client.complete(ask, None, {**constrained_reply(PROBE_SCHEMA, form), **SHORT})
        except LLMError as exc:
            found.notes.append(f"{form}: {exc}")
            continue
        if _holds_token(reply.content):
            return form
    return None


def _holds_token(content: str | None) -> bool:
    try:
        data: Any = json.loads(content or "")
    except ValueError:
        return False
    return isinstance(data, dict) and data.get("probe") == TOKEN
