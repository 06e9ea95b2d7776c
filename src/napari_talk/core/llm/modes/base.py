"""What a mode is: how one typed line is put to the model, ending in :func:`..exchange.converse` or
in an outcome of its own. The road chooses the mode by ``settings.mode`` (see :data:`.STRATEGIES`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from ..conversation import Conversation, Execute, Request, Road
from ..exchange import converse
from ..prompt import Names, system_prompt

if TYPE_CHECKING:
    from ...chat.client import ChatClient


class Strategy:
    """One mode. Stateless: what a server taught the road (its schema form, the prompt it has read)
    stays on the road, so one strategy object serves every road."""

    name: ClassVar[str]

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
        """Write the model's reading of ``talk.text`` into ``talk.outcome``."""
        raise NotImplementedError

    def primer(
        self, road: Road, context: Sequence[str], scene: Sequence[str] | None
    ) -> tuple[str, list[dict[str, Any]]] | None:
        """The prompt a local server may read before a line comes, and the messages that make it
        read it (None: this mode has no prefix worth reading ahead)."""
        return None


class OneRequest(Strategy):
    """A mode that asks once with every offered command described in the system prompt (or as
    tools), then converses: the modes differ only in how the reply is shaped (:meth:`shape`)."""

    lists_commands: ClassVar[bool] = True
    """Whether the system prompt lists the commands (tools mode sends them as tools instead)."""

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
        request = self.request(
            road, talk.text, context, road.offered(talk.text, packs, talk.names), talk.names
        )
        converse(road, client, request, execute, talk)

    def request(
        self, road: Road, text: str, context: Sequence[str], actions: tuple[str, ...], names: Names
    ) -> Request:
        """The first request for a line."""
        examples = road.worked_examples(text, actions, names)
        prompt = system_prompt(
            road.registry, context, listed=self.lists_commands, actions=actions, examples=examples
        )
        messages = [
            {"role": "system", "content": prompt},
            {"role": "user", "content": " ".join(p for p in (text, road.hint(text, names)) if p)},
        ]
        return self.shape(road, messages, actions, names)

    def shape(
        self, road: Road, messages: list[dict[str, Any]], actions: tuple[str, ...], names: Names
    ) -> Request:
        raise NotImplementedError
