"""The MCP server's HTTP side under connections that never finish a request: each request has a
deadline to arrive whole, open connections stay under a cap, and a client that sends its request
at once still gets through while the cap is reached. Real sockets on 127.0.0.1, bounded loops."""

from __future__ import annotations

import contextlib
import os
import select
import socket
import time

import pytest
from support.mcp_client import run_client

from napari_talk.agents.http_limits import HttpLimits

CAP = 16
TIMEOUT = 1.0


@pytest.fixture
def service():
    from napari_talk.agents.mcp_server import Bridge, HttpService
    from napari_talk.core.running.session import Session

    running = HttpService(
        Bridge(Session(None)), limits=HttpLimits(request_timeout=TIMEOUT, max_connections=CAP)
    ).start()
    yield running
    running.stop()


def address(service) -> tuple[str, int]:
    host_port = service.url.split("//", 1)[1].split("/", 1)[0]
    host, port = host_port.rsplit(":", 1)
    return host, int(port)


def open_fds() -> int:
    return len(os.listdir("/proc/self/fd"))


def closed_by_the_server(sock: socket.socket, within: float) -> bool:
    sock.settimeout(within)
    try:
        return sock.recv(1024) == b""
    except ConnectionResetError:
        return True
    except TimeoutError:
        return False


def list_tools(service) -> list[str]:
    async def script(client):
        return [tool.name for tool in (await client.list_tools()).tools]

    box = run_client(service.url, service.token, script)
    assert box["done"].wait(30), "the request was answered"
    if "error" in box:
        raise box["error"]
    return box["value"]


@pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="counts file descriptors in /proc")
def test_half_open_connections_are_capped_and_a_real_request_still_gets_through(service):
    before = open_fds()
    idle = [socket.create_connection(address(service), timeout=5) for _ in range(200)]
    try:
        time.sleep(0.3)  # the server accepts them all, and closes the oldest past the cap
        held = open_fds() - before - len(idle)
        assert held <= CAP + 4, f"the server holds {held} connections for {len(idle)} half-open ones"
        assert "layer_visibility" in list_tools(service), "a request sent at once is answered"
        closed = sum(closed_by_the_server(sock, TIMEOUT + 2) for sock in idle)
        assert closed == len(idle), "every connection that sent nothing is closed"
    finally:
        for sock in idle:
            sock.close()


def test_a_request_that_trickles_in_is_cut_at_its_deadline(service):
    with socket.create_connection(address(service), timeout=5) as sock:
        sock.sendall(b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        started, cut = time.monotonic(), False
        for _ in range(40):  # a byte of a header every 0.1 s: never a whole request
            try:
                sock.sendall(b"x")
            except OSError:
                cut = True
                break
            if closed_by_the_server(sock, 0.1):
                cut = True
                break
        assert cut and time.monotonic() - started < TIMEOUT + 1.5


def test_a_body_that_never_arrives_is_cut_at_its_deadline(service):
    head = (
        f"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {service.token}\r\n"
        "Content-Type: application/json\r\nContent-Length: 100\r\n\r\n"
    )
    with socket.create_connection(address(service), timeout=5) as sock:
        sock.sendall(head.encode() + b'{"jsonrpc":')
        started = time.monotonic()
        assert closed_by_the_server(sock, TIMEOUT + 2)
        assert time.monotonic() - started < TIMEOUT + 1.5


def _answer_to(service, extra: bytes) -> bytes:
    """What the server sends back (until it closes) for an MCP request with ``extra`` header lines."""
    head = (
        f"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {service.token}\r\n"
        "Content-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n"
    ).encode()  # "close": the answer is read to its end, not to a kept-alive connection's idle cut
    with socket.create_connection(address(service), timeout=5) as sock:
        with contextlib.suppress(OSError):  # the server may close before reading all: it has answered
            sock.sendall(head + extra + b"\r\n{}")
        got = b""
        while chunk := sock.recv(65536):
            got += chunk
        return got


@pytest.mark.parametrize(
    "extra",
    [b"X-Big: " + b"a" * 100 * 1024 + b"\r\n", b"".join(b"X-%d: 1\r\n" % n for n in range(10_000))],
    ids=["one 100 KiB header", "10,000 headers"],
)
def test_a_head_over_16_kib_or_100_headers_is_refused_sent_whole(service, extra):
    """The whole head in one send (h11's own limit sees only heads still incomplete): 431, the
    connection closed at once, and a real client is answered after."""
    started = time.monotonic()
    answer = _answer_to(service, extra)
    assert answer.startswith(b"HTTP/1.1 431 "), answer[:200]
    assert b"16,384 bytes" in answer
    assert time.monotonic() - started < 2
    assert "list_layers" in list_tools(service)


def test_many_small_headers_are_refused_and_a_few_pass(service):
    """150 short header lines (2 KB, under the byte limit) are refused; ten are answered."""
    assert _answer_to(service, b"".join(b"X-%d: 1\r\n" % n for n in range(150))).startswith(b"HTTP/1.1 431 ")
    answer = _answer_to(service, b"".join(b"X-%d: 1\r\n" % n for n in range(10)))
    assert answer.startswith(b"HTTP/1.1 ") and b" 431 " not in answer.split(b"\r\n", 1)[0], answer[:200]


def test_a_slow_answer_is_not_cut(service):
    """The deadline is for the request to arrive; the answer may take its time (a long command)."""
    limits = service.limits
    assert limits.request_timeout == TIMEOUT
    time.sleep(TIMEOUT + 0.2)  # a server that has been idle still answers
    assert "list_layers" in list_tools(service)


SERVER = """
import time
from napari_talk.agents.mcp_server import Bridge, HttpService
from napari_talk.core.running.session import Session
service = HttpService(Bridge(Session(None))).start()
print(service.url, service.token, flush=True)
time.sleep(300)
"""


@pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="counts file descriptors in /proc")
def test_1100_half_open_connections_leave_a_1024_descriptor_server_answering(tmp_path):
    """The default limits, in a server process of its own allowed 1,024 descriptors (a common
    default): 1,100 connections that send nothing neither use them up nor flood its log, and a
    client that sends its request at once is answered."""
    import resource
    import subprocess
    import sys
    from types import SimpleNamespace

    def few_descriptors() -> None:
        resource.setrlimit(resource.RLIMIT_NOFILE, (1024, 1024))

    log = tmp_path / "server.log"
    with log.open("w") as stderr:
        server = subprocess.Popen(
            [sys.executable, "-c", SERVER], stdout=subprocess.PIPE, stderr=stderr, text=True,
            preexec_fn=few_descriptors,
        )  # fmt: skip
    idle: list[socket.socket] = []
    try:
        assert server.stdout is not None
        url, token = server.stdout.readline().split()
        running = SimpleNamespace(url=url, token=token)
        idle = [socket.socket() for _ in range(1100)]
        for sock in idle:  # all at once: the kernel queues what the server has not taken yet
            sock.setblocking(False)
            sock.connect_ex(address(running))
        poll = select.poll()
        for sock in idle:
            poll.register(sock, select.POLLOUT)
        most, pending, deadline = 0, {sock.fileno() for sock in idle}, time.monotonic() + 30
        while pending and time.monotonic() < deadline:
            for fd, _ in poll.poll(200):
                poll.unregister(fd)
                pending.discard(fd)
            most = max(most, len(os.listdir(f"/proc/{server.pid}/fd")))
        assert not pending, f"{len(pending)} connections never opened"
        limits = HttpLimits()
        assert most < limits.max_connections + 2 * limits.backlog + 32, f"{most} descriptors held"
        assert "layer_visibility" in list_tools(running), "a request sent at once is answered"
    finally:
        for sock in idle:
            sock.close()
        server.kill()
        server.wait(30)
    said = log.read_text()
    assert "out of system resource" not in said and len(said.splitlines()) < 20, said[-2000:]
