"""Consent, judged by what a command will do now, at the act: what it would send, replace or grow
that the person may have to agree to (:mod:`napari_talk.core.safety.risk`)."""

from __future__ import annotations

import logging
from collections.abc import Iterable
from typing import Any

from ..basics.commands import Command
from ..safety.risk import Approval, Consent, Effect, NeedsApproval, Origin, at_least, destination, urls_in
from .history import Entry, History
from .session_packs import SessionPacks

log = logging.getLogger(__name__)


class SessionConsent(SessionPacks):
    """The packs' layer, with the one shared undo history and what a command would do to it."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.history = History()

    def consent(
        self,
        command: Command,
        origin: Origin = "person",
        agreed: Iterable[str] = (),
        *,
        implicit: bool = False,
    ) -> Consent:
        """The consent ``command`` runs under, asked for by ``origin``, with what the person agreed to."""
        return Consent(
            origin=origin,
            policy=self.policy,
            wire=command.to_wire(),
            summary=command.summary(),
            agreed=frozenset(agreed),
            implicit=implicit,
            configured_hosts=self.configured_hosts(),
        )

    def effects(self, command: Command) -> tuple[Effect, ...]:
        """What running ``command`` now would do that the person may have to agree to, as its
        pack judges it (an undo: what it would replace of theirs, its digest)."""
        pack = self.registry.pack_of(command.action)
        sends = tuple(Effect.send(host) for host in _hosts(urls_in(command.model_dump().values())))
        try:
            found = pack.effects(command, self.context(pack))
            if sends:  # the hosts named say where better than the command's usual risk
                found = tuple(e for e in found if e.kind != "send")
            return found + sends
        except Exception:  # an effect nobody can tell is an effect to ask about
            log.debug("pack %s could not judge %s", pack.name, command.action, exc_info=True)
            return (Effect.replace(f"what {command.action} touches (it could not be judged)"), *sends)

    def judge(self, command: Command, origin: Origin = "person") -> Approval | None:
        """What the person would be asked before ``command`` ran now, or None: it would run."""
        pack = self.registry.pack_of(command.action)
        again = pack.judged_as(command, self.context(pack))
        implicit = again is not None
        command = again if again is not None else command
        try:
            self.consent(command, origin, implicit=implicit).require(*self.effects(command))
        except NeedsApproval as asked:
            return asked.approval
        return None

    def undo_effects(self) -> tuple[Effect, ...]:
        """What undoing the last change now would replace of the person's (nothing to undo: none)."""
        entry = self.history.next_undo()
        return undo_effects(entry) if entry is not None else ()

    def to_redo(self) -> Command | None:
        """The command a redo would run again, if any."""
        entry = self.history.next_redo()
        return entry.command if entry is not None else None

    def explain(self, asked: Command | Approval) -> str:
        """What a question to the person says: the command, and the effects they agree to."""
        if isinstance(asked, Command):
            approval = self.judge(asked, "model")
            return approval.question if approval is not None else asked.summary()
        return asked.question


def undo_effects(entry: Entry) -> tuple[Effect, ...]:
    """What undoing ``entry`` now would replace: what its steps' guards find (a layer painted on
    since: the person's line did not name it), and, for a change of data, that change itself (the
    person asked for it: a model or an agent undoing it asks them)."""
    found = tuple(entry.changes.effects())
    if at_least(entry.risk, "data"):
        found += (Effect.replace(f"what “{entry.said}” did, by undoing it", str(entry.serial)),)
    return found


def _hosts(urls: Iterable[str]) -> list[str]:
    found: list[str] = []
    for url in urls:
        where = destination(url)
        if where and where not in found:
            found.append(where)
    return found
