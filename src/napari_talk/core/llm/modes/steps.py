"""Steps mode: two small schema-held questions in one conversation, first which commands (or none,
or an answer in words), then the chosen commands' parameters. Best for small local models."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..conversation import REPLY_TOKENS, Conversation, Execute, Request, Road
from ..exchange import ask, converse
from ..prompt import (
    ANSWER,
    CHOOSE_OPENING,
    NO_COMMAND,
    WORDS_QUESTION,
    choice_schema,
    choose_question,
    fill_question,
    fill_schema,
    steps_prompt,
    worked,
)
from .base import Strategy

if TYPE_CHECKING:
    from ...chat.client import ChatClient


class StepsMode(Strategy):
    """The conversation only grows, so a local server reads each step's new words, not the prompt
    again. The prompt lists every command in play (the ``scene`` packs'); the first reply may name
    only the likeliest (the offered), and one the prompt does not list is described in the first
    question. The semantic router may answer the first step (``road.routes``)."""

    name = "steps"

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
        offered = road.offered(talk.text, packs, talk.names)
        pool = road.pool(packs if scene is None else scene)
        outcome = talk.outcome
        names = talk.names
        system = steps_prompt(road.registry, pool, context)
        also = [a for a in offered if a not in pool]
        first = choose_question(talk.text, road.registry, also, road.hint(talk.text, names))
        messages: list[dict[str, Any]] = [
            {"role": "system", "content": system},
            {"role": "user", "content": first},
        ]
        road.read_prompt = system
        chosen: list[str] | None = None
        if road.routes:
            route = road.route(talk.text, names, offered)
            if road.routable(talk.text, route) and route.action is not None:
                chosen = [route.action]
                messages.append({"role": "assistant", "content": json.dumps({"commands": chosen})})
        if chosen is None:
            choose = Request(messages, schema=choice_schema(offered), max_tokens=REPLY_TOKENS["choose"])
            choose.reply_format = road.held(choose.schema or {})
            reply = ask(road, client, choose, talk)
            chosen = self.chosen(reply.content, offered)
            messages.append(reply.as_message())
        if chosen is None or NO_COMMAND in chosen:
            outcome.understood = False
            return
        if ANSWER in chosen:
            words = Request(
                [*messages, {"role": "user", "content": WORDS_QUESTION}], max_tokens=REPLY_TOKENS["words"]
            )
            outcome.spoken = (ask(road, client, words, talk).content or "").strip() or None
            if outcome.spoken is None:
                outcome.understood = False
            return
        question = fill_question(road.registry, chosen, names)
        examples = worked(road.worked_examples(talk.text, chosen, names))
        fill = Request(
            [*messages, {"role": "user", "content": "\n".join([question, *examples])}],
            actions=tuple(chosen),
            schema=fill_schema(road.registry, chosen, names),
            max_tokens=REPLY_TOKENS["fill"],
            fills=chosen[0] if len(chosen) == 1 else None,
        )
        fill.reply_format = road.held(fill.schema or {})
        converse(road, client, fill, execute, talk)

    def primer(
        self, road: Road, context: Sequence[str], scene: Sequence[str] | None
    ) -> tuple[str, list[dict[str, Any]]] | None:
        system = steps_prompt(road.registry, road.pool(scene), context)
        return system, [{"role": "system", "content": system}, {"role": "user", "content": CHOOSE_OPENING}]

    @staticmethod
    def chosen(content: str | None, actions: Sequence[str]) -> list[str] | None:
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
