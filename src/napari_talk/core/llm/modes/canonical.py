"""Canonical mode: the model paraphrases a line into the grammar's own language, and the parser
reads the paraphrase (after Shin et al., EMNLP 2021, "Constrained Language Models Yield Few-Shot
Semantic Parsers"; the offer is :mod:`..canonical_pick`).

One short request a line: the nearest canonical phrasings, numbered, and a reply held by a
schema to one of their numbers (or none) with each slot a span of the line or a live name. The
model never writes a command: the parser reads what it picked, so a reading from this mode is
validated, named and grounded as a typed line is, then checked against the line once more
(:func:`..grounding.ungrounded`, :func:`..evidence.unevidenced`): a reading the line does not
say is refused. A reading that holds is offered ("Did you mean …?"), as the session's own
canonical stage offers its readings, and runs only when the person takes it: on lines nobody
tuned for, a 1.5B model's picks were wrong about as often as right. Until the session's
phrasings are embedded (or on a machine without the sentence model) the line goes to steps mode.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ...grammar.rephrase import COMMON, values_of
from ...help.topics import not_understood_line, suggest
from ..conversation import REPLY_TOKENS, Conversation, Execute, Request, Road
from ..evidence import unevidenced
from ..exchange import ask, refusal, refused_line
from .base import Strategy
from .steps import StepsMode

if TYPE_CHECKING:
    from ...chat.client import ChatClient


class CanonicalMode(Strategy):
    name = "canonical"
    _steps = StepsMode()

    def run(
        self,
        road: Road,
        client: ChatClient,
        talk: Conversation,
        context: Sequence[str],
        packs: Sequence[str] | None,
        scene: Sequence[str] | None,
        execute: Execute,
    ) -> None:
        if talk.phrasings is None:
            self._steps.run(road, client, talk, context, packs, scene, execute)
            return
        outcome = talk.outcome
        offer = road.picker(talk.phrasings).offer(
            talk.text, values_of(talk.text, talk.names, COMMON).bare, talk.names
        )
        request = Request(offer.messages(), schema=offer.schema(), max_tokens=REPLY_TOKENS["pick"])
        request.reply_format = road.held(request.schema or {})
        canonical = offer.canonical(ask(road, client, request, talk).content)
        commands = road.parser.parse(canonical, talk.names) if canonical else []
        if canonical is None or not commands:
            outcome.understood = False
            return
        outcome.understood = False  # refused, or offered: a small model's pick never runs unasked
        live = [name for found in talk.names.values() for name in found]
        why = unevidenced([c.action for c in commands], talk.text, canonical, road.registry, live)
        outcome.error = refusal(road, commands, talk) or (
            why and refused_line(road, talk.text, f"“{canonical}” ({why})")
        )
        if not outcome.error:
            outcome.meant = canonical
            outcome.error = not_understood_line(
                talk.text, suggest(road.registry, talk.text), offer_model=False, meant=canonical
            )
