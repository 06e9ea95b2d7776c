"""Shared fixtures. Tests touch no network beyond this machine's loopback."""

from __future__ import annotations

import ipaddress
import socket
from pathlib import Path

import pytest

DATA = Path(__file__).parent / "data"
SHARED_CORPUS = Path(__file__).parents[1].parent / "shared" / "corpus" / "commands.jsonl"


@pytest.fixture(autouse=True)
def _no_network(monkeypatch):
    """Refuse connections to anything but loopback, so no test can reach a real service."""
    real_connect = socket.socket.connect

    def guarded(sock, address):
        host = address[0] if isinstance(address, tuple) else None
        if host is not None and host != "localhost":
            try:
                loopback = ipaddress.ip_address(host).is_loopback
            except ValueError:
                loopback = False
            if not loopback:
                raise ConnectionRefusedError(f"tests may not connect to {host}")
        return real_connect(sock, address)

    monkeypatch.setattr(socket.socket, "connect", guarded)


@pytest.fixture(autouse=True)
def workspace(tmp_path, monkeypatch) -> Path:
    """Every test gets its own workspace folder; nothing lands in the real home."""
    root = tmp_path / "workspace"
    root.mkdir()
    monkeypatch.setenv("NAPARI_TALK_WORKSPACE", str(root))
    return root


@pytest.fixture
def cells_viewer(make_napari_viewer):
    """A real napari viewer holding the cells sample (as the README's examples assume)."""
    from napari_talk.samples import cells

    viewer = make_napari_viewer()
    for data, kwargs, kind in cells():
        getattr(viewer, f"add_{kind}")(data, **kwargs)
    return viewer


@pytest.fixture
def session(cells_viewer):
    from napari_talk.session import Session

    return Session(cells_viewer)
