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


def tool_call(name: str, arguments: dict[str, Any] | str, call_id: str = "call_1") -> dict[str, Any]:
    raw = arguments if isinstance(arguments, str) else json.dumps(arguments)
    return {"id": call_id, "type": "function", "function": {"name": name, "arguments": raw}}


class ChatServer:
    def __init__(self) -> None:
        self.replies: list[Scripted] = []
        self.requests: list[dict[str, Any]] = []
        self.headers: list[dict[str, str]] = []
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))) or b"{}")
                server.requests.append(body)
                server.headers.append({k.lower(): v for k, v in self.headers.items()})
                scripted = server.replies.pop(0) if server.replies else Scripted(500)
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
                data = scripted.raw if scripted.raw is not None else json.dumps(payload).encode()
                try:
                    self.send_response(scripted.status)
                    for key, value in {"Content-Type": "application/json", **scripted.headers}.items():
                        self.send_header(key, value)
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up (a timeout test)

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
