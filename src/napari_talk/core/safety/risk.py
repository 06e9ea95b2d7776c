"""Consent: judged by what a command will do to the person's things, at the moment it does it.

A command's class names its usual :data:`Risk` (for MCP hints and the help); whether the person
must agree is decided from its :class:`Effect` on the state as it is when it runs:

- it sends bytes to a host the person did not configure (``send``);
- it replaces or removes something the person made or changed (``replace``): a file napari-talk
  did not write, a layer painted on since napari-talk made it;
- it deletes something of the person's (``delete``): asked whoever asks, the person too, even
  when the deleted thing can be put back;
- it grows something without bound: refused past a budget (:class:`OverBudget`), never asked.

Where the effect is known (the session before a command runs, a handler at the act, an undo step
about to run) :meth:`Consent.require` raises :class:`NeedsApproval`, the one typed outcome; the
session handles it once: the dock asks the person, agents and MCP clients get a structured refusal
they can show. An agreement covers exactly the effects asked about (their digests include the
state they meet), so what changed while the person was asked is asked about again.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal
from urllib.parse import urlsplit

from ..errors import CommandError
from .net import NetPolicy

Risk = Literal["read", "view", "data", "send"]
"""A command's usual risk. ``read``: only reads. ``view``: changes what is shown, or adds something
new. ``data``: changes or removes the person's data. ``send``: sends data somewhere new."""

RISKS: tuple[Risk, ...] = ("read", "view", "data", "send")

Origin = Literal["person", "model", "agent"]
"""Who asked: the person typing, a language model's reply, or an agent (function call, MCP)."""

EffectKind = Literal["send", "replace", "delete"]


def at_least(risk: Risk, floor: Risk) -> bool:
    return RISKS.index(risk) >= RISKS.index(floor)


def riskiest(risks: list[Risk]) -> Risk:
    return max(risks, key=RISKS.index, default="read")


@dataclass(frozen=True)
class Effect:
    """One thing a command will do that the person may have to agree to."""

    kind: EffectKind
    what: str
    """The host it sends to, or what it replaces ("notes.txt, which napari-talk did not write")."""
    state: str = ""
    """A digest of what it meets now: an agreement covers this state, not a later one. Empty for
    an effect known only from a command's usual risk (nothing met yet)."""
    named: bool = True
    """Whether the command names it (``write notes.txt``), so the person who typed it has said so;
    an undo, a redo or a sample that overwrites files names none of what it touches."""

    @classmethod
    def send(cls, host: str) -> Effect:
        return cls("send", host)

    @classmethod
    def replace(cls, what: str, state: str = "", *, named: bool = True) -> Effect:
        return cls("replace", what, state, named)

    @classmethod
    def delete(cls, what: str, state: str = "") -> Effect:
        return cls("delete", what, state)

    def said(self) -> str:
        verb = {"send": "sends data to", "replace": "replaces", "delete": "deletes"}[self.kind]
        return f"{verb} {self.what}"


@dataclass(frozen=True)
class RiskPolicy:
    """Who must agree to what. The person's own line runs, unless it would replace something of
    theirs it does not name (an undo, a redo, a sample's files). A model or an agent asking to
    replace the person's things waits for the person (unless the person said "run them without
    asking"); sending to a host the person did not configure always waits; a deletion waits for
    the person's word even on their own line ("delete ch01.md" asks "Run it?")."""

    trust_with_data: bool = False

    def needs_person(self, effect: Effect, origin: Origin, *, implicit: bool = False) -> bool:
        if effect.kind == "delete":  # a file manager asks before it deletes, whoever asked
            return origin == "person" or not self.trust_with_data
        if origin == "person":  # a redo asks about what it meets now, not about its usual risk
            return effect.kind == "replace" and (not effect.named or (implicit and bool(effect.state)))
        if effect.kind == "send":
            return True
        return not self.trust_with_data

    @staticmethod
    def hints(risk: Risk) -> dict[str, bool]:
        """MCP tool annotations for a command's usual risk."""
        return {
            "read_only_hint": risk == "read",
            "destructive_hint": at_least(risk, "data"),
            "open_world_hint": risk == "send",
        }


def usual_effects(risk: Risk) -> tuple[Effect, ...]:
    """What a command of a pack that says no more than its risk label does: its label, in words."""
    if risk == "send":
        return (Effect.send("a server the person did not configure"),)
    if risk == "data":
        return (Effect.replace("the person's data (it changes or removes it)"),)
    return ()


@dataclass(frozen=True)
class Approval:
    """What the person is asked to agree to: one command, and the effects that need them."""

    action: str
    summary: str
    effects: tuple[Effect, ...]
    tokens: frozenset[str]
    """Agreeing to these lets the same command with the same effects run (see :class:`Consent`)."""

    @property
    def question(self) -> str:
        return f"{self.summary} ({'; '.join(e.said() for e in self.effects)})"

    def to_dict(self) -> dict[str, Any]:
        """The structured refusal an agent or an MCP client shows its person."""
        return {
            "action": self.action,
            "command": self.summary,
            "effects": [{"kind": e.kind, "what": e.what} for e in self.effects],
            "question": self.question,
        }


class NeedsApproval(CommandError):
    """The command would do something the person must agree to first; nothing was changed."""

    kind = "needs_approval"

    def __init__(self, approval: Approval) -> None:
        super().__init__(f"{approval.question}: waits for the person's approval; nothing ran")
        self.approval = approval


class OverBudget(CommandError):
    """The command would grow something past its budget: refused, saying the limit."""

    kind = "OverBudget"


@dataclass(frozen=True)
class Consent:
    """The consent of the command running now: who asked, and what the person has agreed to."""

    origin: Origin = "person"
    policy: RiskPolicy = field(default_factory=RiskPolicy)
    wire: Mapping[str, Any] = field(default_factory=dict)
    summary: str = ""
    agreed: frozenset[str] = frozenset()
    implicit: bool = False
    """The person's line names none of what the command touches (undo, redo)."""
    configured_hosts: frozenset[str] = frozenset()
    """Where the person set up a server (``host:port`` of the model's server) or allowed a host
    (``host``, any port, in the settings): sending there asks nobody."""

    def token(self, effect: Effect) -> str:
        raw = json.dumps([self.wire, effect.kind, effect.what, effect.state], sort_keys=True, default=str)
        return hashlib.sha256(raw.encode()).hexdigest()

    def asking(self, effects: Iterable[Effect | None]) -> tuple[Effect, ...]:
        """The effects the person must still agree to."""
        found = []
        for effect in effects:
            if effect is None or (effect.kind == "send" and self._configured(effect.what)):
                continue
            needs = self.policy.needs_person(effect, self.origin, implicit=self.implicit)
            if needs and self.token(effect) not in self.agreed and effect not in found:
                found.append(effect)
        return tuple(found)

    def _configured(self, where: str) -> bool:
        host = where.rsplit(":", 1)[0].strip("[]") if where.rsplit(":", 1)[-1].isdigit() else where
        return where.casefold() in self.configured_hosts or host.casefold() in self.configured_hosts

    def require(self, *effects: Effect | None) -> None:
        """Go on if the person needs not agree to ``effects`` or has; else raise :class:`NeedsApproval`."""
        asking = self.asking(effects)
        if asking:
            action = str(self.wire.get("action", "command"))
            tokens = frozenset(self.token(e) for e in asking)
            raise NeedsApproval(Approval(action, self.summary or action, asking, tokens))

    def sending(self, url: str) -> None:
        """Consent to fetch ``url`` (a host the person did not configure asks a model or agent)."""
        where = destination(url)
        if where:
            self.require(Effect.send(where))


def destination(url: str) -> str:
    """``host:port`` a URL sends to (the scheme's port when none is written); "" when it has none."""
    try:
        parts = urlsplit(url.strip())
        port = parts.port or {"http": 80, "https": 443}.get(parts.scheme.casefold(), 0)
    except ValueError:
        return ""
    host = (parts.hostname or "").casefold()
    if not host:
        return ""
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


def urls_in(values: Iterable[Any]) -> list[str]:
    """The http(s) URLs among a command's parameter values."""
    found = []
    for value in values:
        if isinstance(value, str) and value.strip().casefold().startswith(("http://", "https://")):
            found.append(value.strip())
        elif isinstance(value, list | tuple):
            found += urls_in(value)
    return found


@dataclass(frozen=True)
class ConsentedNet(NetPolicy):
    """The download door a handler gets: every fetch is judged by the running command's consent,
    so a URL reached only as the command runs (not among its parameters) is asked about too."""

    consent: Consent = field(default_factory=Consent)

    def fetch(self, url: str, *, timeout: float, max_bytes: int, accept: str = "*/*") -> Any:
        self.consent.sending(url)
        return super().fetch(url, timeout=timeout, max_bytes=max_bytes, accept=accept)
