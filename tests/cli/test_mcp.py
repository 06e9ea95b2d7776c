"""The MCP server with the official SDK's client, against a real viewer behind the dock."""

from __future__ import annotations

import asyncio
import json
import time
from typing import ClassVar, Literal

import pytest
from qtpy.QtCore import Qt
from support.mcp_client import run_client

from napari_talk.core.basics.commands import Command, Risk
from napari_talk.core.basics.result import Result
from napari_talk.core.contract.pack import Handlers, Pack
from napari_talk.core.contract.registry import Registry, default_registry


def finish(qtbot, box, timeout=20_000):
    qtbot.waitUntil(box["done"].is_set, timeout=timeout)
    if "error" in box:
        raise box["error"]
    return box["value"]


def test_the_sdk_client_lists_tools_and_drives_the_viewer(qtbot, dock):
    qtbot.mouseClick(dock.mcp_switch, Qt.MouseButton.LeftButton)
    assert dock.mcp is not None and dock.mcp.token in dock.mcp_info.text()

    async def script(client):
        tools = (await client.list_tools()).tools
        listed = await client.call_tool("list_layers", {})
        hidden = await client.call_tool("layer_visibility", {"name": "nuclei", "op": "hide"})
        return tools, listed, hidden

    tools, listed, hidden = finish(qtbot, run_client(dock.mcp.url, dock.mcp.token, script))
    by_name = {t.name: t for t in tools}
    assert set(by_name) == set(default_registry().commands)
    assert by_name["list_layers"].annotations.read_only_hint is True
    assert by_name["remove_layer"].annotations.destructive_hint is True
    assert by_name["layer_visibility"].input_schema["properties"]["op"]["enum"] == ["show", "hide", "toggle"]
    assert not {"execute_code", "exec", "eval", "run_python", "python"} & set(by_name)
    layers = [item["name"] for item in listed.structured_content["data"]]
    assert layers[0] == "spots" and "cell boundaries" in layers
    assert hidden.is_error is False and json.loads(hidden.content[0].text)["status"] == "success"
    assert not dock.viewer.layers["nuclei"].visible


@pytest.mark.parametrize("token", [None, "wrong-token"], ids=["missing", "wrong"])
def test_a_missing_or_wrong_token_is_refused(qtbot, dock, token):
    import httpx2

    dock.serve_mcp(True)
    response = httpx2.post(
        dock.mcp.url,
        json={"jsonrpc": "2.0", "id": 1, "method": "tools/list"},
        headers={"Authorization": f"Bearer {token}"} if token else {},
    )
    assert response.status_code == 401 and "bearer token" in response.text

    async def script(client):
        return await client.list_tools()

    box = run_client(dock.mcp.url, token, script)
    qtbot.waitUntil(box["done"].is_set, timeout=20_000)
    assert "error" in box and dock.viewer.layers["nuclei"].visible


def test_a_destructive_call_waits_for_the_person(qtbot, dock):
    dock.serve_mcp(True)

    async def script(client):
        return await client.call_tool("remove_layer", {"name": "spots"})

    box = run_client(dock.mcp.url, dock.mcp.token, script)
    qtbot.waitUntil(lambda: dock.run_button.isVisibleTo(dock), timeout=20_000)
    assert "An agent wants to run remove_layer name='spots'" in dock.confirm_label.text()
    assert "spots" in [layer.name for layer in dock.viewer.layers]
    time.sleep(0.2)
    assert not box["done"].is_set()
    qtbot.mouseClick(dock.run_button, Qt.MouseButton.LeftButton)
    result = finish(qtbot, box)
    assert result.is_error is False
    assert "spots" not in [layer.name for layer in dock.viewer.layers]


def test_a_refused_destructive_call_runs_nothing(qtbot, dock):
    dock.serve_mcp(True)

    async def script(client):
        return await client.call_tool("remove_layer", {"name": "spots"})

    box = run_client(dock.mcp.url, dock.mcp.token, script)
    qtbot.waitUntil(lambda: dock.cancel_button.isVisibleTo(dock), timeout=20_000)
    qtbot.mouseClick(dock.cancel_button, Qt.MouseButton.LeftButton)
    result = finish(qtbot, box)
    assert result.is_error and "not confirmed" in result.content[0].text
    assert "spots" in [layer.name for layer in dock.viewer.layers]


class Sleep(Command):
    """Hold the GUI thread for a while (a stand-in for a slow command)."""

    action: Literal["sleep_for_test"] = "sleep_for_test"
    risk: ClassVar[Risk] = "read"
    examples: ClassVar[tuple[str, ...]] = ("sleep_for_test seconds=1",)
    no_rule: ClassVar[str] = "only agents call it"
    seconds: float


def test_a_call_that_times_out_says_so_and_the_viewer_stays_usable(qtbot, make_napari_viewer):
    from napari_talk._qt.gui_thread import GuiThread
    from napari_talk.agents.mcp_server import Bridge, HttpService
    from napari_talk.core.running.session import Session

    viewer = make_napari_viewer()
    viewer.add_points([[1, 1]], name="dots")
    registry = Registry(default_registry().packs)
    registry.register(Pack("slow", (Sleep,), handlers=SLEEP))
    session = Session(viewer, registry=registry)
    gui = GuiThread(session)
    service = HttpService(Bridge(session, gui.call, timeout=0.5)).start()
    try:

        async def script(client):
            slow = await client.call_tool("sleep_for_test", {"seconds": 1.5})
            await asyncio.sleep(1.5)  # the slow command finishes on the GUI thread meanwhile
            after = await client.call_tool("layer_visibility", {"name": "dots", "op": "hide"})
            return slow, after

        slow, after = finish(qtbot, run_client(service.url, service.token, script))
    finally:
        service.stop()
    assert slow.is_error and "did not finish within 0.5 s" in slow.content[0].text
    assert after.is_error is False and not viewer.layers["dots"].visible


SLEEP = Handlers[None]()
SLEEP.on(Sleep)(lambda command, ctx: (time.sleep(command.seconds), Result.success("slept"))[1])


def mcp_server_process(*args: str, display: bool = True):
    """How an MCP client starts ``napari-talk mcp``: this Python, this environment (without
    DISPLAY when ``display`` is False, as on a server or in CI)."""
    import os
    import sys

    from mcp import StdioServerParameters

    env = {**os.environ, "PYTHONWARNINGS": "ignore"}
    if not display:
        env = {k: v for k, v in env.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    return StdioServerParameters(command=sys.executable, args=["-m", "napari_talk", "mcp", *args], env=env)


def hidden_stdio_server():
    return mcp_server_process("--hidden")


@pytest.mark.skipif(not __import__("os").environ.get("DISPLAY"), reason="needs an X display (Xvfb)")
def test_napari_talk_mcp_serves_a_viewer_over_stdio(tmp_path):
    from mcp import Client

    params = hidden_stdio_server()

    async def main():
        async with Client(params) as client:
            tools = (await client.list_tools()).tools
            listed = await client.call_tool("list_layers", {})
            return tools, listed

    tools, listed = asyncio.run(asyncio.wait_for(main(), 120))
    assert "layer_visibility" in {t.name for t in tools}
    assert "nuclei" in [item["name"] for item in listed.structured_content["data"]]


@pytest.mark.skipif(not __import__("os").environ.get("DISPLAY"), reason="needs an X display (Xvfb)")
def test_napari_talk_mcp_hidden_refuses_what_needs_the_person(workspace):
    """``napari-talk mcp --hidden``: the session's policy judges each call; with nobody to click Run,
    a screenshot over the person's figure and a write over their notes are refused, and nothing changes."""
    from mcp import Client

    (workspace / "figures").mkdir()
    figure = workspace / "figures" / "fig.png"
    figure.write_bytes(b"the person's figure")
    (workspace / "notes.md").write_text("the person's notes")
    params = hidden_stdio_server()

    async def main():
        async with Client(params) as client:
            shot = await client.call_tool("screenshot", {"path": "figures/fig.png"})
            write = await client.call_tool("write_file", {"path": "notes.md", "content": "x"})
            listed = await client.call_tool("list_layers", {})
            return shot, write, listed

    shot, write, listed = asyncio.run(asyncio.wait_for(main(), 120))
    assert shot.is_error and "not confirmed" in shot.content[0].text
    assert write.is_error and "not confirmed" in write.content[0].text
    assert listed.is_error is False
    assert figure.read_bytes() == b"the person's figure"
    assert (workspace / "notes.md").read_text() == "the person's notes"


def test_napari_talk_mcp_without_a_display_serves_the_viewer_model_over_stdio(workspace):
    """No DISPLAY: no window, no Qt; the tools run on napari's viewer model, the server says its
    version, and what needs a canvas or the person is refused in a sentence."""
    from mcp import Client

    from napari_talk import __version__

    (workspace / "notes.md").write_text("the person's notes")

    async def main():
        async with Client(mcp_server_process(display=False)) as client:
            tools = (await client.list_tools()).tools
            hidden = await client.call_tool("layer_visibility", {"name": "nuclei", "op": "hide"})
            listed = await client.call_tool("list_layers", {})
            shot = await client.call_tool("screenshot", {"path": "shot.png"})
            write = await client.call_tool("write_file", {"path": "notes.md", "content": "x"})
            return client.server_info, tools, hidden, listed, shot, write

    info, tools, hidden, listed, shot, write = asyncio.run(asyncio.wait_for(main(), 120))
    assert info.name == "napari-talk" and info.version == __version__
    assert len(tools) == len(default_registry().commands)
    assert hidden.is_error is False
    layers = {item["name"]: item for item in listed.structured_content["data"]}
    assert "nuclei" in layers and "hidden" in listed.content[0].text
    assert shot.is_error and "no window" in shot.content[0].text
    assert write.is_error and "not confirmed" in write.content[0].text
    assert not (workspace / "shot.png").exists()
    assert (workspace / "notes.md").read_text() == "the person's notes"


def test_napari_talk_mcp_http_without_a_display_needs_the_token(workspace):
    import os
    import subprocess
    import sys

    import httpx2

    token = "a-token-of-the-persons-own-0123"
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    env |= {"PYTHONWARNINGS": "ignore", "NAPARI_TALK_MCP_TOKEN": token}
    server = subprocess.Popen(
        [sys.executable, "-m", "napari_talk", "mcp", "--http", "--sample", ""],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        said = ""
        for _ in range(20):  # a few lines at most before the address
            said += server.stderr.readline()
            if "Bearer" in said:
                break
        url = said.split("MCP over HTTP at ", 1)[1].split(";", 1)[0]
        assert url.startswith("http://127.0.0.1:") and f"Bearer {token}" in said
        refused = httpx2.post(url, json={"jsonrpc": "2.0", "id": 1, "method": "tools/list"})
        assert refused.status_code == 401

        async def script(client):
            return (await client.list_tools()).tools, client.server_info

        box = run_client(url, token, script)
        assert box["done"].wait(60)
        if "error" in box:
            raise box["error"]
        tools, info = box["value"]
        assert "layer_visibility" in {t.name for t in tools} and info.version
    finally:
        server.terminate()
        server.wait(20)


def test_the_mcp_command_says_what_is_wrong_with_its_arguments():
    import os
    import subprocess
    import sys

    env = {**os.environ, "NAPARI_TALK_MCP_TOKEN": "short"}
    done = subprocess.run(
        [sys.executable, "-m", "napari_talk", "mcp", "--http"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2 and "at least 16" in done.stderr and "Traceback" not in done.stderr
    done = subprocess.run(
        [sys.executable, "-m", "napari_talk", "mcp", "--port", "8000"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2 and "go with --http" in done.stderr
