"""The exchange every mode ends in: ask within the line's deadline (falling back to the next schema
form a server takes), read the reply, validate its commands, ask again once when they are not valid,
refuse what the line does not say, and run read-only commands for the model until it answers."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from ..chat.client import Cancelled, ChatClient, LLMError, mentions_reply_format
from ..chat.settings import SchemaForm
from ..help.topics import not_understood_line, suggest
from .conversation import Conversation, Execute, LLMOutcome, Request, Road
from .grounding import invented, left_out, ungrounded
from .prompt import NO_COMMAND, results_message
from .replies import Reading, as_command, read_reply
from .words import is_question

if TYPE_CHECKING:
    from ..basics.commands import Command
    from ..basics.result import Result

MAX_READ_CALLS = 3
"""Read-only tool calls run for the model in one turn before it must answer (the seed's limit)."""
MAX_COMMANDS_PER_REPLY = 20
"""A reply asking for more is refused whole (a person's line is a few commands at most)."""
TOOL_TIMEOUT = 30.0
RESULT_CHARS = 4000

FORMS: tuple[SchemaForm | None, ...] = ("json_schema", "json_object", None)
"""How a reply is held to a schema, in the order tried: OpenAI's ``json_schema``, a schema on
``json_object`` (llama.cpp, llama-cpp-python), then plain JSON mode (None)."""


def ask(road: Road, client: ChatClient, request: Request, talk: Conversation) -> Any:
    """One request within the line's deadline; a server that cannot hold a reply to a schema in
    the form asked is asked again in the next form (:data:`FORMS`), and the road says so once."""
    while True:
        try:
            reply = client.complete(
                request.messages,
                request.tools,
                request.reply_format,
                max_tokens=request.max_tokens,
                deadline=talk.deadline,
                cancelled=talk.cancelled,
            )
        except LLMError as exc:
            if request.schema is None or not _falls_back(road, exc, talk.outcome):
                raise
            request.reply_format = road.held(request.schema)
            continue
        talk.outcome.model = reply.model or talk.outcome.model
        talk.outcome.prompt_tokens += reply.prompt_tokens or 0
        if talk.cancelled.is_set():
            raise Cancelled("stopped")
        return reply


def _falls_back(road: Road, exc: LLMError, outcome: LLMOutcome) -> bool:
    if exc.status not in (400, 422, 500) or not mentions_reply_format(f"{exc.detail} {exc}"):
        return False
    at = FORMS.index(road.form)
    if at + 1 >= len(FORMS):
        return False
    was, road.form = road.form, FORMS[at + 1]
    now = f"a schema on {road.form}" if road.form is not None else "plain JSON mode"
    outcome.notes.append(
        f"{road.settings.base_url} does not take a schema as {was} ({exc.status}); "
        f"using {now} from now on (set it in the LLM settings to skip this)"
    )
    return True


def converse(road: Road, client: ChatClient, request: Request, execute: Execute, talk: Conversation) -> None:
    """Ask until the model's reply is commands to run, words, or none; read-only commands it asks
    for are run and their results sent back (at most :data:`MAX_READ_CALLS`)."""
    outcome = talk.outcome
    messages = request.messages
    reasked = False
    read_calls = 0
    while True:
        reply = ask(road, client, request, talk)
        content = as_command(reply.content, request.fills) if request.fills else reply.content
        reading = read_reply(content, reply.tool_calls)
        declined = [w.get("action") == NO_COMMAND for w in reading.candidates]
        if declined and all(declined):
            reading = Reading(nothing=True)
        if reading.nothing and not reading.candidates:
            outcome.understood = False
            return
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
        commands, problems = validate(road, reading)
        if problems:
            if reasked:
                outcome.error = _give_up(road, talk.text, reading, problems)
                return
            reasked = True
            messages += _reask(reply, problems, request.actions)
            continue
        refused = refusal(road, commands, talk)
        if refused is not None:
            outcome.understood = False
            outcome.error = refused
            return
        outcome.spoken = reading.spoken
        reads_only = commands and all(c.risk == "read" for c in commands)
        if not reads_only:
            outcome.commands = commands
            return
        if all(any(c == done for done, _ in outcome.read) for c in commands):
            return  # asked again for what it has read: what was read is the answer
        if read_calls + len(commands) > MAX_READ_CALLS:
            outcome.error = (
                f"the model wanted more than {MAX_READ_CALLS} lookups for one request, so it was "
                f"stopped after {read_calls}; ask a narrower question"
            )
            return
        read_calls += len(commands)
        results: list[tuple[Command, Result]] = []
        for at, command in enumerate(commands):
            result = execute(command, TOOL_TIMEOUT)
            if result.approval is not None:
                # the person is asked, by the session, before it runs: not the model
                outcome.read += results
                outcome.commands = commands[at:]
                outcome.spoken = None
                return
            results.append((command, result))
        outcome.read += results
        messages += _results(reply, reading, results, request.tools is None)


def refusal(road: Road, commands: Sequence[Command], talk: Conversation) -> str | None:
    """The line a person gets when the model's commands say what the line does not (see
    :mod:`.grounding`), or ask to change something in answer to a question; None when they
    may run."""
    registry = road.registry
    spellings = {kind for pack in registry.packs for kind in pack.spelling_kinds}
    live = [n for kind, found in talk.names.items() if kind not in spellings for n in found]
    question = is_question(talk.text)
    wires = [
        {"action": c.action, **c.model_dump(exclude={"action"}, exclude_defaults=True)} for c in commands
    ]
    for command, wire in zip(commands, wires, strict=True):
        required = registry.schema(command.action).get("required", [])
        why = ungrounded(wire, talk.text, live) or invented(wire, talk.text, required)
        if why is None and question and command.risk != "read":
            why = "a question changes nothing"
        if why is not None:
            return refused_line(road, talk.text, f"{command.summary()} ({why})")
    missing = left_out(wires, talk.text, live)
    if missing is not None:
        return refused_line(road, talk.text, f"{'; '.join(c.summary() for c in commands)} ({missing})")
    return None


def refused_line(road: Road, text: str, said: str) -> str:
    """What the person reads when a model's reading (``said``) is refused: not understood, with
    the nearest commands, and the reading shown as the model's suggestion, never as done."""
    return not_understood_line(text, suggest(road.registry, text), offer_model=False, suggestion=said)


def validate(road: Road, reading: Reading) -> tuple[list[Command], list[str]]:
    """The reply's commands validated by the registry, and what was wrong with the others."""
    registry = road.registry
    commands, problems = [], list(reading.problems)
    for name in reading.calls:
        if name in registry.commands:
            problems.append(
                f"{name}(...) is a function call written as text, not a command: reply with JSON, "
                f'{{"action": "{name}", ...its parameters by name}}'
            )
        else:
            problems.append(f"there is no command {name!r} (a function call written as text)")
    for raw, loose in zip(reading.candidates, reading.loose, strict=True):
        action = raw.get("action")
        if action not in registry.commands:
            problems.append(f"there is no command {action!r}")
            continue
        fields = registry.commands[action].model_fields
        wire = {k: v for k, v in loose.items() if k in fields}  # parameters put beside a wrapper
        # null is how a reply held to a strict schema leaves a parameter out
        wire.update((k, v) for k, v in raw.items() if v is not None)
        try:
            commands.append(registry.validate(wire))
        except ValidationError as exc:
            details = "; ".join(
                f"{'.'.join(map(str, e['loc'][1:])) or action}: {e['msg']}" for e in exc.errors()
            )
            problems.append(f"{action}: {details}")
    return commands, problems


def _reask(reply: Any, problems: list[str], actions: Sequence[str]) -> list[dict[str, Any]]:
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


def _results(
    reply: Any, reading: Reading, results: list[tuple[Command, Result]], no_tools: bool
) -> list[dict[str, Any]]:
    payloads = [
        (command.action, {"status": r.status, "message": r.message, "data": r.data}) for command, r in results
    ]
    messages: list[dict[str, Any]] = [reply.as_message()]
    if no_tools or not reply.tool_calls or None in reading.call_ids:
        messages.append({"role": "user", "content": results_message(payloads)[:RESULT_CHARS]})
        return messages
    for call_id, (_, payload) in zip(reading.call_ids, payloads, strict=True):
        content = json.dumps(payload, default=str)[:RESULT_CHARS]
        messages.append({"role": "tool", "tool_call_id": call_id, "content": content})
    return messages


def _give_up(road: Road, text: str, reading: Reading, problems: list[str]) -> str:
    asked = ", ".join([str(w.get("action")) for w in reading.candidates] + reading.calls) or "no command"
    nearest = " · ".join(f'"{e}"' for e in suggest(road.registry, text))
    return (
        f"The model's reply was not a valid command twice ({problems[0]}), so nothing ran. "
        f"It asked for: {asked}. Nearest commands: {nearest}."
    )
