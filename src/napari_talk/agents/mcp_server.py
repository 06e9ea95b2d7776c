"""The MCP server: every command an MCP tool, over stdio or streamable HTTP with a bearer token.

Built on the official ``mcp`` SDK's low-level server, so each tool's input schema is exactly the
command's schema. Every call runs through the session as an agent's: the session judges it by the
one risk policy (:mod:`napari_talk.core.safety.risk`) as it runs, and ``confirm`` asks the person when it
says so. Where a call runs is the caller's: ``within`` calls the work within a time limit (the
dock's on the GUI thread). There is no code-execution tool.

A call whose client stops waiting for it (the client went away, or cancelled the call) is
:class:`Abandoned`: what it still waits for the person to approve is refused at once, as a Cancel
click would, and the server does not wait for the call to end before it stops (each runs in a
daemon thread).
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import json
import secrets
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from ..__about__ import __version__
from ..core.basics.jobs import call_limits
from ..core.safety.risk import RiskPolicy
from .exports import from_tool_arguments
from .functions import result_text
from .http_limits import HttpLimits

if TYPE_CHECKING:
    from ..core.basics.result import Result
    from ..core.contract.registry import Registry
    from ..core.running.session import Session
    from ..core.safety.risk import Approval

Within = Callable[[Callable[[], "Result"], str, float], "Result"]
"""``within(work, action, timeout)``: call ``work`` where the live objects are, within ``timeout`` s."""
Confirm = Callable[["Approval", float, "Abandoned"], bool]
"""``confirm(approval, timeout, abandoned)``: put what the person must agree to to them (the dock's
question); False when they say no, when ``timeout`` s pass, or as soon as the call is abandoned."""

SERVER_NAME = "napari-talk"


class Abandoned(threading.Event):
    """Set when the client that made a call no longer waits for its answer; what is registered with
    :meth:`on` is called then (at once if it already is)."""

    def __init__(self) -> None:
        super().__init__()
        self._callbacks: list[Callable[[], object]] = []
        self._callbacks_lock = threading.Lock()

    def on(self, callback: Callable[[], object]) -> None:
        with self._callbacks_lock:
            if not self.is_set():
                self._callbacks.append(callback)
                return
        callback()

    def set(self) -> None:
        with self._callbacks_lock:
            if self.is_set():
                return
            super().set()
            callbacks, self._callbacks = self._callbacks, []
        for callback in callbacks:
            callback()


def in_this_thread(work: Callable[[], Result], action: str, timeout: float) -> Result:
    return work()


@dataclass
class Bridge:
    """What MCP calls need: the session (its commands, its risk policy), where to run, how to ask."""

    session: Session
    within: Within = in_this_thread
    confirm: Confirm | None = None
    timeout: float = 30.0
    confirm_timeout: float = 120.0
    work_seconds: float = 25.0
    """A call's slow work (a job) is stopped past this, within ``timeout``: so a hostile call
    never holds the calls waiting behind it (they wait ``timeout`` for their turn)."""

    @property
    def registry(self) -> Registry:
        return self.session.registry

    def tools(self) -> list[Any]:
        from mcp import types

        return [
            types.Tool(
                name=action,
                description=cls.description(),
                input_schema=self.registry.schema(action),
                annotations=types.ToolAnnotations(**RiskPolicy.hints(cls.risk)),
            )
            for action, cls in self.registry.commands.items()
        ]

    def call(
        self, name: str, arguments: dict[str, Any], abandoned: Abandoned | None = None
    ) -> tuple[str, dict[str, Any], bool]:
        """(text, structured result, is_error) for one tool call; blocking, never raises. Once
        ``abandoned`` is set, nothing of the call waits for the person: it is refused."""
        from ..core.basics.result import Result

        if name not in self.registry.commands:
            result = Result.error(f"no tool {name!r}; tools are the napari-talk commands")
            return result.message, result.to_dict(), True
        try:
            command = from_tool_arguments(self.registry, name, arguments)
        except ValidationError as exc:
            errors = "; ".join(f"{'.'.join(map(str, e['loc'][1:]))}: {e['msg']}" for e in exc.errors())
            result = Result.error(f"invalid arguments for {name}: {errors}")
            return result.message, result.to_dict(), True
        with call_limits(self.work_seconds, abandoned):
            result = self.session.execute(
                command,
                origin="agent",
                ask=lambda approval: self._confirmed(approval, abandoned or Abandoned()),
                within=lambda work: self.within(work, command.action, self.timeout),
            )
        pack = self.registry.pack_of(name)
        return result_text(pack, command, result), _jsonable(result.to_dict()), not result.ok

    def _confirmed(self, approval: Approval, abandoned: Abandoned) -> bool:
        if self.confirm is None or abandoned.is_set():
            return False
        return self.confirm(approval, self.confirm_timeout, abandoned)


def _jsonable(value: dict[str, Any]) -> dict[str, Any]:
    return json.loads(json.dumps(value, default=str))


async def _in_a_daemon_thread(work: Callable[[], Any]) -> Any:
    """``await work()`` run in a daemon thread. Unlike ``asyncio.to_thread`` (whose threads
    ``asyncio.run`` and the interpreter wait for), a call still running when its client goes away
    (a long job, a question to the person) does not keep the server from stopping."""
    loop = asyncio.get_running_loop()
    future: asyncio.Future[Any] = loop.create_future()

    def settle(value: Any, error: BaseException | None) -> None:
        if future.done():
            return
        if error is not None:
            future.set_exception(error)
        else:
            future.set_result(value)

    def run() -> None:
        value, error = None, None
        try:
            value = work()
        except Exception as exc:
            error = exc
        with contextlib.suppress(RuntimeError):  # the server's loop has ended: nobody waits for it
            loop.call_soon_threadsafe(settle, value, error)

    threading.Thread(target=run, name="napari-talk-mcp-call", daemon=True).start()
    return await future


def build_server(bridge: Bridge) -> Any:
    from mcp import types
    from mcp.server.lowlevel import Server

    async def list_tools(_ctx, _params) -> types.ListToolsResult:
        return types.ListToolsResult(tools=bridge.tools())

    async def call_tool(_ctx, params: types.CallToolRequestParams) -> types.CallToolResult:
        abandoned = Abandoned()
        try:
            text, structured, is_error = await _in_a_daemon_thread(
                lambda: bridge.call(params.name, params.arguments or {}, abandoned)
            )
        except BaseException:  # cancelled: the client went away or gave up on this call
            abandoned.set()
            raise
        return types.CallToolResult(
            content=[types.TextContent(type="text", text=text)],
            structured_content=structured,
            is_error=is_error,
        )

    return Server(
        SERVER_NAME,
        version=__version__,
        instructions="Drive a napari viewer and its bundled tools; names come from list_layers.",
        on_list_tools=list_tools,
        on_call_tool=call_tool,
    )


class _BearerGate:
    """An ASGI wrapper that refuses any request without the right ``Authorization: Bearer``."""

    def __init__(self, app: Any, token: str) -> None:
        self.app, self._expected = app, f"Bearer {token}".encode()

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] == "http":
            given = dict(scope.get("headers") or []).get(b"authorization", b"")
            if not hmac.compare_digest(given, self._expected):
                body = b'{"error": "missing or wrong bearer token: copy it from the napari-talk dock"}'
                await send(
                    {
                        "type": "http.response.start",
                        "status": 401,
                        "headers": [(b"content-type", b"application/json"), (b"www-authenticate", b"Bearer")],
                    }
                )
                await send({"type": "http.response.body", "body": body})
                return
        await self.app(scope, receive, send)


class HttpService:
    """Streamable HTTP on 127.0.0.1 (a free port unless given), in a thread of its own, within
    :class:`HttpLimits` (each request's time to arrive, open connections, body size)."""

    def __init__(
        self,
        bridge: Bridge,
        *,
        port: int = 0,
        token: str | None = None,
        limits: HttpLimits | None = None,
    ) -> None:
        import uvicorn

        self.limits = limits or HttpLimits()
        self.token = token or secrets.token_urlsafe(24)
        server = build_server(bridge)
        mcp_app = server.streamable_http_app(
            host="127.0.0.1", max_request_body_size=self.limits.max_body_bytes
        )
        app = _BearerGate(mcp_app, self.token)
        config = uvicorn.Config(
            app,
            host="127.0.0.1",
            port=port,
            log_level="warning",
            lifespan="on",
            **self.limits.uvicorn_settings(),
        )
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(target=self._server.run, name="napari-talk-mcp", daemon=True)

    def start(self, timeout: float = 10.0) -> HttpService:
        self._thread.start()
        deadline = threading.Event()
        for _ in range(int(timeout / 0.02)):
            if self._server.started or not self._thread.is_alive():
                break
            deadline.wait(0.02)
        if not self._server.started:
            raise RuntimeError("the MCP server did not start (is the port in use?)")
        return self

    @property
    def url(self) -> str:
        port = self._server.servers[0].sockets[0].getsockname()[1]
        return f"http://127.0.0.1:{port}/mcp"

    def wait(self) -> None:
        """Until the server stops (``stop`` from another thread, or the process is interrupted)."""
        while self._thread.is_alive():
            self._thread.join(0.5)

    def stop(self) -> None:
        self._server.should_exit = True
        self._thread.join(10)


def serve_stdio(bridge: Bridge, stdin: Any = None, stdout: Any = None) -> None:
    """Serve MCP on this process's stdin/stdout (or the anyio text files given) until the client
    closes them (blocking). Calls still running then are abandoned: what they wait for the person
    to approve is refused, and this returns without waiting for them."""
    from mcp.server.stdio import stdio_server

    server = build_server(bridge)

    async def main() -> None:
        async with stdio_server(stdin, stdout) as (read, write):
            await server.run(read, write, server.create_initialization_options())

    asyncio.run(main())
