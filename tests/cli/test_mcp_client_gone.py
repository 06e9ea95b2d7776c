"""An MCP client that goes away (closes the server's stdin, ends its HTTP session) while a call of
its waits for the person's Run, or runs a long job: what waits is refused as a Cancel click would
refuse it, and ``napari-talk mcp`` over stdio exits at once instead of waiting for the call."""

from __future__ import annotations

import asyncio
import os
import sys
import threading
import time
from contextlib import asynccontextmanager

import pytest
from support.mcp_client import run_client

needs_display = pytest.mark.skipif(not os.environ.get("DISPLAY"), reason="needs an X display (Xvfb)")


def layer_names(dock) -> list[str]:
    return [layer.name for layer in dock.viewer.layers]


def asking(dock) -> bool:
    return dock.run_button.isVisibleTo(dock)


@asynccontextmanager
async def client_over_pipes(from_server, to_server):
    """The client's end of a stdio connection over two pipes, framed by the SDK's own stdio
    transport; leaving closes the pipe to the server, as a client that goes closes its stdin."""
    import anyio
    from mcp.server.stdio import stdio_server

    try:
        async with stdio_server(anyio.wrap_file(from_server), anyio.wrap_file(to_server)) as streams:
            try:
                yield streams
            finally:
                to_server.close()
    except Exception as exc:  # a group of them: the server answered after the client stopped listening
        if not all(isinstance(e, anyio.BrokenResourceError) for e in getattr(exc, "exceptions", [exc])):
            raise


def test_a_call_waiting_for_run_is_refused_when_the_stdio_client_goes(qtbot, dock):
    """The server held in-process, its stdin and stdout two pipes: the client asks to remove a
    layer, goes while the dock asks the person, and the question leaves the dock unanswered; a
    late Run click removes nothing, and serving over stdio ends."""
    import anyio
    from mcp import Client

    from napari_talk._qt.mcp_stdio import bridge_for
    from napari_talk.agents.mcp_server import serve_stdio

    bridge, _gui = bridge_for(dock, show=True)
    to_server_r, to_server_w = os.pipe()
    from_server_r, from_server_w = os.pipe()
    served = threading.Event()

    def serve() -> None:
        with open(to_server_r, encoding="utf-8") as stdin, open(from_server_w, "w", encoding="utf-8") as out:
            serve_stdio(bridge, anyio.wrap_file(stdin), anyio.wrap_file(out))
        served.set()

    threading.Thread(target=serve, daemon=True).start()
    asked = threading.Event()

    async def client() -> bool:
        from_server = open(from_server_r, encoding="utf-8")  # noqa: SIM115 - closed by its reader
        to_server = open(to_server_w, "w", encoding="utf-8")  # noqa: SIM115 - closed as the client goes
        async with Client(client_over_pipes(from_server, to_server)) as session:
            call = asyncio.create_task(session.call_tool("remove_layer", {"name": "spots"}))
            await asyncio.to_thread(asked.wait, 20)
            waiting = not call.done()  # the call still waits for the person as the client goes
        await asyncio.gather(call, return_exceptions=True)
        return waiting

    box = {"done": threading.Event()}

    def run() -> None:
        try:
            box["value"] = asyncio.run(client())
        except BaseException as exc:  # the test reads it
            box["error"] = exc
        finally:
            box["done"].set()

    threading.Thread(target=run, daemon=True).start()
    qtbot.waitUntil(lambda: asking(dock), timeout=20_000)
    assert "An agent wants to run remove_layer name='spots'" in dock.confirm_label.text()
    asked.set()
    qtbot.waitUntil(box["done"].is_set, timeout=20_000)
    assert box.get("value") is True, box.get("error")
    qtbot.waitUntil(served.is_set, timeout=5_000)
    qtbot.waitUntil(lambda: not asking(dock), timeout=5_000)
    dock.run_button.click()  # too late: the question was answered no when the client went
    qtbot.wait(300)
    assert "spots" in layer_names(dock)


def test_a_call_waiting_for_run_is_refused_when_the_http_client_goes(qtbot, dock):
    dock.serve_mcp(True)
    asked = threading.Event()

    async def script(client):
        call = asyncio.create_task(client.call_tool("remove_layer", {"name": "spots"}))
        await asyncio.to_thread(asked.wait, 20)
        call.add_done_callback(lambda done: done.exception())  # the client leaves it unanswered
        return not call.done()

    box = run_client(dock.mcp.url, dock.mcp.token, script)
    qtbot.waitUntil(lambda: asking(dock), timeout=20_000)
    asked.set()
    qtbot.waitUntil(box["done"].is_set, timeout=20_000)
    assert box.get("value") is True, box.get("error")
    qtbot.waitUntil(lambda: not asking(dock), timeout=10_000)
    dock.run_button.click()
    qtbot.wait(300)
    assert "spots" in layer_names(dock)


class ServerProcess:
    """``napari-talk mcp`` started by the SDK's stdio client, with the process kept to read how it
    ended. The SDK's client closes the server's stdin as it leaves, waits a grace period for the
    server to exit on its own, then terminates it; the grace period is raised here so that a
    server that does not exit of itself is seen (terminated late, status -15)."""

    def __init__(self, monkeypatch, *args: str, display: bool) -> None:
        import mcp.client.stdio as stdio
        from mcp import StdioServerParameters

        env = {**os.environ, "PYTHONWARNINGS": "ignore"}
        if not display:
            env = {k: v for k, v in env.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
        self.params = StdioServerParameters(
            command=sys.executable, args=["-m", "napari_talk", "mcp", *args], env=env
        )
        self.process = None
        spawn = stdio._create_platform_compatible_process

        async def spawned(*a, **k):
            self.process = await spawn(*a, **k)
            return self.process

        monkeypatch.setattr(stdio, "_create_platform_compatible_process", spawned)
        monkeypatch.setattr(stdio, "PROCESS_TERMINATION_TIMEOUT", 30.0)

    def client(self, errlog):
        from mcp import Client
        from mcp.client.stdio import stdio_client

        return Client(stdio_client(self.params, errlog=errlog))


@needs_display
def test_napari_talk_mcp_exits_when_its_client_goes_while_a_call_waits_for_run(
    monkeypatch, workspace, tmp_path
):
    """The window shown (as for Claude Desktop): a write over the person's notes waits for Run in
    the dock; the client goes; napari-talk exits within seconds, status 0, the notes untouched."""
    (workspace / "notes.md").write_text("the person's notes")
    server = ServerProcess(monkeypatch, display=True)

    async def main():
        with open(tmp_path / "stderr.txt", "w") as errlog:
            async with server.client(errlog) as client:
                overwrite = {"path": "notes.md", "content": "x"}
                write = asyncio.create_task(client.call_tool("write_file", overwrite))
                listed = await client.call_tool("list_layers", {})
                await asyncio.sleep(1.0)
                waiting = not write.done()
                left = time.monotonic()
            exit_took = time.monotonic() - left
            await asyncio.gather(write, return_exceptions=True)
        return listed, waiting, exit_took

    listed, waiting, exit_took = asyncio.run(asyncio.wait_for(main(), 120))
    assert listed.is_error is False and waiting, "the write waits for the person's Run"
    assert server.process.returncode == 0, (server.process.returncode, (tmp_path / "stderr.txt").read_text())
    assert exit_took < 10, f"napari-talk mcp took {exit_took:.1f} s to exit after its client went"
    assert (workspace / "notes.md").read_text() == "the person's notes"


def test_napari_talk_mcp_without_a_display_exits_when_its_client_goes_during_a_long_call(
    monkeypatch, workspace, tmp_path
):
    """No display: a search with a regular expression that takes its full 10 s limit is under
    way when the client goes; the server exits at once, status 0, not when the search ends."""
    (workspace / "long.txt").write_text("a" * 60 + "!\n")
    server = ServerProcess(monkeypatch, "--sample", "", display=False)

    async def main():
        with open(tmp_path / "stderr.txt", "w") as errlog:
            async with server.client(errlog) as client:
                search = asyncio.create_task(
                    client.call_tool("search_code", {"query": "(a+)+b", "regex": True})
                )
                await asyncio.sleep(1.5)
                running = not search.done()
                left = time.monotonic()
            exit_took = time.monotonic() - left
            await asyncio.gather(search, return_exceptions=True)
        return running, exit_took

    running, exit_took = asyncio.run(asyncio.wait_for(main(), 120))
    assert running, "the search is still under way as the client goes"
    assert server.process.returncode == 0, (server.process.returncode, (tmp_path / "stderr.txt").read_text())
    assert exit_took < 5, f"napari-talk mcp took {exit_took:.1f} s to exit after its client went"
