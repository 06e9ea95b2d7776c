"""Tools mode: the offered commands as function tools; the model calls them."""

from __future__ import annotations

from typing import Any, ClassVar

from ..conversation import Request, Road
from ..prompt import Names
from .base import OneRequest


class ToolsMode(OneRequest):
    name = "tools"
    lists_commands: ClassVar[bool] = False

    def shape(
        self, road: Road, messages: list[dict[str, Any]], actions: tuple[str, ...], names: Names
    ) -> Request:
        return Request(messages, tools=road.tools(actions), actions=actions)
