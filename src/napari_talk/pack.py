"""A pack: one domain's commands, grammar and handlers, joined to the registry as a unit."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .commands import Command
    from .grammar.rules import Rule
    from .result import Job, Result

Handler = Callable[[Any, Any], "Result | Job"]
"""``handler(command, session) -> Result``; the session holds the live objects (viewer, workspace)."""


@dataclass(frozen=True, eq=False)
class Pack:
    name: str
    commands: tuple[type[Command], ...]
    rules: tuple[Rule, ...] = ()
    handlers_module: str = ""
    """Dotted path of the module holding ``HANDLERS``; imported on first use to keep imports fast."""
    context_defaults: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    """Names the grammar may assume when the caller's context has none of that kind."""

    @cached_property
    def _handlers(self) -> Any:
        return importlib.import_module(self.handlers_module) if self.handlers_module else None

    @property
    def handlers(self) -> Mapping[str, Handler]:
        return getattr(self._handlers, "HANDLERS", {})

    def describe(self, session: Any) -> list[str]:
        """Lines telling a language model what this pack's live objects hold right now
        (by default, the names it offers the parser: "Glasses: Prism, Slab 1")."""
        describe = getattr(self._handlers, "describe_context", None)
        if describe is not None:
            return describe(session)
        return [
            f"{kind.capitalize()}: {', '.join(names)}" for kind, names in self.names(session).items() if names
        ]

    def format_for_agent(self, command: Any, result: Any) -> str | None:
        """The pack's own text for agents (XML for the rays pack); None means the Result as JSON."""
        formatter = getattr(self._handlers, "format_for_agent", None)
        return formatter(command, result) if formatter is not None else None

    def in_play(self, session: Any, folded_text: str) -> bool:
        """Whether a language model should see this pack's tools for a line: always for packs
        with ungated rules; else when the line has one of its words or its live objects exist."""
        if not self.rules or any(not rule.requires for rule in self.rules):
            return True
        if any(rule.may_match(folded_text) for rule in self.rules):
            return True
        live = getattr(self._handlers, "in_play", None)
        return live(session) if live is not None else self.name in session.state

    def names(self, session: Any) -> dict[str, list[str]]:
        """The names this pack's live objects offer the parser (``{"layers": [...]}``)."""
        known = getattr(self._handlers, "known_names", None)
        return known(session) if known else {}
