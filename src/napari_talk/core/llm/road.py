"""The LLM road: a typed line → (optionally a few read-only rounds) → validated commands.

Blocking and thread-agnostic: the dock runs it off the GUI thread and passes an ``execute`` that
runs read-only commands on the GUI thread. Nothing the model says runs unvalidated; the final
commands are returned, not executed, so the caller can ask for confirmation first.

The whole turn has one deadline (the settings' timeout), every request's reply is bounded in
tokens, and words from the model answer questions only: a line asking for something that comes
back as words is not understood (the words shown as the model's suggestion, never as done).
"""

from __future__ import annotations

import contextlib
import json
import logging
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from ..help.topics import not_understood_line, remark_line, suggest
from .client import Cancelled, ChatClient, LLMError, constrained_reply, json_reply, mentions_reply_format
from .grounding import invented, left_out, ungrounded
from .prompt import (
    ANSWER,
    CHOOSE_OPENING,
    HINT_OPENING,
    NO_COMMAND,
    WORDS_QUESTION,
    Names,
    choice_schema,
    choose_question,
    fill_question,
    fill_schema,
    reply_schema,
    results_message,
    steps_prompt,
    system_prompt,
    tool_schemas,
    worked,
)
from .replies import Reading, as_command, read_reply
from .router import Route, Router
from .settings import LLMSettings, SchemaForm
from .shortlist import Shortlist
from .words import asks_about_the_data, claims_action, is_question, is_remark

if TYPE_CHECKING:
    from ..contract.commands import Command
    from ..contract.registry import Registry
    from ..contract.result import Result

log = logging.getLogger(__name__)

UNREAD_ANSWER = " The model answered in words without reading anything of yours, so its words are not shown."
MAX_READ_CALLS = 3
"""Read-only tool calls run for the model in one turn before it must answer (the seed's limit)."""
MAX_COMMANDS_PER_REPLY = 20
"""A reply asking for more is refused whole (a person's line is a few commands at most)."""
TOOL_TIMEOUT = 30.0
RESULT_CHARS = 4000
REPLY_TOKENS = {"choose": 40, "fill": 200, "reply": 320, "words": 120}
"""A reply's length at most per step on a local server: enough for what the step asks, and a
bound on a grammar-held generation that crawls."""
ROUTED_FROM_EXAMPLES = 3
"""Commands the semantic router adds to the word shortlist (the line may share no word with them)."""

FORMS: tuple[SchemaForm | None, ...] = ("json_schema", "json_object", None)
"""How a reply is held to a schema, in the order tried: OpenAI's ``json_schema``, a schema on
``json_object`` (llama.cpp, llama-cpp-python), then plain JSON mode (None)."""


@dataclass
class LLMOutcome:
    commands: list[Command] = field(default_factory=list)
    """The final commands to run, validated, in order (not yet run). A command the model asked
    for during its turn that needs the person's agreement comes here too: the session asks."""
    spoken: str | None = None
    user_prompt: str | None = None
    read: list[tuple[Command, Result]] = field(default_factory=list)
    """Read-only commands run during the conversation, with their results."""
    error: str | None = None
    model: str = ""
    notes: list[str] = field(default_factory=list)
    """What the road learned about the server and says once (a schema form it fell back from)."""
    understood: bool = True
    """False: the model found no command for a line that asks for one (``error`` says so)."""
    prompt_tokens: int = 0
    """Tokens the server says it read for this line, over every request (0: it did not say)."""


@dataclass
class Request:
    """What is sent for a line: the messages (the conversation grows them), and per mode the tools
    or the options that shape the reply."""

    messages: list[dict[str, Any]]
    tools: list[dict[str, Any]] | None = None
    reply_format: dict[str, Any] | None = None
    actions: tuple[str, ...] = ()
    """The commands offered: a reply that names another is sent back with them."""
    schema: dict[str, Any] | None = None
    """The schema the reply is held to (its form chosen per server, see :data:`FORMS`)."""
    max_tokens: int = REPLY_TOKENS["reply"]
    fills: str | None = None
    """The one command whose parameters alone the reply holds (steps mode's second step)."""


Execute = Callable[["Command", float], "Result"]
"""Runs one read-only command (on the GUI thread, if there is one) within a time limit."""


@dataclass
class Line:
    """What one line's conversation carries: its deadline, stop, and the outcome being written."""

    text: str
    outcome: LLMOutcome
    deadline: float
    cancelled: threading.Event
    names: Names = field(default_factory=dict)
    """The live names as the line met them (a command may use only those the line says)."""


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
        self._router: Router | None = None
        self._parser: Any = None
        self._names_seen: Names | None = None
        self.form: SchemaForm | None = settings.schema_form
        """The schema form this server takes, as learned (None: plain JSON mode)."""
        self.routes = False
        """In steps mode, let the semantic router answer the first step when it is sure."""
        self._read_prompt: str | None = None
        """The steps prompt the server was last sent (read, and kept evaluated by a local one)."""

    @property
    def label(self) -> str:
        return f"{self.settings.model} @ {self.settings.base_url}"

    @property
    def router(self) -> Router:
        """Built on first use; the names live then read as names in the example phrasings too."""
        if self._router is None:
            self._router = Router(self.registry, self._names_seen)
        return self._router

    def interpret(
        self,
        text: str,
        context: Sequence[str],
        execute: Execute,
        cancelled: threading.Event | None = None,
        *,
        packs: Sequence[str] | None = None,
        scene: Sequence[str] | None = None,
        names: Names | None = None,
    ) -> LLMOutcome:
        """``packs`` limits the commands the model is offered (default: every pack's), and the
        shortlist setting keeps the likeliest of those; ``scene``: the packs in play whatever the
        line says, whose commands the steps prompt lists (default: ``packs``), so that prompt
        stays the same from line to line; ``names`` are the live names (layers, glasses, ...) that
        a constrained reply may use."""
        outcome = LLMOutcome(model=self.settings.model)
        self._names_seen = self._names_seen or names
        if is_remark(text):
            outcome.understood = False  # it tells or reacts: no command is in it to find
            outcome.error = remark_line(text)
            return outcome
        try:
            client = self.client()
            # the line's time with the model starts at its first request
            deadline = time.monotonic() + self.settings.timeout
            turn = Line(text, outcome, deadline, cancelled or threading.Event(), names or {})
            if self.settings.mode == "steps":
                offered = self.offered(text, packs, names)
                listed = self.pool(packs if scene is None else scene)
                self._steps(client, turn, context, listed, offered, names or {}, execute)
            else:
                request = self.request(text, context, self.offered(text, packs, names), names or {})
                self._converse(client, request, execute, turn)
        except Cancelled:
            outcome.error = "stopped"
        except LLMError as exc:
            outcome.error = str(exc)
        except Exception as exc:  # whatever a reply held, the person gets a line and a usable session
            log.warning("the LLM road failed", exc_info=True)
            outcome.error = f"the model's reply could not be used ({type(exc).__name__}); nothing ran"
        if outcome.error is None:
            self._judge_words(text, outcome, packs, names or {})
        return outcome

    def pool(self, packs: Sequence[str] | None = None) -> tuple[str, ...]:
        """Every command of ``packs`` (default: every pack's), in the registry's order."""
        return tuple(
            cls.action_name()
            for pack in self.registry.packs
            if packs is None or pack.name in packs
            for cls in pack.commands
        )

    def offered(
        self, text: str, packs: Sequence[str] | None = None, names: Names | None = None
    ) -> tuple[str, ...]:
        """The commands the model is offered for ``text``: those sharing its words, and those whose
        example phrasings it is nearest to (it may share no word with them)."""
        pool = self.pool(packs)
        if self._shortlist is None:
            self._shortlist = Shortlist(self.registry)
        keep = self.settings.shortlist
        picked = self._shortlist.choose(text, pool, names, keep=keep)
        if keep <= 0 or len(pool) <= keep:
            return picked
        live = [n for found in (names or {}).values() for n in found]
        near = [a for a, _, _ in self.router.nearest(text, live, pool, keep=ROUTED_FROM_EXAMPLES)]
        wanted = set(near) | set(picked[: max(keep - len(set(near) - set(picked)), 0)])
        return tuple(a for a in pool if a in wanted)

    def route(self, text: str, names: Names, pool: Sequence[str] | None = None) -> Route:
        """Where the semantic router sends ``text`` among ``pool`` (default: every command)."""
        self._names_seen = self._names_seen or names
        return self.router.route(text, [n for found in names.values() for n in found], pool)

    def routable(self, text: str, route: Route) -> bool:
        """Whether the router's pick may stand for the model's first step: it is sure, and a
        question goes only to a command that reads."""
        if route.action is None:
            return False
        return not is_question(text) or self.registry.commands[route.action].risk == "read"

    def hint(self, text: str, names: Names) -> str:
        """What the line was understood to name (live names it holds), as a hint for the model."""
        folded = f" {text.casefold()} "
        named = [
            f"{kind.rstrip('s')} {name!r}"
            for kind, found in names.items()
            for name in found
            if name and f" {name.casefold()} " in folded
        ]
        return f"({HINT_OPENING} {', '.join(named[:4])}.)" if named else ""

    def request(self, text: str, context: Sequence[str], actions: tuple[str, ...], names: Names) -> Request:
        """The first request for a line, as the mode shapes it."""
        mode = self.settings.mode
        listed = mode != "tools"
        examples = self.worked_examples(text, actions, names)
        messages = [
            {
                "role": "system",
                "content": system_prompt(
                    self.registry, context, listed=listed, actions=actions, examples=examples
                ),
            },
            {"role": "user", "content": " ".join(p for p in (text, self.hint(text, names)) if p)},
        ]
        if mode == "tools":
            return Request(messages, tools=self._tools(actions), actions=actions)
        if mode == "json":
            return Request(messages, reply_format=json_reply(), actions=actions)
        schema = reply_schema(self.registry, actions, names, strict=self.form == "json_schema")
        return Request(messages, reply_format=self._held(schema), actions=actions, schema=schema)

    def worked_examples(self, text: str, actions: Sequence[str], names: Names) -> list[tuple[str, str]]:
        """The project's own example lines nearest to ``text`` among the offered commands, with the
        command the parser reads in each (``settings.examples`` of them)."""
        if self.settings.examples <= 0:
            return []
        if self._parser is None:
            from ..grammar.parser import Parser

            self._parser = Parser(self.registry)
        shown: list[tuple[str, str]] = []
        live = [n for found in names.values() for n in found]
        for action, _, _ in self.router.nearest(text, live, actions, keep=len(actions)):
            for example in self.registry.commands[action].examples:
                with contextlib.suppress(Exception):
                    commands = self._parser.parse(example, names)
                    if commands:
                        wires = [c.to_wire() for c in commands]
                        shown.append((example, json.dumps({"commands": wires}, separators=(",", ":"))))
                        break
            if len(shown) >= self.settings.examples:
                break
        return shown

    def _held(self, schema: dict[str, Any]) -> dict[str, Any]:
        return json_reply() if self.form is None else constrained_reply(schema, self.form)

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

    @property
    def reads_ahead(self) -> bool:
        """Whether :meth:`prime` sends anything: steps mode, on a server on this machine."""
        return self.settings.mode == "steps" and self.settings.local and self.settings.configured

    def prime(self, context: Sequence[str], scene: Sequence[str] | None = None) -> bool:
        """Have a local server read the steps prompt for this scene (``context``, the commands of
        the ``scene`` packs) and the first question's opening before a line comes, so that the line
        waits only for its own words: a small model on a few cores reads ~65 tokens a second, and
        the prompt is hundreds. Blocking (run it in a thread while the person types); True when
        sent. Only in steps mode, and only to a server on this machine: elsewhere nothing is kept
        or it would cost the person tokens."""
        if not self.reads_ahead:
            return False
        system = steps_prompt(self.registry, self.pool(scene), context)
        if system == self._read_prompt:
            return False
        messages = [{"role": "system", "content": system}, {"role": "user", "content": CHOOSE_OPENING}]
        try:
            self.client().complete(messages, max_tokens=1, deadline=time.monotonic() + self.settings.timeout)
        except LLMError as exc:
            log.debug("priming the model's prompt failed: %s", exc)
            return False
        self._read_prompt = system
        return True

    def warm_up(self) -> None:
        """Create the client ahead of the first question (imports the SDK); errors wait for then."""
        with contextlib.suppress(LLMError):
            self.client()

    def close(self) -> None:
        with self._client_lock:
            if self._client is not None:
                self._client.close()
                self._client = None

    def _ask(self, client: ChatClient, request: Request, turn: Line) -> Any:
        """One request within the turn's deadline; a server that cannot hold a reply to a schema in
        the form asked is asked again in the next form (:data:`FORMS`), and the road says so once."""
        while True:
            try:
                reply = client.complete(
                    request.messages,
                    request.tools,
                    request.reply_format,
                    max_tokens=request.max_tokens,
                    deadline=turn.deadline,
                    cancelled=turn.cancelled,
                )
            except LLMError as exc:
                if request.schema is None or not self._falls_back(exc, turn.outcome):
                    raise
                request.reply_format = self._held(request.schema)
                continue
            turn.outcome.model = reply.model or turn.outcome.model
            turn.outcome.prompt_tokens += reply.prompt_tokens or 0
            if turn.cancelled.is_set():
                raise Cancelled("stopped")
            return reply

    def _falls_back(self, exc: LLMError, outcome: LLMOutcome) -> bool:
        if exc.status not in (400, 422, 500) or not mentions_reply_format(f"{exc.detail} {exc}"):
            return False
        at = FORMS.index(self.form)
        if at + 1 >= len(FORMS):
            return False
        was, self.form = self.form, FORMS[at + 1]
        now = f"a schema on {self.form}" if self.form is not None else "plain JSON mode"
        outcome.notes.append(
            f"{self.settings.base_url} does not take a schema as {was} ({exc.status}); "
            f"using {now} from now on (set it in the LLM settings to skip this)"
        )
        return True

    def _converse(self, client: ChatClient, request: Request, execute: Execute, turn: Line) -> None:
        outcome = turn.outcome
        messages = request.messages
        text = turn.text
        reasked = False
        read_calls = 0
        while True:
            reply = self._ask(client, request, turn)
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
            commands, problems = self._validate(reading)
            if problems:
                if reasked:
                    outcome.error = self._give_up(text, reading, problems)
                    return
                reasked = True
                messages += self._reask(reply, reading, problems, request.actions)
                continue
            refused = self._ungrounded(commands, turn)
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
            messages += self._results(reply, reading, results, request.tools is None)

    def _steps(
        self,
        client: ChatClient,
        turn: Line,
        context: Sequence[str],
        pool: tuple[str, ...],
        offered: tuple[str, ...],
        names: Names,
        execute: Execute,
    ) -> None:
        """Two small questions in one conversation: which commands (or none, or an answer in
        words), then the chosen commands' parameters, each reply held to its own schema. The
        conversation only grows, so a local server reads each step's new words, not the prompt
        again. The prompt lists every command in play (``pool``); the first reply may name only
        the likeliest (``offered``), and one the prompt does not list is described in the first
        question. The semantic router may answer the first step."""
        outcome = turn.outcome
        system = steps_prompt(self.registry, pool, context)
        also = [a for a in offered if a not in pool]
        first = choose_question(turn.text, self.registry, also, self.hint(turn.text, names))
        messages: list[dict[str, Any]] = [
            {"role": "system", "content": system},
            {"role": "user", "content": first},
        ]
        self._read_prompt = system
        chosen: list[str] | None = None
        if self.routes:
            route = self.route(turn.text, names, offered)
            if self.routable(turn.text, route) and route.action is not None:
                chosen = [route.action]
                messages.append({"role": "assistant", "content": json.dumps({"commands": chosen})})
        if chosen is None:
            choose = Request(messages, schema=choice_schema(offered), max_tokens=REPLY_TOKENS["choose"])
            choose.reply_format = self._held(choose.schema or {})
            reply = self._ask(client, choose, turn)
            chosen = self._chosen(reply.content, offered)
            messages.append(reply.as_message())
        if chosen is None or NO_COMMAND in chosen:
            outcome.understood = False
            return
        if ANSWER in chosen:
            words = Request(
                [*messages, {"role": "user", "content": WORDS_QUESTION}], max_tokens=REPLY_TOKENS["words"]
            )
            outcome.spoken = (self._ask(client, words, turn).content or "").strip() or None
            if outcome.spoken is None:
                outcome.understood = False
            return
        question = fill_question(self.registry, chosen, names)
        examples = worked(self.worked_examples(turn.text, chosen, names))
        fill = Request(
            [*messages, {"role": "user", "content": "\n".join([question, *examples])}],
            actions=tuple(chosen),
            schema=fill_schema(self.registry, chosen, names),
            max_tokens=REPLY_TOKENS["fill"],
            fills=chosen[0] if len(chosen) == 1 else None,
        )
        fill.reply_format = self._held(fill.schema or {})
        self._converse(client, fill, execute, turn)

    @staticmethod
    def _chosen(content: str | None, actions: Sequence[str]) -> list[str] | None:
        """The first step's answer: commands among ``actions`` (each once), or a word for none."""
        try:
            data = json.loads(content or "")
        except ValueError:
            return None
        listed = data.get("commands") if isinstance(data, dict) else None
        if not isinstance(listed, list):
            return None
        allowed = {*actions, NO_COMMAND, ANSWER}
        chosen = [a for a in dict.fromkeys(listed) if isinstance(a, str) and a in allowed]
        if not chosen:
            return None
        if NO_COMMAND in chosen or ANSWER in chosen:
            return [NO_COMMAND] if NO_COMMAND in chosen else [ANSWER]
        return chosen

    def _ungrounded(self, commands: Sequence[Command], turn: Line) -> str | None:
        """The line a person gets when the model's commands say what the line does not (see
        :mod:`.grounding`), or ask to change something in answer to a question; None when they
        may run."""
        spellings = {kind for pack in self.registry.packs for kind in pack.spelling_kinds}
        live = [n for kind, found in turn.names.items() if kind not in spellings for n in found]
        question = is_question(turn.text)
        wires = [
            {"action": c.action, **c.model_dump(exclude={"action"}, exclude_defaults=True)} for c in commands
        ]
        for command, wire in zip(commands, wires, strict=True):
            required = self.registry.schema(command.action).get("required", [])
            why = ungrounded(wire, turn.text, live) or invented(wire, turn.text, required)
            if why is None and question and command.risk != "read":
                why = "a question changes nothing"
            if why is not None:
                return self._refused(turn.text, f"{command.summary()} ({why})")
        missing = left_out(wires, turn.text, live)
        if missing is not None:
            return self._refused(turn.text, f"{'; '.join(c.summary() for c in commands)} ({missing})")
        return None

    def _refused(self, text: str, said: str) -> str:
        return not_understood_line(text, suggest(self.registry, text), offer_model=False, suggestion=said)

    def _judge_words(self, text: str, outcome: LLMOutcome, packs: Sequence[str] | None, names: Names) -> None:
        """Words answer questions about the world only, and never claim what no command did; a
        question about the data is answered by a command that reads it, not by words that rest on
        nothing the model read."""
        spoken = (outcome.spoken or "").strip()
        if outcome.commands or outcome.read:
            if spoken and claims_action(spoken):
                outcome.spoken = None  # what ran says what was done
            return
        question = is_question(text)
        live = [name for found in names.values() for name in found]
        unread = bool(spoken) and question and asks_about_the_data(text, live, self.registry.data_words)
        if spoken and question and not claims_action(spoken) and not unread:
            return
        outcome.spoken = None
        outcome.understood = False
        nearest = suggest(self.registry, text, packs=packs)
        if unread:
            outcome.error = not_understood_line(text, nearest, offer_model=False) + UNREAD_ANSWER
            return
        outcome.error = not_understood_line(text, nearest, offer_model=False, suggestion=spoken or None)

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
