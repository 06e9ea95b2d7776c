"""The LLM road: a typed line → (optionally a few read-only rounds) → validated commands.

Blocking and thread-agnostic: the dock runs it off the GUI thread and passes an ``execute`` that
runs read-only commands on the GUI thread. Nothing the model says runs unvalidated; the final
commands are returned, not executed, so the caller can ask for confirmation first.

The road interprets (what a reply means for the person), offers (which commands a line is shown
with) and holds the client; how a line is put to the model is its mode's (:mod:`.modes`), and the
exchange every mode ends in is :mod:`.exchange`.

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
from typing import TYPE_CHECKING, Any

from ..chat.client import Cancelled, ChatClient, LLMError, constrained_reply, json_reply
from ..chat.settings import LLMSettings, SchemaForm
from ..help.topics import not_understood_line, remark_line, suggest
from .conversation import REPLY_TOKENS, Conversation, Execute, LLMOutcome, Request
from .exchange import FORMS, MAX_COMMANDS_PER_REPLY, MAX_READ_CALLS
from .modes import STRATEGIES, Strategy
from .prompt import HINT_OPENING, Names, tool_schemas
from .router import Route, Router
from .shortlist import Shortlist
from .words import asks_about_the_data, claims_action, is_question, is_remark

if TYPE_CHECKING:
    from ..contract.registry import Registry
    from ..grammar.parser import Parser
    from ..grammar.rephrase import Rephraser
    from .canonical_pick import Picker

__all__ = [
    "FORMS",
    "MAX_COMMANDS_PER_REPLY",
    "MAX_READ_CALLS",
    "REPLY_TOKENS",
    "Execute",
    "LLMOutcome",
    "LLMRoad",
    "Request",
]

log = logging.getLogger(__name__)

UNREAD_ANSWER = " The model answered in words without reading anything of yours, so its words are not shown."
ROUTED_FROM_EXAMPLES = 3
"""Commands the semantic router adds to the word shortlist (the line may share no word with them)."""


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
        self._parser: Parser | None = None
        self._picker: tuple[Rephraser, Picker] | None = None
        self._names_seen: Names | None = None
        self.form: SchemaForm | None = settings.schema_form
        """The schema form this server takes, as learned (None: plain JSON mode)."""
        self.routes = False
        """In steps mode, let the semantic router answer the first step when it is sure."""
        self.read_prompt: str | None = None
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
        phrasings: Rephraser | None = None,
    ) -> LLMOutcome:
        """``packs`` limits the commands the model is offered (default: every pack's), and the
        shortlist setting keeps the likeliest of those; ``scene``: the packs in play whatever the
        line says, whose commands the steps prompt lists (default: ``packs``), so that prompt
        stays the same from line to line; ``names`` are the live names (layers, glasses, ...) that
        a constrained reply may use; ``phrasings``: the session's embedded canonical phrasings,
        when ready (the canonical mode offers the nearest of them)."""
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
            talk = Conversation(
                text, outcome, deadline, cancelled or threading.Event(), names or {}, phrasings
            )
            self.strategy.run(self, client, talk, context, packs, scene, execute)
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

    def worked_examples(self, text: str, actions: Sequence[str], names: Names) -> list[tuple[str, str]]:
        """The project's own example lines nearest to ``text`` among the offered commands, with the
        command the parser reads in each (``settings.examples`` of them)."""
        if self.settings.examples <= 0:
            return []
        shown: list[tuple[str, str]] = []
        live = [n for found in names.values() for n in found]
        for action, _, _ in self.router.nearest(text, live, actions, keep=len(actions)):
            for example in self.registry.commands[action].examples:
                with contextlib.suppress(Exception):
                    commands = self.parser.parse(example, names)
                    if commands:
                        wires = [c.to_wire() for c in commands]
                        shown.append((example, json.dumps({"commands": wires}, separators=(",", ":"))))
                        break
            if len(shown) >= self.settings.examples:
                break
        return shown

    @property
    def parser(self) -> Parser:
        """The grammar's parser, made on first use: it reads worked examples and a model's
        canonical paraphrases."""
        if self._parser is None:
            from ..grammar.parser import Parser

            self._parser = Parser(self.registry)
        return self._parser

    def picker(self, phrasings: Rephraser) -> Picker:
        """The canonical phrasings as a model is offered them, over the session's embedded
        phrasings (made once per set of them)."""
        if self._picker is None or self._picker[0] is not phrasings:
            from .canonical_pick import Picker

            picker = Picker(self.registry, phrasings.phrasings, phrasings.vectors, phrasings.embed)
            self._picker = (phrasings, picker)
        return self._picker[1]

    def held(self, schema: dict[str, Any]) -> dict[str, Any]:
        """The reply format holding a reply to ``schema`` in the form this server takes."""
        return json_reply() if self.form is None else constrained_reply(schema, self.form)

    def tools(self, actions: tuple[str, ...]) -> list[dict[str, Any]]:
        """The offered commands as function tools (built once per set of commands)."""
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
    def strategy(self) -> Strategy:
        """The mode putting lines to the model (``settings.mode``)."""
        return STRATEGIES[self.settings.mode]

    @property
    def reads_ahead(self) -> bool:
        """Whether :meth:`prime` sends anything: a mode with a prompt to read ahead (steps), on a
        server on this machine."""
        return (
            self.settings.local
            and self.settings.configured
            and type(self.strategy).primer is not Strategy.primer
        )

    def prime(self, context: Sequence[str], scene: Sequence[str] | None = None) -> bool:
        """Have a local server read the mode's prompt for this scene (``context``, the commands of
        the ``scene`` packs) and the first question's opening before a line comes, so that the line
        waits only for its own words: a small model on a few cores reads ~65 tokens a second, and
        the prompt is hundreds. Blocking (run it in a thread while the person types); True when
        sent. Only in a mode with such a prompt, and only to a server on this machine: elsewhere
        nothing is kept or it would cost the person tokens."""
        if not self.reads_ahead:
            return False
        primer = self.strategy.primer(self, context, scene)
        if primer is None or primer[0] == self.read_prompt:
            return False
        system, messages = primer
        try:
            self.client().complete(messages, max_tokens=1, deadline=time.monotonic() + self.settings.timeout)
        except LLMError as exc:
            log.debug("priming the model's prompt failed: %s", exc)
            return False
        self.read_prompt = system
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
