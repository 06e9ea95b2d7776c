"""A client for ComfyUI's HTTP API, with the standard library only.

    POST /upload/image   multipart: image, type=input, subfolder, overwrite → {"name", "subfolder", "type"}
    POST /prompt         {"prompt": workflow, "client_id"} → {"prompt_id", "number", "node_errors"}
    GET  /history/{id}   {} while queued or running; then {id: {"status", "outputs"}}
    GET  /view           ?filename=&subfolder=&type= → the file's bytes
    GET  /system_stats   a cheap "is anyone there" probe

Every failure is a :class:`ComfyError` whose message is meant for the person.
"""

from __future__ import annotations

import json
import os
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from collections.abc import Callable
from typing import Any

DEFAULT_URL = "http://127.0.0.1:8188"
URL_VARIABLE = "NAPARI_TALK_COMFYUI_URL"
MAX_DOWNLOAD = 256 * 1024 * 1024


def server_url() -> str:
    """The ComfyUI server: ``$NAPARI_TALK_COMFYUI_URL``, else ComfyUI's default address."""
    return (os.environ.get(URL_VARIABLE) or DEFAULT_URL).rstrip("/")


class ComfyError(Exception):
    """A ComfyUI request that failed; ``step`` says which part of the flow."""

    def __init__(self, message: str, step: str = "") -> None:
        super().__init__(message)
        self.step = step


class ComfyUnreachable(ComfyError):
    pass


class Cancelled(ComfyError):
    pass


class ComfyClient:
    def __init__(
        self, base_url: str | None = None, *, timeout: float = 20.0, client_id: str | None = None
    ) -> None:
        self.base_url = (base_url or server_url()).rstrip("/")
        parsed = urllib.parse.urlsplit(self.base_url)
        if parsed.scheme not in ("http", "https") or not parsed.netloc:
            raise ComfyError(
                f"the ComfyUI URL {self.base_url!r} is not an http(s) address; set {URL_VARIABLE}"
            )
        self.timeout = timeout
        self.client_id = client_id or uuid.uuid4().hex
        local = parsed.hostname in ("localhost", "127.0.0.1", "::1")
        # a local server is reached directly, whatever proxy the environment names
        self._opener = urllib.request.build_opener(*([urllib.request.ProxyHandler({})] if local else []))

    def unreachable(self, reason: object) -> ComfyUnreachable:
        return ComfyUnreachable(
            f"ComfyUI is not reachable at {self.base_url} ({reason}): start it, or set {URL_VARIABLE} "
            "to its address."
        )

    def _request(
        self, method: str, path: str, body: bytes | None = None, headers: dict[str, str] | None = None
    ) -> bytes:
        request = urllib.request.Request(
            self.base_url + path, data=body, method=method, headers=headers or {}
        )
        try:
            with self._opener.open(request, timeout=self.timeout) as response:
                data = response.read(MAX_DOWNLOAD + 1)
        except urllib.error.HTTPError as exc:
            raise ComfyError(
                f"ComfyUI answered {exc.code} to {method} {path.split('?')[0]}: {_reason(exc)}"
            ) from None
        except (urllib.error.URLError, ConnectionError, TimeoutError, OSError) as exc:
            raise self.unreachable(getattr(exc, "reason", exc)) from None
        if len(data) > MAX_DOWNLOAD:
            raise ComfyError(f"ComfyUI sent more than {MAX_DOWNLOAD // 2**20} MiB for {path.split('?')[0]}")
        return data

    def _json(self, method: str, path: str, payload: Any = None) -> Any:
        body = None if payload is None else json.dumps(payload).encode("utf-8")
        headers = {"Content-Type": "application/json"} if body is not None else {}
        raw = self._request(method, path, body, headers)
        try:
            return json.loads(raw.decode("utf-8") or "null")
        except (UnicodeDecodeError, ValueError):
            raise ComfyError(f"ComfyUI sent something that is not JSON for {path}") from None

    # -- the endpoints ---------------------------------------------------------------------------

    def system_stats(self) -> dict[str, Any]:
        stats = self._json("GET", "/system_stats")
        if not isinstance(stats, dict):
            raise ComfyError(f"the server at {self.base_url} does not look like ComfyUI (no /system_stats)")
        return stats

    def upload_image(self, data: bytes, filename: str, subfolder: str = "napari-talk") -> str:
        """Upload a PNG to the input folder; returns the name a LoadImage node refers to it by."""
        boundary = uuid.uuid4().hex
        fields = {"type": "input", "subfolder": subfolder, "overwrite": "true"}
        parts = [
            f'--{boundary}\r\nContent-Disposition: form-data; name="{k}"\r\n\r\n{v}\r\n'.encode()
            for k, v in fields.items()
        ]
        parts.append(
            f'--{boundary}\r\nContent-Disposition: form-data; name="image"; filename="{filename}"\r\n'
            "Content-Type: image/png\r\n\r\n".encode()
            + data
            + b"\r\n"
        )
        parts.append(f"--{boundary}--\r\n".encode())
        headers = {"Content-Type": f"multipart/form-data; boundary={boundary}"}
        raw = self._request("POST", "/upload/image", b"".join(parts), headers)
        try:
            answer = json.loads(raw)
            name, folder = answer["name"], answer.get("subfolder", "")
        except (ValueError, KeyError, TypeError):
            raise ComfyError("ComfyUI's answer to an image upload has no file name") from None
        return f"{folder}/{name}" if folder else name

    def queue(self, workflow: dict[str, Any]) -> str:
        answer = self._json("POST", "/prompt", {"prompt": workflow, "client_id": self.client_id})
        if not isinstance(answer, dict) or "prompt_id" not in answer:
            raise ComfyError("ComfyUI did not queue the workflow (no prompt_id in its answer)")
        if answer.get("node_errors"):
            raise ComfyError(f"ComfyUI refused the workflow: {json.dumps(answer['node_errors'])[:300]}")
        return str(answer["prompt_id"])

    def history(self, prompt_id: str) -> dict[str, Any] | None:
        """The finished run's entry, or None while it is queued or running."""
        answer = self._json("GET", f"/history/{urllib.parse.quote(prompt_id)}")
        if not isinstance(answer, dict):
            raise ComfyError("ComfyUI's history answer is not a JSON object")
        entry = answer.get(prompt_id)
        if not entry:
            return None
        status = entry.get("status") or {}
        if status.get("status_str") == "error":
            raise ComfyError(f"the ComfyUI workflow failed: {_execution_error(status)}")
        if status and not status.get("completed", True):
            return None
        return entry

    def wait(
        self,
        prompt_id: str,
        *,
        timeout: float = 600.0,
        poll: float = 0.5,
        cancelled: threading.Event | None = None,
        progress: Callable[[str], None] | None = None,
    ) -> dict[str, Any]:
        started = time.monotonic()
        while True:
            if cancelled is not None and cancelled.is_set():
                raise Cancelled("cancelled")
            entry = self.history(prompt_id)
            if entry is not None:
                return entry
            waited = time.monotonic() - started
            if waited > timeout:
                raise ComfyError(f"ComfyUI did not finish within {timeout:g} s")
            if progress is not None:
                progress(f"waiting for ComfyUI ({waited:.0f} s)")
            if cancelled is not None:
                if cancelled.wait(poll):
                    raise Cancelled("cancelled")
            else:
                time.sleep(poll)

    def fetch(self, ref: dict[str, Any]) -> bytes:
        query = urllib.parse.urlencode(
            {
                "filename": ref["filename"],
                "subfolder": ref.get("subfolder", ""),
                "type": ref.get("type", "output"),
            }
        )
        return self._request("GET", f"/view?{query}")


def output_files(entry: dict[str, Any], node_ids: list[str] | None = None) -> list[dict[str, Any]]:
    """File references ({"filename", "subfolder", "type"}) among a history entry's outputs,
    in node order, from the given nodes only when ``node_ids`` is given."""
    outputs = entry.get("outputs") or {}
    ids = node_ids if node_ids is not None else sorted(outputs, key=_node_order)
    files = []
    for node in ids:
        for values in (outputs.get(node) or {}).values():
            if isinstance(values, list):
                files += [v for v in values if isinstance(v, dict) and "filename" in v]
    return files


def _node_order(node_id: str) -> tuple[int, str]:
    return (int(node_id), "") if node_id.isdigit() else (1 << 30, node_id)


def _reason(exc: urllib.error.HTTPError) -> str:
    try:
        body = json.loads(exc.read().decode("utf-8"))
        error = body.get("error", body)
        message = error.get("message") if isinstance(error, dict) else str(error)
        details = error.get("details") if isinstance(error, dict) else ""
        return f"{message}{': ' + details if details else ''}"[:300]
    except Exception:
        return str(exc.reason)


def _execution_error(status: dict[str, Any]) -> str:
    for message in status.get("messages") or []:
        if isinstance(message, list) and len(message) == 2 and message[0] == "execution_error":
            info = message[1] or {}
            return f"{info.get('node_type', 'a node')}: {info.get('exception_message', 'error')}".strip()
    return "error"
