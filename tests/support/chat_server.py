"""A real HTTP server on 127.0.0.1 that speaks the Chat Completions API from a script.

Each test queues replies (a message, an HTTP error, a delay) and reads back the requests it got;
the real openai client talks to it over a socket.
"""

from __future__ import annotations

import json
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class Scripted:
    status: int = 200
    message: dict[str, Any] | None = None
    delay: float = 0.0
    headers: dict[str, str] = field(default_factory=dict)
    raw: bytes | None = None
    """A body sent as it is (not JSON, HTML, a reply of the wrong shape)."""
    trickle: float = 0.0
    """Seconds between the body's bytes (a server that keeps a connection alive a byte at a time)."""
    flood: int = 0
    """Bytes of junk sent before the reply (a body far beyond any model's answer)."""
    stall: float = 0.0
    """Seconds of silence after the headers, before any byte of the body (a server that hangs mid-reply)."""
    generating: float = 0.0
    """Seconds of generation before the reply, streamed as empty pieces: a client that gives up
    closes the connection and the server stops (see :attr:`ChatServer.abandoned`)."""


def instance(schema: dict[str, Any]) -> Any:
    """The first value a schema allows: what a server that holds a reply to it would produce."""
    if "const" in schema:
        return schema["const"]
    if "enum" in schema:
        return schema["enum"][0]
    if "anyOf" in schema:
        return instance(schema["anyOf"][0])
    kind = schema.get("type")
    if isinstance(kind, list):  # ["number", "null"]: a strict schema's optional parameter
        kind = kind[0]
    if kind == "object":
        props = schema.get("properties", {})
        return {k: instance(props[k]) for k in schema.get("required", [])}
    if kind == "array":
        return [instance(schema.get("items", {}))] * max(schema.get("minItems", 1), 1)
    return {"string": "ok", "number": 1, "integer": 1, "boolean": True}.get(kind)


@dataclass
class Honours:
    """How an unscripted request is answered: like a server that honours tool calls and some of the
    documented ways to hold a reply to a schema (else it answers "ready")."""

    tools: bool = False
    forms: frozenset[str] = frozenset()
    ollama: bool = False
    """Read the request as Ollama's /v1 endpoint does (openai/openai.go, FromChatRequest): the
    schema from ``response_format.json_schema.schema``; ``json_object`` is plain JSON mode, a schema
    beside it unread; fields it does not know (a top-level ``format``) ignored."""

    def reply(self, body: dict[str, Any]) -> dict[str, Any]:
        if self.tools and body.get("tools"):
            function = body["tools"][0]["function"]
            return {
                "content": None,
                "tool_calls": [tool_call(function["name"], instance(function["parameters"]))],
            }
        schema = self.schema(body)
        return {"content": json.dumps(instance(schema)) if schema is not None else "ready"}

    def schema(self, body: dict[str, Any]) -> dict[str, Any] | None:
        shape = body.get("response_format") or {}
        if self.ollama:
            kind = str(shape.get("type", "")).strip().lower()
            return (shape.get("json_schema") or {}).get("schema") if kind == "json_schema" else None
        if "json_schema" in self.forms and shape.get("type") == "json_schema":
            return shape["json_schema"]["schema"]
        if "json_object" in self.forms and shape.get("type") == "json_object" and "schema" in shape:
            return shape["schema"]
        return None


def tool_call(name: str, arguments: dict[str, Any] | str, call_id: str = "call_1") -> dict[str, Any]:
    raw = arguments if isinstance(arguments, str) else json.dumps(arguments)
    return {"id": call_id, "type": "function", "function": {"name": name, "arguments": raw}}


def events(payload: dict[str, Any], model: str) -> bytes:
    """A completion as the server-sent events a streaming server sends: the content in two
    pieces, each tool call's arguments in two pieces, then the finish and ``[DONE]``."""
    message = payload["choices"][0]["message"]
    pieces: list[dict[str, Any]] = [{"role": "assistant"}]
    content = message.get("content")
    if isinstance(content, str):
        half = len(content) // 2
        pieces += [{"content": content[:half]}, {"content": content[half:]}]
    for index, call in enumerate(message.get("tool_calls") or []):
        arguments = call["function"]["arguments"]
        half = len(arguments) // 2
        first = {"index": index, "id": call["id"], "type": "function"}
        pieces.append(
            {
                "tool_calls": [
                    {**first, "function": {"name": call["function"]["name"], "arguments": arguments[:half]}}
                ]
            }
        )
        pieces.append({"tool_calls": [{"index": index, "function": {"arguments": arguments[half:]}}]})
    chunks = [
        {
            "id": payload["id"],
            "object": "chat.completion.chunk",
            "model": model,
            "choices": [{"index": 0, "delta": d}],
        }
        for d in pieces
    ]
    chunks.append(
        {
            "id": payload["id"],
            "object": "chat.completion.chunk",
            "model": model,
            "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}],
            "usage": {"prompt_tokens": 100, "completion_tokens": 10, "total_tokens": 110},
        }
    )
    return b"".join(f"data: {json.dumps(c)}\n\n".encode() for c in chunks) + b"data: [DONE]\n\n"


class ChatServer:
    def __init__(self) -> None:
        self.replies: list[Scripted] = []
        self.requests: list[dict[str, Any]] = []
        self.bodies: list[bytes] = []
        """Each request's body exactly as the client sent it."""
        self.headers: list[dict[str, str]] = []
        self.honours: Honours | None = None
        """Set: requests beyond the script are answered as such a server would (else a 500)."""
        self.abandoned = 0
        """Replies the client stopped reading before their end (the server then stopped generating)."""
        self.streams = True
        """Answer a request asking for ``stream`` with server-sent events, as real servers do."""
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def do_POST(self) -> None:
                raw = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                body = json.loads(raw or b"{}")
                server.bodies.append(raw)
                server.requests.append(body)
                server.headers.append({k.lower(): v for k, v in self.headers.items()})
                if server.replies:
                    scripted = server.replies.pop(0)
                elif server.honours is not None:
                    scripted = Scripted(message=server.honours.reply(body))
                else:
                    scripted = Scripted(500)
                time.sleep(scripted.delay)
                if scripted.raw is not None:
                    payload = None
                elif scripted.status != 200:
                    # like real servers, echo what was sent: the client must not repeat it
                    auth = self.headers.get("Authorization", "")
                    payload = {"error": {"message": f"scripted {scripted.status} for {auth}", "type": "x"}}
                else:
                    payload = {
                        "id": f"chatcmpl-{len(server.requests)}",
                        "object": "chat.completion",
                        "created": int(time.time()),
                        "model": body.get("model", "scripted"),
                        "choices": [
                            {
                                "index": 0,
                                "finish_reason": "stop",
                                "message": {"role": "assistant", **scripted.message},
                            }
                        ],
                    }
                streamed = bool(body.get("stream")) and server.streams and scripted.raw is None
                if streamed and scripted.status == 200:
                    data = events(payload, body.get("model", "scripted"))
                    content_type = "text/event-stream"
                else:
                    data = scripted.raw if scripted.raw is not None else json.dumps(payload).encode()
                    content_type = "application/json"
                try:
                    self.send_response(scripted.status)
                    for key, value in {"Content-Type": content_type, **scripted.headers}.items():
                        self.send_header(key, value)
                    if not (scripted.generating or scripted.flood):
                        self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    if scripted.stall:
                        self.wfile.flush()
                        time.sleep(scripted.stall)
                    if scripted.generating:
                        until = time.monotonic() + scripted.generating
                        while time.monotonic() < until:
                            self.wfile.write(b": generating\n\n")
                            self.wfile.flush()
                            time.sleep(0.05)
                        self.close_connection = True
                    if scripted.flood:
                        self.close_connection = True
                        block = b" " * 65536
                        for _ in range(scripted.flood // len(block)):
                            self.wfile.write(block)
                    if scripted.trickle:
                        for at in range(len(data)):
                            self.wfile.write(data[at : at + 1])
                            self.wfile.flush()
                            time.sleep(scripted.trickle)
                    else:
                        self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    server.abandoned += 1  # the client gave up: a real server stops generating here

        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._httpd.daemon_threads = True
        self.url = f"http://127.0.0.1:{self._httpd.server_port}/v1"
        self._thread = threading.Thread(target=self._httpd.serve_forever, daemon=True)

    def __enter__(self) -> ChatServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()

    def say(self, content: str | None = None, tool_calls: list[dict] | None = None, **kw: Any) -> None:
        message: dict[str, Any] = {"content": content}
        if tool_calls:
            message["tool_calls"] = tool_calls
        self.replies.append(Scripted(message=message, **kw))

    def send_raw(self, body: bytes | str, content_type: str = "application/json", **kw: Any) -> None:
        raw = body.encode() if isinstance(body, str) else body
        self.replies.append(Scripted(raw=raw, headers={"Content-Type": content_type}, **kw))

    def fail(self, status: int, **kw: Any) -> None:
        self.replies.append(Scripted(status=status, **kw))
