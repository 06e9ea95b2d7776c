"""A small ComfyUI stand-in: a real HTTP server on 127.0.0.1 speaking the endpoints the mesh pack uses.

    GET  /system_stats, POST /upload/image (multipart), POST /prompt, GET /history/{id}, GET /view

It checks queued workflows the way ComfyUI does at the surface (every node has a class_type and
inputs, links point at existing nodes, LoadImage names an uploaded file), "runs" them by making
an output for every SaveImage node (as many images as a RepeatLatentBatch asks for) and every
SaveGLB node (a mesh written by trimesh, an independent writer), and can fail on demand: an
HTTP error for the n-th request to a path, a workflow that fails while running, or the server
dying half-way (connections dropped from then on).
"""

from __future__ import annotations

import contextlib
import io
import json
import threading
import uuid
from dataclasses import dataclass
from email.parser import BytesParser
from email.policy import HTTP
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit

import numpy as np


def png_bytes(seed: int, size: int = 64) -> bytes:
    from PIL import Image

    rng = np.random.default_rng(seed)
    colour = rng.integers(30, 226, size=3)
    ramp = np.linspace(0.6, 1.0, size)[:, None, None]
    pixels = np.clip(np.ones((size, size, 3)) * colour * ramp, 0, 255).astype(np.uint8)
    out = io.BytesIO()
    Image.fromarray(pixels).save(out, format="PNG")
    return out.getvalue()


def glb_mesh(subdivisions: int = 2) -> bytes:
    import trimesh

    return trimesh.creation.icosphere(subdivisions=subdivisions, radius=3.0).export(file_type="glb")


@dataclass
class Failure:
    path: str
    nth: int
    status: int | None = None
    """An HTTP status to answer with; None means the server dies there."""


class ComfyStandIn:
    def __init__(self, *, polls_before_done: int = 2, mesh: bytes | None = None) -> None:
        self.polls_before_done = polls_before_done
        self.mesh = mesh
        self.uploads: dict[str, bytes] = {}
        self.prompts: list[dict[str, Any]] = []
        self.requests: list[tuple[str, str]] = []
        self.failures: list[Failure] = []
        self.failing_workflows: dict[int, str] = {}
        """Index of a queued prompt (from 1) → the error its run ends with."""
        self.dead = False
        self._runs: dict[str, dict[str, Any]] = {}
        self._files: dict[tuple[str, str], bytes] = {}
        self._counts: dict[str, int] = {}
        self._lock = threading.Lock()
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: Any) -> None:
                pass

            def do_GET(self) -> None:
                server._handle(self, "GET")

            def do_POST(self) -> None:
                server._handle(self, "POST")

        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._httpd.daemon_threads = True
        self.url = f"http://127.0.0.1:{self._httpd.server_port}"
        self._thread = threading.Thread(target=self._httpd.serve_forever, daemon=True)

    def __enter__(self) -> ComfyStandIn:
        self._thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()

    # -- failure plans -----------------------------------------------------------------------------

    def fail(self, path: str, nth: int = 1, status: int = 500) -> None:
        """Answer the ``nth`` request whose path starts with ``path`` with ``status``."""
        self.failures.append(Failure(path, nth, status))

    def die(self, path: str, nth: int = 1) -> None:
        """Drop the connection at the ``nth`` request to ``path`` and every request after it."""
        self.failures.append(Failure(path, nth, None))

    def fail_workflow(self, nth_prompt: int, message: str = "CUDA out of memory") -> None:
        self.failing_workflows[nth_prompt] = message

    def paths(self, method: str | None = None) -> list[str]:
        return [path for m, path in self.requests if method in (None, m)]

    # -- serving -----------------------------------------------------------------------------------

    def _handle(self, handler: BaseHTTPRequestHandler, method: str) -> None:
        length = int(handler.headers.get("Content-Length", 0) or 0)
        body = handler.rfile.read(length) if length else b""
        path = urlsplit(handler.path).path
        with self._lock:
            self.requests.append((method, handler.path))
            self._counts[path] = self._counts.get(path, 0) + 1
            planned = self._planned(path)
        if self.dead or (planned is not None and planned.status is None):
            self.dead = True
            handler.close_connection = True
            with contextlib.suppress(OSError):
                handler.connection.shutdown(2)
            return
        if planned is not None:
            self._send(
                handler, planned.status, {"error": {"message": f"scripted {planned.status}", "details": ""}}
            )
            return
        try:
            status, payload = self._route(
                method, handler.path, path, body, handler.headers.get("Content-Type", "")
            )
        except Exception as exc:  # a bug in a request is a 400, as in ComfyUI
            status, payload = 400, {"error": {"message": str(exc), "details": ""}}
        self._send(handler, status, payload)

    def _planned(self, path: str) -> Failure | None:
        for failure in self.failures:
            if path.startswith(failure.path) and self._count_prefix(failure.path) == failure.nth:
                return failure
        return None

    def _count_prefix(self, prefix: str) -> int:
        return sum(1 for _, p in self.requests if urlsplit(p).path.startswith(prefix))

    def _send(self, handler: BaseHTTPRequestHandler, status: int, payload: Any) -> None:
        data = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
        kind = "application/octet-stream" if isinstance(payload, bytes) else "application/json"
        try:
            handler.send_response(status)
            handler.send_header("Content-Type", kind)
            handler.send_header("Content-Length", str(len(data)))
            handler.end_headers()
            handler.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):
            pass

    def _route(self, method: str, raw: str, path: str, body: bytes, content_type: str) -> tuple[int, Any]:
        if method == "GET" and path == "/system_stats":
            return 200, {"system": {"os": "posix", "comfyui_version": "stand-in"}, "devices": []}
        if method == "POST" and path == "/upload/image":
            return self._upload(body, content_type)
        if method == "POST" and path == "/prompt":
            return self._queue(json.loads(body))
        if method == "GET" and path.startswith("/history/"):
            return self._history(path.rsplit("/", 1)[1])
        if method == "GET" and path == "/view":
            query = parse_qs(urlsplit(raw).query)
            key = (query.get("subfolder", [""])[0], query["filename"][0])
            return (200, self._files[key]) if key in self._files else (404, {"error": "no such file"})
        return 404, {"error": f"no route {method} {path}"}

    def _upload(self, body: bytes, content_type: str) -> tuple[int, Any]:
        message = BytesParser(policy=HTTP).parsebytes(f"Content-Type: {content_type}\r\n\r\n".encode() + body)
        fields, image, filename = {}, None, None
        for part in message.iter_parts():
            name = part.get_param("name", header="content-disposition")
            if name == "image":
                image, filename = part.get_payload(decode=True), part.get_filename()
            else:
                fields[name] = part.get_content().strip()
        if image is None or not filename:
            return 400, {"error": "no image"}
        subfolder = fields.get("subfolder", "")
        self.uploads[f"{subfolder}/{filename}" if subfolder else filename] = image
        return 200, {"name": filename, "subfolder": subfolder, "type": fields.get("type", "input")}

    def _queue(self, request: dict[str, Any]) -> tuple[int, Any]:
        workflow = request.get("prompt")
        errors: dict[str, Any] = {}
        if not isinstance(workflow, dict) or not workflow:
            return 400, {"error": {"message": "no prompt", "details": ""}, "node_errors": {}}
        for node_id, node in workflow.items():
            if "class_type" not in node or not isinstance(node.get("inputs"), dict):
                errors[node_id] = {"errors": [{"message": "missing class_type or inputs"}]}
                continue
            for value in node["inputs"].values():
                if (
                    isinstance(value, list)
                    and len(value) == 2
                    and isinstance(value[0], str)
                    and value[0] not in workflow
                ):
                    errors[node_id] = {"errors": [{"message": f"link to missing node {value[0]}"}]}
            if node["class_type"] == "LoadImage" and node["inputs"].get("image") not in self.uploads:
                errors[node_id] = {
                    "errors": [{"message": f"Invalid image file: {node['inputs'].get('image')}"}]
                }
            if "{{" in json.dumps(node["inputs"]):
                errors[node_id] = {"errors": [{"message": "unfilled placeholder"}]}
        if errors:
            return 400, {
                "error": {
                    "type": "prompt_outputs_failed_validation",
                    "message": "Prompt outputs failed validation",
                },
                "node_errors": errors,
            }
        self.prompts.append(request)
        prompt_id = str(uuid.uuid4())
        self._runs[prompt_id] = {"polls": 0, "index": len(self.prompts), "workflow": workflow}
        return 200, {"prompt_id": prompt_id, "number": len(self.prompts), "node_errors": {}}

    def _history(self, prompt_id: str) -> tuple[int, Any]:
        run = self._runs.get(prompt_id)
        if run is None:
            return 200, {}
        run["polls"] += 1
        if run["polls"] <= self.polls_before_done:
            return 200, {}
        failure = self.failing_workflows.get(run["index"])
        if failure is not None:
            status = {
                "status_str": "error",
                "completed": False,
                "messages": [["execution_error", {"node_type": "KSampler", "exception_message": failure}]],
            }
            return 200, {prompt_id: {"outputs": {}, "status": status}}
        return 200, {
            prompt_id: {"outputs": self._outputs(run), "status": {"status_str": "success", "completed": True}}
        }

    def _outputs(self, run: dict[str, Any]) -> dict[str, Any]:
        if "outputs" in run:
            return run["outputs"]
        workflow = run["workflow"]
        batch = next(
            (int(n["inputs"]["amount"]) for n in workflow.values() if n["class_type"] == "RepeatLatentBatch"),
            1,
        )
        outputs: dict[str, Any] = {}
        for node_id, node in workflow.items():
            prefix = str(node["inputs"].get("filename_prefix", "ComfyUI"))
            folder, _, stem = prefix.rpartition("/")
            if node["class_type"] == "SaveImage":
                refs = []
                for i in range(batch):
                    name = f"{stem}_{run['index']:03}{i:02}_.png"
                    self._files[(folder, name)] = png_bytes(run["index"] * 100 + i + int(node_id))
                    refs.append({"filename": name, "subfolder": folder, "type": "output"})
                outputs[node_id] = {"images": refs}
            elif node["class_type"] == "SaveGLB":
                name = f"{stem}_{run['index']:05}_.glb"
                self._files[(folder, name)] = self.mesh if self.mesh is not None else glb_mesh()
                outputs[node_id] = {"3d": [{"filename": name, "subfolder": folder, "type": "output"}]}
        run["outputs"] = outputs
        return outputs
