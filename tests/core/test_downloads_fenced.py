"""Downloads of URLs someone else chose: one total deadline, every redirect hop checked, private
addresses refused unless the person allows them, pixel bombs refused from the header. Servers are
real, on 127.0.0.1."""

from __future__ import annotations

import io
import threading
import time
import tracemalloc
import zlib
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import numpy as np
import pytest

from napari_talk.core.running.session import Session
from napari_talk.core.safety.net import NetError, NetPolicy
from napari_talk.packs.atlas import fetch

LOCAL = NetPolicy.from_setting("127.0.0.1")

TRICKLES = {
    "/trickle-status": (b"HTTP/1.1 2", b"0"),
    "/trickle-headers": (b"HTTP/1.1 200 OK\r\nContent-Type: image/png\r\nX-Slow: ", b"a"),
    "/trickle-chunked": (
        b"HTTP/1.1 200 OK\r\nContent-Type: image/png\r\nTransfer-Encoding: chunked\r\n\r\n",
        b"0",
    ),
    "/trickle-chunk-body": (
        b"HTTP/1.1 200 OK\r\nContent-Type: image/png\r\nTransfer-Encoding: chunked\r\n\r\nffff\r\n",
        b"x",
    ),
}
"""A response that never ends, a byte every half second: in the status line, in a header, in a
chunk-size line (each byte a valid hex digit), in a chunk's body."""


class Hostile:
    """A server whose every path misbehaves in its own way."""

    def __init__(self) -> None:
        outer = self
        self.hits: list[str] = []

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args) -> None:
                pass

            def do_GET(self) -> None:
                outer.hits.append(self.path)
                if self.path == "/trickle":
                    self.send_response(200)
                    self.send_header("Content-Type", "image/png")
                    self.end_headers()
                    try:
                        for _ in range(40):
                            self.wfile.write(b"x")
                            self.wfile.flush()
                            time.sleep(0.5)
                    except (BrokenPipeError, ConnectionResetError):
                        pass
                    return
                if self.path in TRICKLES:
                    self._trickle(*TRICKLES[self.path])
                    return
                if self.path.startswith("/to/"):
                    self.send_response(302)
                    self.send_header("Location", self.path[len("/to/") :])
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                if self.path == "/loop":
                    self.send_response(301)
                    self.send_header("Location", "/loop")
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                body = b"fine"
                self.send_response(200)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def _trickle(self, opening: bytes, byte: bytes) -> None:
                """Send ``opening``, then ``byte`` every half second, never finishing."""
                try:
                    self.wfile.write(opening)
                    for _ in range(60):
                        self.wfile.write(byte)
                        self.wfile.flush()
                        time.sleep(0.5)
                except (BrokenPipeError, ConnectionResetError):
                    pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.base = f"http://127.0.0.1:{self.server.server_port}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def hostile():
    server = Hostile()
    yield server
    server.close()


def test_a_trickling_server_is_cut_at_the_deadline(hostile):
    started = time.perf_counter()
    with pytest.raises(NetError, match="longer than 2 s"):
        LOCAL.fetch(hostile.base + "/trickle", timeout=2, max_bytes=10_000)
    assert time.perf_counter() - started < 3.5


@pytest.mark.parametrize("path", list(TRICKLES))
def test_a_trickle_anywhere_in_the_response_is_cut_at_the_deadline(hostile, path):
    """The deadline covers the status line, the headers and the chunk-size lines, not only the body:
    each read waits only for the time left, so a byte every half second does not hold it open."""
    started = time.perf_counter()
    with pytest.raises(NetError, match=r"(did not answer within|longer than) 2 s"):
        LOCAL.fetch(hostile.base + path, timeout=2, max_bytes=10_000_000)
    assert time.perf_counter() - started < 3.5


@pytest.mark.parametrize(
    ("target", "says"),
    [
        ("ftp://127.0.0.1/x.png", r"not an http\(s\) URL"),
        ("file:///etc/passwd", r"not an http\(s\) URL"),
        ("http://169.254.169.254/latest/meta-data/", "link-local"),
        ("http://10.0.0.1/x.png", "private-network"),
        ("http://[::ffff:169.254.169.254]/", "link-local"),
        ("http://0.0.0.0/", "unspecified"),
        ("http://[::1]:9/", "loopback"),
        ("http://100.64.0.1/", "shared"),
        ("http://[2002:a9fe:a9fe::1]/", r"link-local .*inside 2002:a9fe:a9fe::1"),
        ("http://[2002:a00:1::]/", r"private-network .*inside 2002:a00:1::"),
        ("http://[2001:0:4136:e378:8000:63bf:f5ff:fffe]/", r"private-network .*inside 2001:0:4136"),
        ("http://[64:ff9b::a9fe:a9fe]/", r"link-local .*inside 64:ff9b::a9fe:a9fe"),
    ],
)
def test_every_redirect_hop_is_checked(hostile, target, says):
    with pytest.raises(NetError, match=says):
        LOCAL.fetch(f"{hostile.base}/to/{target}", timeout=5, max_bytes=10_000)


def test_private_addresses_need_the_persons_word(hostile):
    with pytest.raises(NetError, match="loopback"):
        NetPolicy().fetch(hostile.base + "/ok", timeout=5, max_bytes=100)
    assert hostile.hits == [], "refused before connecting"
    assert LOCAL.fetch(hostile.base + "/ok", timeout=5, max_bytes=100).data == b"fine"
    assert NetPolicy.from_setting("localhost, 127.0.0.1").fetch(
        hostile.base + "/ok", timeout=5, max_bytes=100
    )


def test_redirect_loops_end(hostile):
    with pytest.raises(NetError, match="redirects more than"):
        LOCAL.fetch(hostile.base + "/loop", timeout=5, max_bytes=100)


def test_a_session_refuses_a_private_url_a_model_would_analyze(hostile, workspace):
    turn = Session(None, workspace=workspace).execute(
        {"action": "analyze_image", "image_url": hostile.base + "/ok"}
    )
    assert not turn.ok and "allow the host in the settings" in turn.message


def _png_bomb(side: int) -> bytes:
    """A valid greyscale PNG of side×side zeros: a few hundred kB that decode to side² pixels."""
    raw = zlib.compress(b"".join(b"\x00" + bytes(side) for _ in range(side)), 9)

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return len(data).to_bytes(4, "big") + body + zlib.crc32(body).to_bytes(4, "big")

    header = side.to_bytes(4, "big") * 2 + bytes([8, 0, 0, 0, 0])
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", raw) + chunk(b"IEND", b"")


def test_a_pixel_bomb_is_refused_from_its_header_quickly_and_cheaply():
    bomb = _png_bomb(8000)  # 64 M pixels
    assert len(bomb) < 1_000_000
    tracemalloc.start()
    started = time.perf_counter()
    with pytest.raises(fetch.ImageError, match="more than"):
        fetch.decode(bomb, "bomb.png")
    seconds = time.perf_counter() - started
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert seconds < 1 and peak < 20_000_000, (seconds, peak)


def test_a_large_picture_is_measured_on_a_shrunk_copy():
    from PIL import Image

    buffer = io.BytesIO()
    Image.fromarray(np.full((3000, 4000, 3), 200, np.uint8)).save(buffer, format="JPEG")
    pixels = fetch.decode(buffer.getvalue(), "big.jpg", shrink_to=fetch.ANALYSIS_PIXELS)
    assert pixels.shape[0] * pixels.shape[1] <= fetch.ANALYSIS_PIXELS
    assert fetch.decode(buffer.getvalue(), "big.jpg").shape[:2] == (3000, 4000)
