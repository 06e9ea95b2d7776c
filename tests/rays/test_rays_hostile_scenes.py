"""Hostile scene files through the doors people use: each is refused (or traced within its limits)
in one sentence, within a bounded time and memory, and a trace can always be stopped.

The files are small and built here (``hostile_scenes``); the command line runs in a child process
whose own peak memory is read (its VmHWM at exit) and whose time is capped.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from conftest import HIGH_WATER
from qtpy.QtCore import QTimer
from support.hostile_scenes import many_glasses, write

PEAK_MIB = 700
"""What a refused scene may cost at most, the interpreter, numpy and numba included."""
SECONDS = 60


PEAK_REPORTER = HIGH_WATER + (
    "import atexit, os, runpy, sys\n"
    "def _peak():\n"
    "    with open(os.environ['NAPARI_TALK_TEST_PEAK'], 'w') as out:\n"
    "        out.write(str(hwm()))\n"
    "atexit.register(_peak)\n"
    "sys.argv = ['napari-talk', *sys.argv[1:]]\n"
    "runpy.run_module('napari_talk', run_name='__main__')\n"
)
"""Runs the command line and writes its own peak resident size at exit. The kernel's high-water
mark of the process (VmHWM) starts afresh at exec; ``ru_maxrss`` keeps the forking parent's, and a
test worker that has run a thousand tests is over a gigabyte before the child does anything."""


def rays_check(path: Path, *options: str) -> tuple[int, str, float, float]:
    """``napari-talk rays check PATH`` in a child: (exit code, its output, seconds, peak MiB)."""
    peak_file = path.with_name(path.name + ".peak")
    env = {**os.environ, "PYTHONWARNINGS": "ignore", "NAPARI_TALK_TEST_PEAK": str(peak_file)}
    started = time.perf_counter()
    child = subprocess.Popen(
        [sys.executable, "-c", PEAK_REPORTER, "rays", "check", str(path), *options],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=env,
    )
    timer = threading.Timer(SECONDS, child.kill)
    timer.start()
    output = child.stdout.read() if child.stdout else ""
    child.wait()
    timer.cancel()
    peak_mib = int(peak_file.read_text()) / 1024 if peak_file.exists() else float("inf")
    return child.returncode, output, time.perf_counter() - started, peak_mib


@pytest.mark.parametrize(
    ("name", "options", "code", "words"),
    [
        ("shared_formula", (), 1, "grows past 20000 terms"),
        ("loops_in_loops", (), 2, "more than 200,000 values"),
        ("modules_of_labels", (), 2, "past 20,000 objects"),
        (
            "facing_custom_surfaces",
            ("--budget", "100000"),
            2,
            "100,000 ray segments, counting the rays still",
        ),
        ("trapped_grin", ("--max-seconds", "2"), 2, "longer than 2 s"),
        ("thin_grin_slabs", (), 0, "objects: 700 GrinGlass, 1 SingleRay"),
        ("comb_glass", (), 2, "a path is read up to 100,000"),
        ("deep_operators", (), 1, "nests deeper than 60"),
        ("deep_json", (), 2, "nests deeper than 64 levels"),
        ("division_by_zero_text", (), 0, ""),
        ("empty_number_in_module", (), 1, "point 1's x should be a number, not ''"),
    ],
)
def test_a_hostile_scene_on_the_command_line_is_one_sentence_within_bounds(
    tmp_path, name, options, code, words
):
    path = write(tmp_path, name)
    assert path.stat().st_size < 5_000_000
    exit_code, output, seconds, peak = rays_check(path, *options)
    assert exit_code == code, output
    assert words in output
    assert "Traceback" not in output and "Error:" not in output
    if code == 2:
        refusal = [line for line in output.splitlines() if words in line]
        assert refusal and refusal[0].startswith(f"napari-talk rays check: {path}: ")
    assert seconds < SECONDS and peak < PEAK_MIB, (seconds, peak)


def test_a_trace_stops_at_its_budget_before_the_rays_waiting_fill_memory(tmp_path):
    """The segment budget counts the rays waiting: two facing surfaces multiplying every ray by 32
    are refused within a budget, without gigabytes of waiting rays."""
    path = write(tmp_path, "facing_custom_surfaces")
    exit_code, output, _, peak = rays_check(path, "--budget", "400000")
    assert exit_code == 2 and "400,000 ray segments" in output
    assert peak < PEAK_MIB


def test_rays_multiplying_are_refused_after_a_few_thousand_traced(tmp_path):
    """At the default budget, the same scene is refused once the rays its surfaces made outnumber
    the rays traced sixteen to one, past a sixteenth of the budget: a few thousand rays traced (it
    traced 64,000 and filled the whole budget with waiting rays first)."""
    path = write(tmp_path, "facing_custom_surfaces")
    exit_code, output, _, peak = rays_check(path)
    assert exit_code == 2, output
    assert "rays multiply faster than they are traced" in output and "2,000,000 ray segments" in output
    found = re.search(r"\(([\d,]+) made by its objects wait after ([\d,]+) traced\)", output)
    assert found, output
    waiting, traced = (int(n.replace(",", "")) for n in found.groups())
    assert 2_000_000 // 16 < waiting < 2_000_000 // 8
    assert traced < 10_000 and waiting > 16 * traced
    assert peak < PEAK_MIB


def test_loops_in_loops_within_the_budget_still_expand(tmp_path):
    """The same module with loops of 5 runs (125 values a blocker) expands whole."""
    from support.hostile_scenes import loops_in_loops

    path = tmp_path / "small.json"
    path.write_text(json.dumps(loops_in_loops(runs=5)))
    exit_code, output, _, _ = rays_check(path)
    assert exit_code != 2, output
    assert "objects: 5 Blocker, 1 ModuleObj" in output


def test_control_characters_in_a_name_keep_the_agents_xml_well_formed(tmp_path):
    from xml.etree import ElementTree

    from napari_talk.core.running.session import Session
    from napari_talk.packs.rays.xml import result_to_xml

    write(tmp_path, "control_characters")
    session = Session(workspace=tmp_path)
    loaded = session.execute({"action": "load_scene", "path": "control_characters.json"}, origin="agent")
    assert loaded.ok, loaded.message
    name = session.state("rays").current.scene.names[0]
    edges = session.execute({"action": "describe_glass_edges", "glass_name": name}, origin="agent")
    assert edges.ok, edges.message
    text = result_to_xml("describe_glass_edges", True, edges.data)
    assert text is not None
    ElementTree.fromstring(text.split("?>", 1)[1])  # raises if ill-formed


def test_overlapping_glasses_of_many_vertices_load_within_bounded_memory(tmp_path):
    """Two overlapping 10,000-vertex glasses opened as an agent opens them (the scene model's
    overlap test: 100,000,000 edge pairs asked 763 MiB at once)."""
    write(tmp_path, "overlapping_glasses")
    script = HIGH_WATER + (
        "import sys, time\n"
        "from pathlib import Path\n"
        "from napari_talk.core.running.session import Session\n"
        "session = Session(workspace=Path(sys.argv[1]))\n"
        "started = time.perf_counter()\n"
        "command = {'action': 'load_scene', 'path': 'overlapping_glasses.json'}\n"
        "result = session.execute(command, origin='agent')\n"
        "peak = hwm()\n"
        "print(result.ok, time.perf_counter() - started, peak)\n"
        "print(result.message)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script, str(tmp_path)], capture_output=True, text=True, timeout=SECONDS
    )
    first = done.stdout.splitlines()[0]
    ok, seconds, peak_kib = first.split()
    assert ok == "True", done.stdout + done.stderr
    assert "20,000,000 edge pairs" in done.stdout
    assert float(seconds) < SECONDS and int(peak_kib) / 1024 < PEAK_MIB


def _mcp_calls(workspace: Path, calls: list[tuple[str, dict]], *options: str) -> list:
    from mcp import Client, StdioServerParameters

    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    env.update(PYTHONWARNINGS="ignore", NAPARI_TALK_WORKSPACE=str(workspace))
    params = StdioServerParameters(
        command=sys.executable, args=["-m", "napari_talk", "mcp", "--sample", "", *options], env=env
    )

    async def main() -> list:
        answers = []
        async with Client(params) as client:
            for name, arguments in calls:
                started = time.perf_counter()
                answer = await client.call_tool(name, arguments)
                answers.append((answer, time.perf_counter() - started))
        return answers

    return asyncio.run(asyncio.wait_for(main(), 180))


def test_over_mcp_hostile_scenes_are_refused_and_a_long_trace_does_not_wedge_the_server(workspace):
    """Without a display, one call at a time: a GRIN scene that would trace for hours is stopped
    at the call's deadline, and the calls after it run."""
    for name in ("trapped_grin", "loops_in_loops", "shared_formula", "deep_json", "one_ray", "nothing"):
        write(workspace, name)
    calls = [
        ("load_scene", {"path": "one_ray.json"}),
        ("load_scene", {"path": "nothing.json"}),
        ("load_scene", {"path": "trapped_grin.json"}),
        ("load_scene", {"path": "loops_in_loops.json"}),
        ("load_scene", {"path": "deep_json.json"}),
        ("load_scene", {"path": "shared_formula.json"}),
        ("list_layers", {}),
    ]
    answers = _mcp_calls(workspace, calls, "--call-seconds", "3")
    (ray, _), (empty, _), (grin, grin_s), (loops, _), (deep, _), (formula, _), (listed, listed_s) = answers
    assert ray.is_error is False and "1 segments traced" in ray.content[0].text, ray.content[0].text
    assert empty.is_error is False and "0 segments traced" in empty.content[0].text, empty.content[0].text
    assert grin.is_error and "stopped after 3 s" in grin.content[0].text, grin.content[0].text
    assert grin_s < 15
    assert loops.is_error and "200,000 values" in loops.content[0].text
    assert deep.is_error and "nests deeper than 64" in deep.content[0].text
    assert "20000 terms" in formula.content[0].text
    for answer in (grin, loops, deep):
        assert "Traceback" not in answer.content[0].text and "\n" not in answer.content[0].text.strip()
    assert listed.is_error is False and listed_s < 5


def test_stop_in_the_dock_ends_the_trace_within_a_second(qtbot, make_napari_viewer_proxy, workspace):
    from support.door import open_door

    write(workspace, "trapped_grin")
    dock = open_door(make_napari_viewer_proxy, workspace)
    seen: list[float] = []
    clicked: list[float] = []

    def loading() -> bool:
        return dock.job is not None and dock.job[0].label == "reading a scene"  # then tracing it

    def stop_a_second_into_the_job() -> None:
        if loading() and not seen:
            seen.append(time.perf_counter())
        if seen and not clicked and time.perf_counter() - seen[0] > 1.0 and loading():
            clicked.append(time.perf_counter())
            dock.stop_button.click()

    poll = QTimer()
    poll.timeout.connect(stop_a_second_into_the_job)
    poll.start(50)
    dock.send("load scene trapped_grin.json")
    poll.stop()
    assert clicked, "the trace ended before Stop"
    assert "stopped" in dock.transcript.entries[-1].text

    def tracing() -> bool:
        return any(t.name == "napari-talk-job" and t.is_alive() for t in threading.enumerate())

    qtbot.waitUntil(lambda: not tracing(), timeout=10_000)
    assert time.perf_counter() - clicked[0] < 2.0  # the work itself ended, not only the wait for it


def test_an_mcp_client_going_away_ends_the_trace_within_a_second(workspace):
    """Over HTTP, a client that gives up on a load whose GRIN trace would run for hours: the call's
    work (its thread) ends, not only the wait for it."""
    from support.mcp_client import run_client

    from napari_talk.agents.mcp_server import Bridge, HttpService
    from napari_talk.core.running.session import Session

    write(workspace, "trapped_grin")
    service = HttpService(Bridge(Session(None, workspace=workspace))).start()

    def calls() -> int:
        return sum(t.name == "napari-talk-mcp-call" and t.is_alive() for t in threading.enumerate())

    left: list[float] = []
    try:

        async def script(client) -> None:
            call = asyncio.ensure_future(client.call_tool("load_scene", {"path": "trapped_grin.json"}))
            while not calls():
                await asyncio.sleep(0.05)
            await asyncio.sleep(1.0)  # tracing by now: the scene reads in milliseconds
            assert not call.done()
            call.cancel()
            left.append(time.perf_counter())  # the client leaves as the block ends

        box = run_client(service.url, service.token, script)
        assert box["done"].wait(60), "the client never left"
        assert "error" not in box, box.get("error")
        deadline = time.perf_counter() + 10
        while calls() and time.perf_counter() < deadline:
            time.sleep(0.05)
        assert calls() == 0, "the trace went on after its client left"
        assert time.perf_counter() - left[0] < 2.0
    finally:
        service.stop()


def test_a_ray_through_hundreds_of_thin_grin_slabs_tests_the_slabs_near_it(tmp_path, monkeypatch, capsys):
    """700 GRIN slabs and one ray on the command line: each step tests the few slabs whose box the
    ray enters nearest, and the index the ray carries through them all is evaluated once a slab
    (it tested every slab at every step, and evaluated a chain of every slab crossed: quadratic)."""
    from napari_talk.cli import main
    from napari_talk.packs.rays.rayoptics.scene_objs import base_grin_glass as grin
    from napari_talk.packs.rays.rayoptics.scene_objs.glass.grin_glass import GrinGlass

    tests = {"intersect": 0, "formula": 0}
    intersect, safe_call = GrinGlass.intersect, grin._safe_call

    def counted_intersect(self, ray):
        tests["intersect"] += 1
        return intersect(self, ray)

    def counted_formula(fn):
        call = safe_call(fn)

        def counting(scope):
            tests["formula"] += 1
            return call(scope)

        return counting

    monkeypatch.setattr(GrinGlass, "intersect", counted_intersect)
    monkeypatch.setattr(grin, "_safe_call", counted_formula)
    path = write(tmp_path, "thin_grin_slabs")
    assert main(["rays", "check", str(path)]) == 0
    output = capsys.readouterr().out
    assert "objects: 700 GrinGlass, 1 SingleRay" in output
    segments = int(output.split("segments traced: ")[1].split()[0].replace(",", ""))
    assert segments >= 1400  # through every slab, in and out
    assert tests["intersect"] <= 4 * segments, tests
    assert tests["formula"] <= 4 * 4 * 700, tests  # n, ∂n/∂x, ∂n/∂y, α: once a slab


def test_thousands_of_glasses_are_triangulated_off_the_gui_thread(
    qtbot, make_napari_viewer_proxy, workspace, monkeypatch
):
    """A scene of 1,200 glasses loaded in the dock: napari makes the glasses layer (triangulating
    every glass, seconds for thousands) in the job, and the GUI thread only adds it; the names the
    parser is told as each layer is added are the scene's, not the layer read back as a scene
    (seconds each time, four times)."""
    from napari.layers import Shapes
    from support.door import open_door

    from napari_talk.packs.rays import layers

    path = workspace / "many.json"
    path.write_text(json.dumps(many_glasses(1200)))
    made: list[tuple[int, bool]] = []
    make = Shapes.__init__

    def noted(self, data=None, *args, **kwargs):
        made.append(
            (len(data) if data is not None else 0, threading.current_thread() is threading.main_thread())
        )
        make(self, data, *args, **kwargs)

    monkeypatch.setattr(Shapes, "__init__", noted)
    read_back: list[int] = []
    scene_of = layers.scene_of

    def noted_read(layer):
        read_back.append(len(layer.data))
        return scene_of(layer)

    monkeypatch.setattr(layers, "scene_of", noted_read)
    dock = open_door(make_napari_viewer_proxy, workspace)
    dock.send("load scene many.json")
    assert "1,200 glasses" in dock.transcript.entries[-1].text, dock.transcript.entries[-1].text
    glasses = [layer for layer in dock.viewer.layers if isinstance(layer, Shapes) and len(layer.data) == 1200]
    assert len(glasses) == 1
    assert (1200, False) in made and (1200, True) not in made, made
    assert read_back == []  # the parser's names came from the scene drawn, not read back from the layer
