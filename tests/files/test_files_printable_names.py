"""Names a model or an agent proposes must be printable: the one gate every pack writes through
refuses controls (C0 and C1), bidi overrides, zero-width characters and line separators, so no
file is made whose name shows other than it is. An agent over MCP on 127.0.0.1, a real socket."""

from __future__ import annotations

import os

import pytest
from support.mcp_client import run_client

UNPRINTABLE = {
    "C1 control": "report\x9b31m.txt",
    "next line": "a\x85b.txt",
    "line separator": "notes\u2028rm -rf.txt",
    "right-to-left override": "invoice\u202etxt.exe",
    "zero-width space": "pla\u200bn.md",
    "byte-order mark": "\ufeffplan.md",
}


@pytest.fixture
def service(workspace):
    from napari_talk.agents.mcp_server import Bridge, HttpService
    from napari_talk.core.running.session import Session

    running = HttpService(Bridge(Session(None, workspace=workspace))).start()
    yield running
    running.stop()


def test_an_agent_cannot_make_a_file_whose_name_is_not_printable(service, workspace):
    async def script(client):
        said = {}
        for kind, name in UNPRINTABLE.items():
            said[kind] = await client.call_tool("write_file", {"path": name, "content": "x"})
        said["plain"] = await client.call_tool("write_file", {"path": "café plan.md", "content": "x"})
        return said

    box = run_client(service.url, service.token, script)
    assert box["done"].wait(60) and "error" not in box, box.get("error")
    for kind, result in box["value"].items():
        text = " ".join(getattr(part, "text", "") for part in result.content)
        if kind == "plain":
            assert not result.is_error, text
            continue
        assert result.is_error and "names must be printable" in text and "U+" in text, (kind, text)
    assert os.listdir(workspace) == ["café plan.md"], "only the printable name was made"


@pytest.mark.parametrize("kind", sorted(UNPRINTABLE))
def test_another_pack_s_files_pass_the_same_check(workspace, kind):
    """The check is the workspace gate's: a model file so named (put there by something else) is
    refused by the mesh pack's import as well, and the plain-named copy imports."""
    from napari_talk.core.running.session import Session
    from napari_talk.packs.mesh.primitives import build

    cube = build("Cube")
    text = "".join(f"v {x} {y} {z}\n" for x, y, z in cube.vertices)
    text += "".join(f"f {a + 1} {b + 1} {c + 1}\n" for a, b, c in cube.faces)
    hostile = UNPRINTABLE[kind].rsplit(".", 1)[0] + ".obj"
    (workspace / hostile).write_text(text)
    (workspace / "cube.obj").write_text(text)
    session = Session(workspace=workspace)
    refused = session.execute({"action": "import_model", "path": hostile})
    assert not refused.ok and "names must be printable" in refused.message, refused.message
    assert session.execute({"action": "import_model", "path": "cube.obj"}).ok
