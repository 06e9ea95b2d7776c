"""Limits for the MCP server's HTTP side: how long a request may take to arrive, how many
connections may be open, and who makes room when they all are.

uvicorn bounds concurrent requests (``limit_concurrency``), idle keep-alive connections
(``timeout_keep_alive``) and the size of a request's head (``h11_max_incomplete_event_size``),
but not a connection that opens and then sends nothing, or sends its request a byte at a time:
a thousand of those hold a thousand file descriptors until the process has none left. The
protocol here gives each request a deadline to arrive whole (head and body) and keeps the open
connections under a cap; when the cap is reached, the connection that has waited longest without
a whole request is closed to make room, so a client that sends its request at once gets through.
The listening socket's backlog is small too: asyncio accepts a whole backlog before the cap can act.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from typing import Any

from uvicorn.protocols.http.h11_impl import H11Protocol

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class HttpLimits:
    request_timeout: float = 10.0
    """Seconds a request has to arrive whole (head and body) once its connection is open or idle."""
    max_connections: int = 64
    """Connections open at once; past it the longest-waiting incomplete one is closed."""
    backlog: int = 32
    """Connections the kernel queues and the server takes in one go. asyncio accepts up to this many
    before any of them is seen, so it bounds how far past the cap the descriptors can go (uvicorn's
    default of 2,048 let 1,100 idle connections take all 1,024 of a process's descriptors)."""
    max_requests: int = 32
    """Requests being answered at once; more get 503 (uvicorn's ``limit_concurrency``)."""
    keep_alive: int = 5
    """Seconds an idle connection stays open after a response (uvicorn's ``timeout_keep_alive``)."""
    max_head_bytes: int = 16 * 1024
    """Bytes of a request's line and headers, counted as they arrive (h11's own limit applies only
    to a head still incomplete: one sent whole in a single packet passed it)."""
    max_header_lines: int = 100
    """Header lines in a request's head."""
    max_body_bytes: int = 4 * 1024 * 1024
    """Bytes of a request's body (the mcp SDK's own limit, said here so all limits are in one place)."""

    def uvicorn_settings(self) -> dict[str, Any]:
        return {
            "http": guarded_protocol(self),
            # uvicorn counts open connections too: above the cap ours keeps, so only requests reach it
            "limit_concurrency": self.max_connections + self.max_requests,
            "timeout_keep_alive": self.keep_alive,
            "backlog": self.backlog,
            "h11_max_incomplete_event_size": self.max_head_bytes,
        }


def guarded_protocol(limits: HttpLimits) -> type[H11Protocol]:
    """uvicorn's h11 protocol with a deadline per request and a cap on open connections."""

    class Guarded(H11Protocol):
        _limits = limits

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            self._deadline: asyncio.TimerHandle | None = None
            self._armed_for: Any = None
            self._arm()
            if len(self.connections) > self._limits.max_connections:
                self._make_room()

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            super().connection_lost(exc)

        def data_received(self, data: bytes) -> None:
            between = self.cycle is None or self.cycle.response_complete
            if self._deadline is None and between:
                self._arm()  # the next request on a kept-alive connection
            if between and not self._head_fits(data):
                return
            super().data_received(data)
            if self.cycle is not None and self.cycle is not self._armed_for and not self.cycle.more_body:
                self._disarm()  # a whole request: its answer may take as long as it takes

        def _head_fits(self, data: bytes) -> bool:
            """Count the head's bytes and lines as they come; refuse it (431) once over the limits."""
            if getattr(self, "_head_of", False) is not self.cycle:  # a new request's head begins
                self._head_of, self._head_bytes, self._head_lines, self._head_tail = self.cycle, 0, 0, b""
            window = self._head_tail + data
            end = window.find(b"\r\n\r\n")
            part = window if end < 0 else window[: end + 4]
            self._head_bytes += len(part) - len(self._head_tail)
            self._head_lines += part.count(b"\n") - self._head_tail.count(b"\n")
            self._head_tail = window[-3:]
            limits = self._limits
            if self._head_bytes <= limits.max_head_bytes and self._head_lines <= limits.max_header_lines + 2:
                return True
            said = (
                f"A request's head may be at most {limits.max_head_bytes:,} bytes "
                f"and {limits.max_header_lines} header lines.\n"
            ).encode()
            self.transport.write(
                b"HTTP/1.1 431 Request Header Fields Too Large\r\nContent-Type: text/plain\r\n"
                b"Connection: close\r\nContent-Length: %d\r\n\r\n%s" % (len(said), said)
            )
            self._close()
            return False

        def _arm(self) -> None:
            self._armed_for = self.cycle
            self._deadline = self.loop.call_later(self._limits.request_timeout, self._too_slow)

        def _disarm(self) -> None:
            if self._deadline is not None:
                self._deadline.cancel()
                self._deadline = None

        def _waiting_since(self) -> float | None:
            return None if self._deadline is None else self._deadline.when()

        def _too_slow(self) -> None:
            self._deadline = None
            self._close()

        def _close(self) -> None:
            self._disarm()  # no longer waiting: the next connection past the cap closes another
            if not self.transport.is_closing():
                self.transport.close()

        def _make_room(self) -> None:
            """Close the connection that has waited longest for its request (this one if every
            other is busy answering one)."""
            waiting = [
                (since, id(c), c)
                for c in self.connections
                if isinstance(c, Guarded) and c is not self and (since := c._waiting_since()) is not None
            ]
            if waiting:
                min(waiting)[2]._close()
            else:
                log.debug("MCP server: %d connections busy, one more refused", len(self.connections))
                self._close()

    return Guarded
