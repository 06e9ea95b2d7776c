"""Downloads from URLs someone else chose (a model, a catalogue, an agent): bounded and fenced.

One total deadline for the whole download, every redirect hop included: connecting, the TLS
handshake, the status line, the headers, chunk-size lines and the body each wait only for the time
left (a server trickling a byte every few seconds anywhere is cut at it); at most ``max_bytes``;
http and https only, at every redirect hop; and the address each hop resolves to is checked before
connecting to it, then connected to as checked (no second look-up a DNS answer could change
meanwhile). Private, loopback, link-local, shared (100.64.0.0/10), multicast, reserved and other
non-public addresses, in any spelling (``[::ffff:169.254.169.254]``, or inside a 6to4, Teredo or
NAT64 address), are refused unless the person allows that host in the settings. A large file
(a model's weights) is streamed into a file instead of memory, each wait for its next bytes bounded
too, and every redirect hop may be refused by the caller (a download kept to one place).
"""

from __future__ import annotations

import io
import ipaddress
import socket
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, BinaryIO
from urllib.parse import urljoin, urlsplit

if TYPE_CHECKING:
    import http.client

USER_AGENT = "napari-talk/1"
MAX_REDIRECTS = 5
REDIRECTS = (301, 302, 303, 307, 308)
CHUNK = 64 * 1024


class NetError(Exception):
    """A download that cannot be had: one line saying why."""


@dataclass(frozen=True)
class Download:
    url: str
    """Where the body came from, after redirects."""
    data: bytes
    content_type: str


@dataclass(frozen=True)
class NetPolicy:
    """Which hosts outside the public internet the person allows (``localhost``, a lab server)."""

    allowed_hosts: frozenset[str] = field(default_factory=frozenset)

    @classmethod
    def from_setting(cls, text: str | Iterable[str]) -> NetPolicy:
        names = text.replace(",", " ").split() if isinstance(text, str) else list(text)
        return cls(frozenset(name.strip().strip("[]").casefold() for name in names if name.strip()))

    def allows(self, host: str, address: str) -> bool:
        return host.casefold() in self.allowed_hosts or address.casefold() in self.allowed_hosts

    def fetch(self, url: str, *, timeout: float, max_bytes: int, accept: str = "*/*") -> Download:
        """The body of ``url``, or a :class:`NetError` saying why not."""
        limits = Limits(time.monotonic() + timeout, timeout)
        response, connection, current = self._follow(url, limits, accept, None)
        try:
            body = b"".join(_chunks(response, current, limits, max_bytes))
            content_type = (response.getheader("Content-Type") or "").split(";")[0].strip()
            return Download(current, body, content_type)
        finally:
            response.close()
            connection.close()

    def stream(
        self,
        url: str,
        sink: BinaryIO,
        *,
        timeout: float,
        max_bytes: int,
        stall: float | None = None,
        redirect: Callable[[str, str], None] | None = None,
        received: Callable[[int], None] | None = None,
    ) -> str:
        """Write the body of ``url`` into ``sink`` as it arrives (a large file never sits in
        memory); return where it came from after redirects. ``stall`` bounds each wait for the
        next bytes (the whole is bounded by ``timeout``); ``redirect(from, to)`` may refuse a hop
        by raising :class:`NetError`; ``received(bytes so far)`` is told after each chunk and may
        raise to stop the download."""
        limits = Limits(time.monotonic() + timeout, timeout, stall)
        response, connection, current = self._follow(url, limits, "*/*", redirect)
        try:
            done = 0
            for chunk in _chunks(response, current, limits, max_bytes):
                sink.write(chunk)
                done += len(chunk)
                if received is not None:
                    received(done)
            return current
        finally:
            response.close()
            connection.close()

    def _follow(
        self, url: str, limits: Limits, accept: str, redirect: Callable[[str, str], None] | None
    ) -> tuple[http.client.HTTPResponse, http.client.HTTPConnection, str]:
        """The open response at the end of ``url``'s redirects (each hop fenced), or a NetError."""
        current = url.strip()
        for _ in range(MAX_REDIRECTS + 1):
            response, connection = self._open(current, limits, accept)
            if response.status not in REDIRECTS and response.status < 400:
                return response, connection, current
            try:
                if response.status >= 400:
                    raise NetError(f"{current} answered {response.status} {response.reason}")
                target = response.getheader("Location")
                if not target:
                    raise NetError(f"{current} redirects nowhere")
                following = urljoin(current, target)
                if redirect is not None:
                    redirect(current, following)
                current = following
            finally:
                response.close()
                connection.close()
        raise NetError(f"{url} redirects more than {MAX_REDIRECTS} times")

    def _open(
        self, url: str, limits: Limits, accept: str
    ) -> tuple[http.client.HTTPResponse, http.client.HTTPConnection]:
        parts = urlsplit(url)
        scheme = parts.scheme.lower()
        if scheme not in ("http", "https") or not parts.hostname:
            raise NetError(f"{url!r} is not an http(s) URL; only those are fetched")
        host = parts.hostname
        try:
            port = parts.port or (443 if scheme == "https" else 80)
        except ValueError:
            raise NetError(f"{url!r} has no valid port") from None
        address = self._checked_address(host, port, url)
        connection = _pinned_connection(scheme, host, port, address, limits)
        path = parts.path or "/"
        if parts.query:
            path += "?" + parts.query
        try:
            connection.request("GET", path, headers={"User-Agent": USER_AGENT, "Accept": accept})
            return connection.getresponse(), connection
        except TimeoutError:
            connection.close()
            raise NetError(f"{url} did not answer within {limits.waited():g} s") from None
        except (OSError, _http().HTTPException) as exc:
            connection.close()
            raise NetError(f"cannot reach {url}: {exc}") from None

    def _checked_address(self, host: str, port: int, url: str) -> str:
        try:
            found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
        except socket.gaierror as exc:
            raise NetError(f"cannot find {host}: {exc.strerror}") from None
        addresses = [str(info[4][0]) for info in found]
        for address in addresses:
            why = _private(address)
            if why and not self.allows(host, address):
                raise NetError(
                    f"{url} leads to {address}, {why}; napari-talk does not fetch from there unless "
                    "you allow the host in the settings (allowed hosts)"
                )
        return addresses[0]


SHARED = ipaddress.ip_network("100.64.0.0/10")
"""Shared address space (carrier-grade NAT, RFC 6598): inside a provider's network, not public."""
NAT64 = ipaddress.ip_network("64:ff9b::/96")


def _private(address: str) -> str | None:
    """Why an address is not on the public internet, or None. An IPv4 address carried inside an
    IPv6 one (IPv4-mapped, 6to4, Teredo, NAT64) is judged as itself."""
    ip: ipaddress.IPv4Address | ipaddress.IPv6Address = ipaddress.ip_address(address.split("%")[0])
    if isinstance(ip, ipaddress.IPv6Address):
        inside = [ip.ipv4_mapped, ip.sixtofour, *(ip.teredo or ())]
        if ip in NAT64:
            inside.append(ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF))
        if ip.ipv4_mapped is not None:
            ip = ip.ipv4_mapped
        else:
            for embedded in filter(None, inside):
                why = _private(str(embedded))
                if why:
                    return f"{why} (inside {address})"
    for test, why in (
        (ip.is_unspecified, "the unspecified address"),
        (ip.is_loopback, "a loopback address"),
        (ip.is_link_local, "a link-local address (cloud metadata lives there)"),
        (ip in SHARED, "a shared (carrier-grade NAT) address"),
        (ip.is_private, "a private-network address"),
        (ip.is_multicast, "a multicast address"),
        (ip.is_reserved, "a reserved address"),
        (not ip.is_global, "not a public address"),
    ):
        if test:
            return why
    return None


@dataclass(frozen=True)
class Limits:
    """How long a download may take: ``deadline`` (a monotonic time, ``timeout`` seconds after the
    start) for all of it, and at most ``stall`` seconds for any one wait when given."""

    deadline: float
    timeout: float
    stall: float | None = None

    def wait(self) -> float:
        """How long the next wait may be; TimeoutError once the deadline has passed."""
        left = _left(self.deadline)
        return min(left, self.stall) if self.stall is not None else left

    def waited(self) -> float:
        """The bound a wait that just timed out had: the stall, unless the deadline came first."""
        if self.stall is not None and self.deadline - time.monotonic() > 0:
            return self.stall
        return self.timeout


def _chunks(response: http.client.HTTPResponse, url: str, limits: Limits, max_bytes: int) -> Iterator[bytes]:
    announced = response.getheader("Content-Length")
    if announced and announced.isdigit() and int(announced) > max_bytes:
        raise NetError(f"{url} is {_size(int(announced))}, over the {_size(max_bytes)} limit")
    total = 0
    try:
        while True:
            if limits.deadline - time.monotonic() <= 0:
                raise NetError(f"{url} took longer than {limits.timeout:g} s to download")
            chunk = response.read1(CHUNK)  # whatever has arrived; each wait is bounded by the limits
            if not chunk:
                if announced and announced.isdigit() and total < int(announced):  # closed early
                    raise NetError(
                        f"the download of {url} broke off after {total:,} of {int(announced):,} bytes"
                    )
                return
            total += len(chunk)
            if total > max_bytes:
                raise NetError(f"{url} is larger than the {_size(max_bytes)} limit")
            yield chunk
    except TimeoutError:
        if limits.stall is not None and limits.deadline - time.monotonic() > 0:
            raise NetError(f"{url} sent nothing for {limits.stall:g} s") from None
        raise NetError(f"{url} took longer than {limits.timeout:g} s to download") from None
    except (OSError, _http().HTTPException) as exc:
        raise NetError(f"the download of {url} broke off: {exc}") from None


def _size(count: int) -> str:
    return f"{count / 1024 / 1024:.1f} MB" if count >= 1024 * 1024 else f"{count / 1024:.0f} kB"


def _http() -> Any:
    import http.client  # with ssl: not paid by sessions that never download

    return http.client


def _pinned_connection(scheme: str, host: str, port: int, address: str, limits: Limits) -> Any:
    """A connection to the address that was checked, for the host that was named (TLS checks the
    certificate against the host's name), whose every wait ends at the deadline (and lasts at most
    the stall, when there is one)."""
    import ssl

    client = _http()
    context = ssl.create_default_context()
    if scheme == "https":
        connection = client.HTTPSConnection(host, port, context=context)
    else:
        connection = client.HTTPConnection(host, port)

    def connect() -> None:
        raw = socket.create_connection((address, port), limits.wait())
        try:
            raw.settimeout(limits.wait())  # the handshake, as one wait
            sock = context.wrap_socket(raw, server_hostname=host) if scheme == "https" else raw
        except BaseException:
            raw.close()
            raise
        connection.sock = _DeadlineSocket(sock, limits)

    connection.connect = connect
    return connection


def _left(deadline: float) -> float:
    left = deadline - time.monotonic()
    if left <= 0:
        raise TimeoutError("the deadline has passed")
    return left


class _DeadlineSocket:
    """A socket whose every send and receive waits only for the time left before the deadline.

    A socket's own timeout starts afresh at each receive, so a server sending a byte a second
    would hold a status line, a header or a chunk-size line open for ever; here the waits add up
    to the deadline at most.
    """

    def __init__(self, sock: socket.socket, limits: Limits) -> None:
        self._sock = sock
        self._limits = limits
        self._files = 0
        self._closed = False

    def recv_into(self, buffer: Any, nbytes: int = 0, flags: int = 0) -> int:
        self._sock.settimeout(self._limits.wait())
        return self._sock.recv_into(buffer, nbytes, flags)

    def recv(self, size: int, flags: int = 0) -> bytes:
        self._sock.settimeout(self._limits.wait())
        return self._sock.recv(size, flags)

    def sendall(self, data: Any, flags: int = 0) -> None:
        self._sock.settimeout(self._limits.wait())
        self._sock.sendall(data, flags)

    def makefile(self, mode: str = "rb", *args: Any, **kwargs: Any) -> io.BufferedReader:
        if mode != "rb":
            raise ValueError("only reading through a file is supported")
        self._files += 1
        return io.BufferedReader(_DeadlineReader(self))

    def settimeout(self, value: float | None) -> None:
        pass  # the deadline decides

    def close(self) -> None:
        """As a socket does: closed once it and every file made from it are (a response read to
        the end of the connection outlives its connection's close)."""
        self._closed = True
        if self._files <= 0:
            self._sock.close()

    def file_closed(self) -> None:
        self._files -= 1
        if self._closed and self._files <= 0:
            self._sock.close()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._sock, name)


class _DeadlineReader(io.RawIOBase):
    def __init__(self, sock: _DeadlineSocket) -> None:
        self._sock = sock

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        return self._sock.recv_into(buffer)

    def close(self) -> None:
        if not self.closed:
            self._sock.file_closed()
        super().close()
