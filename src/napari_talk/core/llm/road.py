"""The LLM road: a typed line → (optionally a few read-only rounds) → validated commands.

Blocking and thread-agnostic: the dock runs it off the GUI thread and passes an ``execute`` that
runs read-only commands on the GUI thread. Nothing the model says runs unvalidated; the final
commands are returned, not executed, so the caller can ask for confirmation first.
"""

from __future__ import annotations

import contextlib
import json
import logging
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from ..help import suggest
from .client import ChatClient, LLMError, constrained_reply, json_reply
from .prompt import Names, reply_schema, results_message, system_prompt, tool_schemas
from .replies import Reading, read_reply
from .settings import LLMSettings
from .shortlist import Shortlist

if TYPE_CHECKING:
    from ..commands import Command
    from ..registry import Registry
    from ..result import Result

log = logging.getLogger(__name__)

MAX_READ_CALLS = 3
"""Read-only tool calls run for the model in one turn before it must answer (the seed's limit)."""
MAX_COMMANDS_PER_REPLY = 20
"""A reply asking for more is refused whole (a person's line is a few commands at most)."""
TOOL_TIMEOUT = 30.0
RESULT_CHARS = 4000


@dataclass
class LLMOutcome:
    commands: list[Command] = field(default_factory=list)
    """The final commands to run, validated, in order (not yet run)."""
    spoken: str | None = None
    user_prompt: str | None = None
    read: list[tuple[Command, Result]] = field(default_factory=list)
    """Read-only commands run during the conversation, with their results."""
    error: str | None = None
    model: str = ""


@dataclass
class Request:
    """What is sent for a line: the messages (the conversation grows them), and per mode the tools
    or the options that shape the reply."""

    messages: list[dict[str, Any]]
    tools: list[dict[str, Any]] | None = None
    reply_format: dict[str, Any] | None = None
    actions: tuple[str, ...] = ()
    """The commands offered: a reply that names another is sent back with them."""


Execute = Callable[["Command", float], "Result"]
"""Runs one read-only command (on the GUI thread, if there is one) within a time limit."""


class LLMRoad:
    def __init__(
        self,
        registry: Registry,
        settings: LLMSettings,
        *,
        session_key: str | None = None,
        client_factory: Callable[[LLMSettings, str | None], ChatClient] = ChatClient,
    ) -> None:
        self.registry = registry
        self.settings = settings
        self._session_key = session_key
        self._client_factory = client_factory
        self._client: ChatClient | None = None
        self._client_lock = threading.Lock()
        self._tool_lists: dict[tuple[str, ...], list[dict[str, Any]]] = {}
        self._shortlist: Shortlist | None = None

    @property
    def label(self) -> str:
        return f"{self.settings.model} @ {self.settings.base_url}"

    def interpret(
        self,
        text: str,
        context: Sequence[str],
        execute: Execute,
        cancelled: threading.Event | None = None,
        *,
        packs: Sequence[str] | None = None,
        names: Names | None = None,
    ) -> LLMOutcome:
        """``packs`` limits the commands the model is offered (default: every pack's), and the
        shortlist setting keeps the likeliest of those; ``names`` are the live names (layers, glasses,
        ...) that a constrained reply may use."""
        outcome = LLMOutcome(model=self.settings.model)
        try:
            actions = self.offered(text, packs, names)
            request = self.request(text, context, actions, names or {})
            client = self.client()
            self._converse(client, request, execute, cancelled or threading.Event(), outcome)
        except LLMError as exc:
            outcome.error = str(exc)
        except Exception as exc:  # whatever a reply held, the person gets a line and a usable session
            log.warning("the LLM road failed", exc_info=True)
            outcome.error = f"the model's reply could not be used ({type(exc).__name__}); nothing ran"
        return outcome

    def offered(
        self, text: str, packs: Sequence[str] | None = None, names: Names | None = None
    ) -> tuple[str, ...]:
        """The commands the model is offered for ``text``."""
        chosen = [p for p in self.registry.packs if packs is None or p.name in packs]
        pool = tuple(cls.action_name() for pack in chosen for cls in pack.commands)
        if self._shortlist is None:
            self._shortlist = Shortlist(self.registry)
        return self._shortlist.choose(text, pool, names, keep=self.settings.shortlist)

    def request(self, text: str, context: Sequence[str], actions: tuple[str, ...], names: Names) -> Request:
        """The first request for a line, as the mode shapes it."""
        mode = self.settings.mode
        listed = mode != "tools"
        messages = [
            {
                "role": "system",
                "content": system_prompt(self.registry, context, listed=listed, actions=actions),
            },
            {"role": "user", "content": text},
        ]
        if mode == "tools":
            return Request(messages, tools=self._tools(actions), actions=actions)
        if mode == "json":
            return Request(messages, reply_format=json_reply(), actions=actions)
        form = self.settings.schema_form
        schema = reply_schema(self.registry, actions, names, strict=form == "json_schema")
        return Request(messages, reply_format=constrained_reply(schema, form), actions=actions)

    def _tools(self, actions: tuple[str, ...]) -> list[dict[str, Any]]:
        tools = self._tool_lists.get(actions)
        if tools is None:
            tools = self._tool_lists[actions] = tool_schemas(self.registry, actions)
        return tools

    def client(self) -> ChatClient:
        """One client for the road's life: its connection pool and TLS set-up are paid once."""
        with self._client_lock:
            if self._client is None:
                self._client = self._client_factory(self.settings, self._session_key)
            return self._client

    def warm_up(self) -> None:
        """Create the client ahead of the first question (imports the SDK); errors wait for then."""
        with contextlib.suppress(LLMError):
            self.client()

    def close(self) -> None:
        with self._client_lock:
            if self._client is not None:
                self._client.close()
                self._client = None

    def _converse(self, client, request: Request, execute, cancelled, outcome: LLMOutcome) -> None:
        messages = request.messages
        text = messages[-1]["content"]
        reasked = False
        read_calls = 0
        while True:
            reply = client.complete(messages, request.tools, request.reply_format)
            outcome.model = reply.model or outcome.model
            if cancelled.is_set():
                outcome.error = "stopped"
                return
            reading = read_reply(reply.content, reply.tool_calls)
            if not (reading.candidates or reading.spoken or reading.problems or reading.calls):
                outcome.error = "the model answered with nothing (no command, no words); try rephrasing"
                return
            if len(reading.candidates) > MAX_COMMANDS_PER_REPLY:
                outcome.error = (
                    f"the model asked for {len(reading.candidates):,} commands in one reply; at most "
                    f"{MAX_COMMANDS_PER_REPLY} run for one line, so nothing ran"
                )
                return
            outcome.user_prompt = reading.user_prompt or outcome.user_prompt
            commands, problems = self._validate(reading)
            if problems:
                if reasked:
                    outcome.error = self._give_up(text, reading, problems)
                    return
                reasked = True
                messages += self._reask(reply, reading, problems, request.actions)
                continue
            outcome.spoken = reading.spoken
            reads_only = commands and all(c.risk == "read" for c in commands)
            if not reads_only:
                outcome.commands = commands
                return
            if read_calls + len(commands) > MAX_READ_CALLS:
                outcome.error = (
                    f"the model wanted more than {MAX_READ_CALLS} lookups for one request, so it was "
                    f"stopped after {read_calls}; ask a narrower question"
                )
                return
            read_calls += len(commands)
            results: list[tuple[Command, Result]] = []
            for command in commands:
                result = execute(command, TOOL_TIMEOUT)
                if result.approval is not None:  # the person must agree: the session asks them, not the model
                    outcome.read += results
                    outcome.commands = commands[len(results) :]
                    return
                results.append((command, result))
            outcome.read += results
            messages += self._results(reply, reading, results, request.tools is None)

    def _validate(self, reading: Reading) -> tuple[list[Command], list[str]]:
        commands, problems = [], list(reading.problems)
        for name in reading.calls:
            if name in self.registry.commands:
                problems.append(
                    f"{name}(...) is a function call written as text, not a command: reply with JSON, "
                    f'{{"action": "{name}", ...its parameters by name}}'
                )
            else:
                problems.append(f"there is no command {name!r} (a function call written as text)")
        for raw, loose in zip(reading.candidates, reading.loose, strict=True):
            action = raw.get("action")
            if action not in self.registry.commands:
                problems.append(f"there is no command {action!r}")
                continue
            fields = self.registry.commands[action].model_fields
            wire = {k: v for k, v in loose.items() if k in fields}  # parameters put beside a wrapper
            # null is how a reply held to a strict schema leaves a parameter out
            wire.update((k, v) for k, v in raw.items() if v is not None)
            try:
                commands.append(self.registry.validate(wire))
            except ValidationError as exc:
                details = "; ".join(
                    f"{'.'.join(map(str, e['loc'][1:])) or action}: {e['msg']}" for e in exc.errors()
                )
                problems.append(f"{action}: {details}")
        return commands, problems

    def _reask(
        self, reply, reading: Reading, problems: list[str], actions: Sequence[str]
    ) -> list[dict[str, Any]]:
        note = "That reply was not valid: " + " | ".join(problems) + "."
        if actions and any("there is no command" in p for p in problems):
            note += f" The commands are: {', '.join(actions)}."
        note += " Reply again with valid commands only (or a one-sentence answer)."
        messages: list[dict[str, Any]] = [reply.as_message()]
        if reply.tool_calls:  # every call must be answered before the model may speak again
            messages += [{"role": "tool", "tool_call_id": c["id"], "content": note} for c in reply.tool_calls]
        else:
            messages.append({"role": "user", "content": note})
        return messages

    def _results(self, reply, reading: Reading, results, no_tools: bool) -> list[dict[str, Any]]:
        payloads = [
            (command.action, {"status": r.status, "message": r.message, "data": r.data})
            for command, r in results
        ]
        messages: list[dict[str, Any]] = [reply.as_message()]
        if no_tools or not reply.tool_calls or None in reading.call_ids:
            messages.append({"role": "user", "content": results_message(payloads)[:RESULT_CHARS]})
            return messages
        for call_id, (_, payload) in zip(reading.call_ids, payloads, strict=True):
            content = json.dumps(payload, default=str)[:RESULT_CHARS]
            messages.append({"role": "tool", "tool_call_id": call_id, "content": content})
        return messages

    def _give_up(self, text: str, reading: Reading, problems: list[str]) -> str:
        asked = ", ".join([str(w.get("action")) for w in reading.candidates] + reading.calls) or "no command"
        nearest = " · ".join(f'"{e}"' for e in suggest(self.registry, text))
        return (
            f"The model's reply was not a valid command twice ({problems[0]}), so nothing ran. "
            f"It asked for: {asked}. Nearest commands: {nearest}."
        )
