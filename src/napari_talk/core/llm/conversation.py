"""What one line's exchange with a model carries: the outcome being written, its deadline and stop,
and the requests it sends. Shared by every mode (see :mod:`.modes`)."""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from .prompt import Names

if TYPE_CHECKING:
    from ..basics.commands import Command
    from ..basics.result import Result
    from ..chat.settings import LLMSettings, SchemaForm
    from ..contract.registry import Registry
    from ..grammar.parser import Parser
    from ..grammar.rephrase import Rephraser
    from .canonical_pick import Picker
    from .router import Route

REPLY_TOKENS = {"choose": 40, "fill": 200, "reply": 320, "words": 120, "pick": 100}
"""A reply's length at most per step on a local server: enough for what the step asks, and a
bound on a grammar-held generation that crawls."""


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
    meant: str | None = None
    """A reading offered, never run (canonical mode): the canonical line the model's pick fills,
    which the person may take ("Did you mean …?")."""
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
    """The schema the reply is held to (its form chosen per server, see ``FORMS`` in :mod:`.exchange`)."""
    max_tokens: int = REPLY_TOKENS["reply"]
    fills: str | None = None
    """The one command whose parameters alone the reply holds (steps mode's second step)."""


Execute = Callable[["Command", float], "Result"]
"""Runs one read-only command (on the GUI thread, if there is one) within a time limit."""


@dataclass
class Conversation:
    """One typed line's exchange with the model: the line, the outcome being written, the deadline
    and stop every request honours, and the live names as the line met them (a command may use
    only those the line says)."""

    text: str
    outcome: LLMOutcome
    deadline: float
    cancelled: threading.Event
    names: Names = field(default_factory=dict)
    phrasings: Rephraser | None = None
    """The grammar's canonical phrasings, embedded (the session's, once ready): what the
    canonical mode offers a line."""


class Road(Protocol):
    """What a mode and the exchange use of the road: the offering and what the server taught it."""

    registry: Registry
    settings: LLMSettings
    form: SchemaForm | None
    """The schema form this server takes, as learned (None: plain JSON mode)."""
    routes: bool
    read_prompt: str | None

    def held(self, schema: dict[str, Any]) -> dict[str, Any]: ...
    def tools(self, actions: tuple[str, ...]) -> list[dict[str, Any]]: ...
    def pool(self, packs: Sequence[str] | None = None) -> tuple[str, ...]: ...
    def offered(
        self, text: str, packs: Sequence[str] | None = None, names: Names | None = None
    ) -> tuple[str, ...]: ...
    def hint(self, text: str, names: Names) -> str: ...
    def worked_examples(self, text: str, actions: Sequence[str], names: Names) -> list[tuple[str, str]]: ...
    def route(self, text: str, names: Names, pool: Sequence[str] | None = None) -> Route: ...
    def routable(self, text: str, route: Route) -> bool: ...
    @property
    def parser(self) -> Parser: ...
    def picker(self, phrasings: Rephraser) -> Picker: ...
