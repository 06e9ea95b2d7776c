"""Hostile inputs beside their limits: the peak memory and time of each, each in a child process.

    python benchmarks/hostile_inputs.py              # every row
    python benchmarks/hostile_inputs.py task_log     # rows by name

A row is one small function, registered with ``@row(name, limit)``: it takes a scratch folder,
does the hostile thing through the door a person, a model or an agent uses, and returns one line
saying what came of it. Each row runs in a fresh interpreter, so its peak memory (``ru_maxrss``)
is its own; the baseline beside it is that interpreter's peak after importing napari-talk and
before the row ran. Add a row for a new limit by writing one more function.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

Row = Callable[[Path], str]
ROWS: dict[str, tuple[str, Row]] = {}


def row(name: str, limit: str) -> Callable[[Row], Row]:
    def register(function: Row) -> Row:
        ROWS[name] = (limit, function)
        return function

    return register


def _peak_mib() -> float:
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


# -- rows ----------------------------------------------------------------------------------------


@row("task_log", "assign_task: task log budget 16 MiB")
def task_log(folder: Path) -> str:
    """10,000 assign_task calls of 3,990 two-byte characters each (80 MB asked for)."""
    from napari_talk.core.running.session import Session

    session = Session(workspace=folder)
    refused_at = None
    for n in range(10_000):
        result = session.execute(
            {"action": "assign_task", "target_agent": "editor", "task_description": f"{n:05} " + "é" * 3990,
             "target_file": "a.md"}, origin="agent",
        )  # fmt: skip
        if not result.ok and refused_at is None:
            refused_at = n
    listed = session.execute({"action": "list_tasks"})
    size = (folder / ".napari-talk" / "tasks.jsonl").stat().st_size
    return f"refused from call {refused_at:,}; log {size / 2**20:.1f} MiB; list_tasks ok={listed.ok}"


@row("hard_link", "gate: no read or write through a hard link leading outside")
def hard_link(folder: Path) -> str:
    from napari_talk.core.running.session import Session

    root, outside = folder / "workspace", folder / "outside"
    root.mkdir()
    outside.mkdir()
    (outside / "secret.txt").write_text("private")
    os.link(outside / "secret.txt", root / "inner.txt")
    session = Session(workspace=root)
    read = session.execute({"action": "read_file", "path": "inner.txt"}, origin="agent")
    write = session.execute({"action": "write_file", "path": "inner.txt", "content": "x"}, origin="agent")
    kept = (outside / "secret.txt").read_text() == "private"
    return f"read refused={not read.ok}; write refused={not write.ok}; outside file kept={kept}"


@row("view_flood", "history: 200 view entries; data changes never pushed out")
def view_flood(folder: Path) -> str:
    from napari_talk.core.running.history import History
    from napari_talk.core.running.session import Session

    session = Session(workspace=folder)
    history = History()
    write = session.registry.validate({"action": "write_file", "path": "a.md", "content": "x"})
    zoom = session.registry.validate({"action": "set_zoom", "zoom": 2})
    history.record(write, _step(), risk="data")
    for _ in range(10_000):
        history.record(zoom, _step(), risk="view")
    first = history._done[0].command.action
    return f"after 10,000 view changes: {len(history)} entries, the oldest is {first}"


@row("undo_payloads", "history budget 512 MiB")
def undo_payloads(folder: Path) -> str:
    """40 changes each keeping 64 MiB for undo (2.5 GiB if all were kept)."""
    import numpy as np

    from napari_talk.core.running.history import Changes, History
    from napari_talk.core.running.session import Session

    session = Session(workspace=folder)
    history = History()
    write = session.registry.validate({"action": "write_file", "path": "a.md", "content": "x"})
    dropped = 0
    for _ in range(40):
        kept = np.ones(64 * 2**20, np.uint8)
        changes = Changes()
        changes.add(kept.sum, size=kept.nbytes)
        dropped += len(history.record(write, changes, risk="data"))
        del kept, changes
    return f"kept {history.size / 2**20:.0f} MiB in {len(history)} entries; {dropped} dropped, each said"


@row("model_url", "consent: an unconfigured host waits for the person")
def model_url(folder: Path) -> str:
    import threading
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    from napari_talk.agents.mcp_server import Bridge
    from napari_talk.core.running.session import Session
    from napari_talk.core.safety.net import NetPolicy

    hits: list[str] = []

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            hits.append(self.path)
            self.send_response(404)
            self.end_headers()

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    session = Session(workspace=folder)
    session.net = NetPolicy.from_setting("127.0.0.1")
    url = f"http://localhost:{server.server_port}/a.png?notes=secret"
    _, structured, refused = Bridge(session).call("analyze_image", {"image_url": url})
    server.shutdown()
    return f"refused={refused} ({structured['meta'].get('error')}); requests reaching the host: {len(hits)}"


@row("ray_scene", "rays: at most 2,000,000 rays a scene declares")
def ray_scene(folder: Path) -> str:
    """A 90-byte scene file whose beam asks for 5e7 rays (8 GB of rays if believed)."""
    from napari_talk.core.running.session import Session

    beam = {"type": "Beam", "p1": {"x": 0, "y": 0}, "p2": {"x": 0, "y": 1}, "numRays": 5e7}
    (folder / "huge.json").write_text(json.dumps({"version": 5, "objs": [beam]}))
    result = Session(workspace=folder).execute({"action": "load_scene", "path": "huge.json"}, origin="agent")
    return f"refused={not result.ok}: {result.message[:90]}"


@row("many_glasses", "rays: a scene of 5,000 glasses loads without a pairwise check")
def many_glasses(folder: Path) -> str:
    from napari_talk.packs.rays.scene_json import scene_from_dict

    def glass(x: float, y: float) -> dict:
        corners = [(x, y), (x + 5, y), (x + 5, y + 5)]
        path = [{"x": a, "y": b, "arc": False} for a, b in corners]
        return {"type": "Glass", "refIndex": 1.5, "path": path}

    scene = {"version": 5, "objs": [glass(10 * (n % 100), 10 * (n // 100)) for n in range(5000)]}
    loaded = scene_from_dict(scene)
    return f"loaded {len(loaded.glasses):,} glasses"


@row("tiff_bomb", "images: at most 512 MiB decoded, 25 M pixels a plane")
def tiff_bomb(folder: Path) -> str:
    """A TIFF of 16 compressed float pages, about 1.6 MB, declaring 1.28 GB of values."""
    import numpy as np
    import tifffile

    from napari_talk.core.running.session import Session

    page = np.zeros((4000, 5000), np.float32)
    path = folder / "bomb.tif"
    tifffile.imwrite(path, (page for _ in range(16)), shape=(16, 4000, 5000), dtype=np.float32,
                     compression="zlib")  # fmt: skip
    del page
    session = Session(workspace=folder)
    started = time.perf_counter()
    result = session.execute({"action": "analyze_image", "image_url": "bomb.tif"})
    took = time.perf_counter() - started
    size = path.stat().st_size / 1e6
    return f"{size:.1f} MB file (made in the row); refused in {took:.2f} s: {result.message[:80]}"


@row("gltf_instances", "mesh: at most 2,000,000 faces, every instance counted")
def gltf_instances(folder: Path) -> str:
    """A GLB of one 20,480-face sphere instanced 160,000 times (3.3 G faces) by accessors with a
    buffer view that holds them: about 2.4 MB on disk."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
    from support.mesh_shapes import instanced, sphere_glb

    from napari_talk.core.running.session import Session

    path = folder / "instanced.glb"
    path.write_bytes(sphere_glb(instanced))
    session = Session(workspace=folder)
    started = time.perf_counter()
    result = session.execute({"action": "import_model", "path": "instanced.glb"})
    took = time.perf_counter() - started
    return f"{path.stat().st_size / 1e6:.2f} MB file; refused in {took:.2f} s: {result.message[:90]}"


def _import_hostile(folder: Path, name: str, builder: str) -> str:
    """Import a file built by ``tests/support/hostile_meshes.py`` as a person would: its size, the time
    and the reply."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
    from support import hostile_meshes

    from napari_talk.core.running.session import Session

    path = folder / name
    path.write_bytes(getattr(hostile_meshes, builder)())
    session = Session(workspace=folder)
    started = time.perf_counter()
    result = session.execute({"action": "import_model", "path": name})
    took = time.perf_counter() - started
    said = "imported" if result.ok else "refused"
    return f"{path.stat().st_size / 1e6:.1f} MB file; {said} in {took:.2f} s: {result.message[:90]}"


@row("glb_texture", "mesh: only geometry kept, embedded images never decoded")
def glb_texture(folder: Path) -> str:
    """A triangle shown twice with an embedded 30,016 × 30,016 RGBA PNG (3.6 GB decoded)."""
    return _import_hostile(folder, "texture.glb", "textured_glb")


@row("obj_corners", "mesh: at most 2,000,000 triangles, polygons fanned")
def obj_corners(folder: Path) -> str:
    """One OBJ face line of 15 million corners (30 MB)."""
    return _import_hostile(folder, "corners.obj", "obj_one_face")


@row("ply_indices", "mesh: at most 2,000,000 triangles, list lengths counted")
def ply_indices(folder: Path) -> str:
    """One binary PLY face listing 10 million indices (40 MB)."""
    return _import_hostile(folder, "indices.ply", "ply_one_face")


@row("gltf_deep", "mesh: glTF JSON read without recursion errors")
def gltf_deep(folder: Path) -> str:
    """A .gltf whose JSON nests 200,000 arrays deep."""
    return _import_hostile(folder, "deep.gltf", "deep_gltf")


@row("fan_segment", "segment: at most 60,000,000 ray tests, 250,000 pairs at once")
def fan_segment(folder: Path) -> str:
    """50,000 slivers meeting in one point imported, then "segment it"."""
    imported = _import_hostile(folder, "fan.obj", "fan_obj")
    from napari_talk.core.running.session import Session

    session = Session(workspace=folder)
    session.execute({"action": "import_model", "path": "fan.obj"})
    started = time.perf_counter()
    result = session.run("segment it")
    took = time.perf_counter() - started
    return f"{imported.split(';')[0]}; segment refused={not result.ok} in {took:.2f} s: {result.message[:90]}"


@row("mcp_head", "MCP HTTP: a head of at most 16 KiB and 100 header lines")
def mcp_head(folder: Path) -> str:
    """A 100 KiB header, then 10,000 headers, each sent whole to a real server on 127.0.0.1."""
    import socket

    from napari_talk.agents.mcp_server import Bridge, HttpService
    from napari_talk.core.running.session import Session

    service = HttpService(Bridge(Session(None, workspace=folder))).start()
    host, port = service.url.split("//", 1)[1].split("/", 1)[0].rsplit(":", 1)
    said = []
    try:
        for name, extra in (
            ("100 KiB header", b"X-Big: " + b"a" * 100 * 1024 + b"\r\n"),
            ("10,000 headers", b"".join(b"X-%d: 1\r\n" % n for n in range(10_000))),
        ):
            started = time.perf_counter()
            with socket.create_connection((host, int(port)), timeout=10) as sock:
                with contextlib.suppress(OSError):  # closed before all was read: it has answered
                    sock.sendall(b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n" + extra + b"\r\n")
                answer = sock.recv(200).split(b"\r\n", 1)[0].decode()
            said.append(f"{name}: {answer!r} in {time.perf_counter() - started:.3f} s")
    finally:
        service.stop()
    return "; ".join(said)


@row("jsonl_deep", "parse --jsonl: a line too deep gets an error, the rest are parsed")
def jsonl_deep(folder: Path) -> str:
    """Three lines to ``napari-talk parse --jsonl``, the middle one nested 200,000 deep."""
    feed = '{"text": "zoom to 200%"}\n' + "[" * 200_000 + "]" * 200_000 + '\n{"text": "zoom to 300%"}\n'
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "napari_talk", "parse", "--jsonl"], input=feed, capture_output=True, text=True
    )
    took = time.perf_counter() - started
    answers = len(done.stdout.splitlines())
    return f"exit {done.returncode} in {took:.2f} s; {answers} answers: {done.stdout[-80:]!r}"


@row("recipe_deep_json", "recipes: JSON too deep is a failed row; a rerun reads a table of 200 KB fields")
def recipe_deep_json(folder: Path) -> str:
    """A recipe whose second line is a command nested 100,000 deep, run twice over two images."""
    import numpy as np
    import tifffile

    (folder / "data").mkdir()
    for n in range(2):
        tifffile.imwrite(folder / "data" / f"img{n}.tif", np.zeros((16, 16), np.uint16))
    (folder / "recipes").mkdir()
    deep = "[" * 100_000 + "]" * 100_000
    recipe = f'auto contrast {{layer1}}\n{{"action": "list_layers", "x": {deep}}}\n'
    (folder / "recipes" / "deep.recipe").write_text(recipe)
    env = {**os.environ, "NAPARI_TALK_WORKSPACE": str(folder), "PYTHONWARNINGS": "ignore"}
    said = []
    for _ in range(2):
        started = time.perf_counter()
        done = subprocess.run(
            [sys.executable, "-m", "napari_talk", "run", "--recipe", "deep", "--each", "data/*.tif",
             "--scheduler", "in-process"], capture_output=True, text=True, env=env,
        )  # fmt: skip
        last = (done.stdout.strip().splitlines() or [""])[-1] if "inside" not in done.stderr else done.stderr
        said.append(f"exit {done.returncode} in {time.perf_counter() - started:.1f} s: {last[:60]}")
    return "; ".join(said)


@row("llm_flood", "LLM reply: at most 2,000,000 bytes, capped while read")
def llm_flood(folder: Path) -> str:
    """A real Chat Completions server on 127.0.0.1 answering with a 600 MB body."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
    from support.chat_server import ChatServer, Scripted

    from napari_talk.core.chat.settings import LLMSettings
    from napari_talk.core.llm.road import LLMRoad
    from napari_talk.core.running.session import Session

    with ChatServer() as server:
        session = Session(None, workspace=folder)
        settings = LLMSettings(model="scripted", base_url=server.url, timeout=60, max_retries=0)
        session.llm = LLMRoad(session.registry, settings)
        server.replies.append(Scripted(raw=b"", flood=600 * 10**6))
        started = time.perf_counter()
        turn = session.run("what have I got in the workspace folder?")
        took = time.perf_counter() - started
    return f"600 MB offered; the line ended in {took:.2f} s, ok={turn.ok}: {turn.message[:80]}"


@row("half_open", "MCP HTTP: 64 connections open, 10 s for a request to arrive")
def half_open(folder: Path) -> str:
    """1,100 connections that send nothing to an MCP HTTP server in a process of its own limited to
    1,024 file descriptors; then a client that sends its request at once."""
    import resource
    import socket

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
    from support.mcp_client import run_client

    def nofile() -> None:
        resource.setrlimit(resource.RLIMIT_NOFILE, (1024, 1024))

    script = (
        "import sys, time\n"
        "from napari_talk.agents.mcp_server import Bridge, HttpService\n"
        "from napari_talk.core.running.session import Session\n"
        "service = HttpService(Bridge(Session(None))).start()\n"
        "print(service.url, service.token, flush=True)\n"
        "time.sleep(600)\n"
    )
    server = subprocess.Popen(
        [sys.executable, "-c", script], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        preexec_fn=nofile,
    )  # fmt: skip
    idle: list[socket.socket] = []
    try:
        url, token = (server.stdout.readline() if server.stdout else "").split()
        host, port = url.split("//", 1)[1].split("/", 1)[0].rsplit(":", 1)
        opening = time.perf_counter()
        for _ in range(1100):
            idle.append(socket.create_connection((host, int(port)), timeout=30))
        opening = time.perf_counter() - opening
        time.sleep(1.0)
        held = len(os.listdir(f"/proc/{server.pid}/fd"))
        started = time.perf_counter()

        async def tools(client) -> int:
            return len((await client.list_tools()).tools)

        box = run_client(url, token, tools)
        answered = box["done"].wait(60) and "value" in box
        waited = time.perf_counter() - started
        status = Path(f"/proc/{server.pid}/status").read_text()
        peak = next(line.split()[1] for line in status.splitlines() if line.startswith("VmHWM"))
    finally:
        for sock in idle:
            sock.close()
        server.kill()
        _, log = server.communicate(timeout=30)
    return (
        f"1,100 idle sockets opened in {opening:.0f} s; the server holds {held} descriptors; "
        f"a real request answered={answered} in {waited:.2f} s; "
        f"server peak {int(peak) / 1024:.0f} MiB; its log {len(log.splitlines())} lines"
    )


def _step():
    from napari_talk.core.running.history import Changes

    changes = Changes()
    changes.add(lambda: None)
    return changes



# -- ray-optics scene files (built by tests/support/hostile_scenes.py), opened as an agent opens them ------


def _scene_row(name: str, call_seconds: float | None = None) -> Row:
    def run(folder: Path) -> str:
        sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
        from support.hostile_scenes import write

        from napari_talk.core.basics.jobs import call_limits
        from napari_talk.core.running.session import Session

        path = write(folder, name)
        session = Session(workspace=folder)
        with call_limits(call_seconds):
            result = session.execute({"action": "load_scene", "path": path.name}, origin="agent")
        said = result.message.splitlines()[-1] if result.ok else result.message
        return f"{path.stat().st_size / 1024:.1f} KB file; ok={result.ok}: {said[:150]}"

    return run


for _name, _limit, _seconds in (
    ("shared_formula", "formula terms 20,000 (counted as evaluated)", None),
    ("loops_in_loops", "module values 200,000 a scene", None),
    ("modules_of_labels", "objects 20,000 (labels counted)", None),
    ("overlapping_glasses", "overlap test 20,000,000 edge pairs", None),
    ("facing_custom_surfaces", "segments 2,000,000 incl. waiting", None),
    ("trapped_grin", "an MCP call's work 25 s", 25.0),
    ("thin_grin_slabs", "traced: each step tests the slabs near it", 25.0),
    ("comb_glass", "points 100,000 a path", None),
    ("deep_operators", "formula nesting 60", None),
    ("deep_json", "JSON nesting 64", None),
):
    row(_name, _limit)(_scene_row(_name, _seconds))


@row("chained_xy_grin", "an MCP call's work 25 s (known open: index of x and y, chained)")
def chained_xy_grin(folder: Path) -> str:
    """Twenty GRIN squares in a row whose index varies with x and y, and one ray through them all."""
    from napari_talk.core.basics.jobs import call_limits
    from napari_talk.core.running.session import Session

    index = "1.4+0.1\\cdot\\sin(x/7)\\cdot\\cos(y/5)"

    def grin(x: float) -> dict:
        corners = [(x, -20), (x + 20, -20), (x + 20, 20), (x, 20)]
        path = [{"x": a, "y": b, "arc": False} for a, b in corners]
        return {"type": "GrinGlass", "path": path, "refIndexFn": index, "stepSize": 1, "absorptionFn": "0"}

    ray = {"type": "SingleRay", "p1": {"x": -30, "y": 0.5}, "p2": {"x": -29, "y": 0.5}}
    scene = {"version": 5, "objs": [grin(22 * n) for n in range(20)] + [ray]}
    (folder / "chain.json").write_text(json.dumps(scene))
    session = Session(workspace=folder)
    started = time.perf_counter()
    with call_limits(25.0):
        result = session.execute({"action": "load_scene", "path": "chain.json"}, origin="agent")
    took = time.perf_counter() - started
    said = result.message.splitlines()[-1] if result.ok else result.message
    return f"{took:.2f} s; ok={result.ok}: {said[:150]}"


# -- running -------------------------------------------------------------------------------------


def run_one(name: str) -> None:
    """In the child: import, note the baseline, run the row, print one JSON line."""
    import napari_talk.core.running.session  # noqa: F401  (the baseline includes the core)

    baseline = _peak_mib()
    with tempfile.TemporaryDirectory() as scratch:
        started = time.perf_counter()
        outcome = ROWS[name][1](Path(scratch))
        seconds = time.perf_counter() - started
    print(json.dumps({"outcome": outcome, "seconds": seconds, "peak": _peak_mib(), "baseline": baseline}))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rows", nargs="*", help=f"rows to run (default all): {', '.join(ROWS)}")
    parser.add_argument("--one", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        run_one(args.one)
        return
    print(f"{'row':<23} {'time':>8} {'peak MiB':>9} {'baseline':>9}  limit → outcome")
    for name in args.rows or list(ROWS):
        done = subprocess.run(
            [sys.executable, __file__, "--one", name], capture_output=True, text=True, timeout=900
        )
        if done.returncode != 0:
            print(f"{name:<23} failed: {done.stderr.strip().splitlines()[-1:]}")
            continue
        found = json.loads(done.stdout.strip().splitlines()[-1])
        print(
            f"{name:<23} {found['seconds']:>7.2f}s {found['peak']:>9.0f} {found['baseline']:>9.0f}  "
            f"{ROWS[name][0]} → {found['outcome']}"
        )


if __name__ == "__main__":
    main()
