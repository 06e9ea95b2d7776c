"""JSON mode: for servers without tool calling, the reply is any JSON object naming commands."""

from __future__ import annotations

from typing import Any

from ...chat.client import json_reply
from ..conversation import Request, Road
from ..prompt import Names
from .base import OneRequest


class JsonMode(OneRequest):
    name = "json"

    def shape(
        self, road: Road, messages: list[dict[str, Any]], actions: tuple[str, ...], names: Names
    ) -> Request:
        return Request(messages, reply_format=json_reply(), actions=actions)
