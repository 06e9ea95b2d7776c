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


@pytest.fixture(scope="session", autouse=True)
def _offline_embeddings_by_default():
    """New catalogues start with the built-in offline embedder, whether MiniLM is installed or not,
    so search results do not depend on the machine; tests of MiniLM ask for it by name."""
    from napari_talk.packs.atlas import embeddings, store

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(store, "default_model", lambda: embeddings.OFFLINE)
        yield


@pytest.fixture(autouse=True)
def _private_config(tmp_path, monkeypatch):
    """LLM settings go to a file of the test's own; no real key is ever in reach."""
    monkeypatch.setenv("NAPARI_TALK_CONFIG", str(tmp_path / "config" / "settings.json"))
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)


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
    from napari_talk.core.running.session import Session

    return Session(cells_viewer)


SECRET_KEY = "sk-test-7f3a9c-SECRET"


@pytest.fixture
def chat_server():
    from support.chat_server import ChatServer

    with ChatServer() as server:
        yield server


@pytest.fixture
def llm_settings(chat_server, monkeypatch):
    from napari_talk.core.chat.settings import LLMSettings

    monkeypatch.setenv("NAPARI_TALK_TEST_KEY", SECRET_KEY)
    return LLMSettings(
        model="scripted-model",
        base_url=chat_server.url,
        api_key_env="NAPARI_TALK_TEST_KEY",
        timeout=5,
        max_retries=0,
    )


@pytest.fixture
def llm_session(session, llm_settings):
    from napari_talk.core.llm.road import LLMRoad

    session.llm = LLMRoad(session.registry, llm_settings)
    return session


@pytest.fixture
def dock(make_napari_viewer, qtbot):
    """The dock on a real viewer with the cells sample (the MCP tests serve from it); a test module
    that needs another dock defines its own ``dock``."""
    from napari_talk._qt.dock import ChatDock
    from napari_talk.samples import cells

    viewer = make_napari_viewer()
    for data, kwargs, kind in cells():
        getattr(viewer, f"add_{kind}")(data, **kwargs)
    widget = ChatDock(viewer)
    viewer.window.add_dock_widget(widget, name="Chat")
    yield widget
    widget.serve_mcp(False)


@pytest.fixture(scope="session")
def dists(tmp_path_factory: pytest.TempPathFactory):
    """The sdist and wheel, built once per test session (tests/release)."""
    from support.release_dists import build

    return build(tmp_path_factory.mktemp("dist"))


HIGH_WATER = (
    "def hwm():\n"
    "    status = open('/proc/self/status').read().splitlines()\n"
    "    return next(int(line.split()[1]) for line in status if line.startswith('VmHWM:'))\n"
)
"""Source of ``hwm()`` for a child's script: its memory's high-water mark in KiB since exec (the
kernel's VmHWM starts afresh there; ``ru_maxrss`` keeps the forking test worker's)."""
