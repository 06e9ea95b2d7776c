"""Real HTTP servers on 127.0.0.1 for the atlas tests: files to download and an embeddings API.

``FileServer`` serves scripted routes (a body, a status, a delay, with or without a length);
``EmbeddingServer`` answers ``POST /v1/embeddings`` like an OpenAI-compatible server, with
vectors from the offline embedder (so rankings through it are meaningful; optionally squeezed so
every cosine is high, as some models' are) and records requests.
"""

from __future__ import annotations

import json
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import numpy as np


@dataclass
class Route:
    body: bytes = b""
    status: int = 200
    content_type: str = "image/png"
    delay: float = 0.0
    send_length: bool = True
    announced: int | None = None
    """A Content-Length to announce instead of the real one (a lying or huge server)."""
    headers: dict[str, str] = field(default_factory=dict)
    """More headers (a redirect's Location)."""


class _Server:
    def __init__(self, handler: type[BaseHTTPRequestHandler]) -> None:
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self._httpd.daemon_threads = True
        self.base = f"http://127.0.0.1:{self._httpd.server_port}"
        self._thread = threading.Thread(target=self._httpd.serve_forever, args=(0.05,), daemon=True)

    def __enter__(self):
        self._thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()


class FileServer(_Server):
    def __init__(self) -> None:
        self.routes: dict[str, Route] = {}
        self.hits: list[str] = []
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: Any) -> None:
                pass

            def do_GET(self) -> None:
                server.hits.append(self.path)
                route = server.routes.get(self.path, Route(b"not found", 404, "text/plain"))
                try:
                    self.send_response(route.status)
                    self.send_header("Content-Type", route.content_type)
                    for name, value in route.headers.items():
                        self.send_header(name, value)
                    length = route.announced if route.announced is not None else len(route.body)
                    if route.send_length:
                        self.send_header("Content-Length", str(length))
                    else:
                        self.send_header("Connection", "close")
                    self.end_headers()
                    for start in range(0, max(len(route.body), 1), 65536):
                        if route.delay:
                            time.sleep(route.delay)
                        self.wfile.write(route.body[start : start + 65536])
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up, as it should
                self.close_connection = True

        super().__init__(Handler)

    def url(self, path: str) -> str:
        return self.base + path


class EmbeddingServer(_Server):
    def __init__(self, dim: int = 64, squeeze: float = 0.0) -> None:
        from napari_talk.packs.atlas.embeddings import HashedEmbedder

        self.embedder = HashedEmbedder(dim)
        self.squeeze = squeeze
        """A share of every vector along one common axis: cosines become
        squeeze + (1 - squeeze) × the offline cosine (0.85 puts unrelated texts near 0.85)."""
        self.requests: list[dict[str, Any]] = []
        self.auth: list[str] = []
        self.fail_with: int | None = None
        self.delay = 0.0
        """Seconds each answer waits (a slow server, or a large model)."""
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))) or b"{}")
                server.requests.append(body)
                server.auth.append(self.headers.get("Authorization", ""))
                if server.delay:
                    time.sleep(server.delay)
                if server.fail_with is not None or not self.path.endswith("/embeddings"):
                    status = server.fail_with or 404
                    payload: dict[str, Any] = {"error": {"message": "scripted failure", "type": "x"}}
                else:
                    status = 200
                    texts = body["input"] if isinstance(body["input"], list) else [body["input"]]
                    vectors = server.embedder.embed(texts)
                    if server.squeeze:
                        common = np.full((len(texts), 1), np.sqrt(server.squeeze), np.float32)
                        vectors = np.hstack([vectors * np.sqrt(1 - server.squeeze), common])
                    payload = {
                        "object": "list",
                        "model": body.get("model", ""),
                        "data": [
                            {"object": "embedding", "index": i, "embedding": [float(x) for x in v]}
                            for i, v in reversed(list(enumerate(vectors)))  # any order: clients sort
                        ],
                        "usage": {"prompt_tokens": 1, "total_tokens": 1},
                    }
                data = json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        super().__init__(Handler)
        self.url = self.base + "/v1"
