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


def _step():
    from napari_talk.core.running.history import Changes

    changes = Changes()
    changes.add(lambda: None)
    return changes


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
    print(f"{'row':<14} {'time':>8} {'peak MiB':>9} {'baseline':>9}  limit → outcome")
    for name in args.rows or list(ROWS):
        done = subprocess.run(
            [sys.executable, __file__, "--one", name], capture_output=True, text=True, timeout=900
        )
        if done.returncode != 0:
            print(f"{name:<14} failed: {done.stderr.strip().splitlines()[-1:]}")
            continue
        found = json.loads(done.stdout.strip().splitlines()[-1])
        print(
            f"{name:<14} {found['seconds']:>7.2f}s {found['peak']:>9.0f} {found['baseline']:>9.0f}  "
            f"{ROWS[name][0]} → {found['outcome']}"
        )


if __name__ == "__main__":
    main()
