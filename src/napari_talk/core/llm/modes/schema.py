"""Schema mode: the reply held to the offered commands' JSON schema (in the form the server takes)."""

from __future__ import annotations

from typing import Any

from ..conversation import Request, Road
from ..prompt import Names, reply_schema
from .base import OneRequest


class SchemaMode(OneRequest):
    name = "schema"

    def shape(
        self, road: Road, messages: list[dict[str, Any]], actions: tuple[str, ...], names: Names
    ) -> Request:
        schema = reply_schema(road.registry, actions, names, strict=road.form == "json_schema")
        return Request(messages, reply_format=road.held(schema), actions=actions, schema=schema)
