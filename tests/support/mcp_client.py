"""Driving the MCP server with the official SDK's client from a thread of its own, so the test's
thread keeps turning the Qt event loop that the server's calls need."""

from __future__ import annotations

import asyncio
import threading
from typing import Any


def run_client(url: str, token: str | None, script) -> dict[str, Any]:
    """Run ``await script(client)`` against ``url`` in a new thread; returns a dict that gets
    ``value`` or ``error`` and a ``done`` event."""
    import httpx2
    from mcp import Client
    from mcp.client.streamable_http import streamable_http_client

    box: dict[str, Any] = {"done": threading.Event()}

    async def main() -> None:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        async with (
            httpx2.AsyncClient(headers=headers, timeout=30) as http,
            Client(streamable_http_client(url, http_client=http)) as client,
        ):
            box["value"] = await script(client)

    def work() -> None:
        try:
            asyncio.run(main())
        except BaseException as exc:  # the test reads it
            box["error"] = exc
        finally:
            box["done"].set()

    threading.Thread(target=work, daemon=True).start()
    return box
