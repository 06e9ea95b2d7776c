"""With a display, ``napari-talk mcp`` serves from inside napari (its calls run on the GUI thread):
a call's deadline holds there as it does headless. A scene that would trace for hours is stopped
at the deadline, a call made while it traces is answered at once, and the calls after it run."""

from __future__ import annotations

import asyncio
import os
import sys
import time

import pytest
from support.hostile_scenes import write

SECONDS = 3


@pytest.mark.skipif(not os.environ.get("DISPLAY"), reason="needs a display (xvfb-run)")
def test_a_wedged_call_under_a_display_is_stopped_at_its_deadline_and_blocks_no_later_call(workspace):
    from mcp import Client, StdioServerParameters

    write(workspace, "trapped_grin")
    write(workspace, "one_ray")
    env = {**os.environ, "PYTHONWARNINGS": "ignore", "NAPARI_TALK_WORKSPACE": str(workspace)}
    args = ["-m", "napari_talk", "mcp", "--hidden", "--sample", "", "--call-seconds", str(SECONDS)]
    params = StdioServerParameters(command=sys.executable, args=args, env=env)

    async def timed(client, name: str, arguments: dict, after: float = 0.0):
        await asyncio.sleep(after)
        started = time.perf_counter()
        answer = await client.call_tool(name, arguments)
        return answer, started, time.perf_counter()

    async def main():
        async with Client(params) as client:
            await client.call_tool("list_layers", {})  # the window is up and the packs are loaded
            wedged, meanwhile = await asyncio.gather(
                timed(client, "load_scene", {"path": "trapped_grin.json"}),
                timed(client, "list_layers", {}, after=1.0),
            )
            after = await timed(client, "load_scene", {"path": "one_ray.json"})
            return wedged, meanwhile, after

    (grin, grin_start, grin_end), (listed, listed_start, listed_end), (ray, _, _) = asyncio.run(
        asyncio.wait_for(main(), 240)
    )
    text = grin.content[0].text
    assert grin.is_error and f"stopped after {SECONDS} s" in text, text
    assert "\n" not in text.strip() and "Traceback" not in text
    assert grin_end - grin_start < SECONDS + 10, "ended near its deadline, not at 30 s"
    assert listed.is_error is False, listed.content[0].text
    assert listed_end < grin_end and listed_end - listed_start < 5, "a call made meanwhile waits for nothing"
    assert ray.is_error is False and "1 segments traced" in ray.content[0].text, ray.content[0].text
