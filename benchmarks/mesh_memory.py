"""What an undo entry of an imported model keeps, and how long the GUI thread works on an import
(needs a display: ``xvfb-run -a python benchmarks/mesh_memory.py [--subdivisions 7]``).

A napari viewer with the session on it imports five different GLB spheres of 327,680 faces each
(``--subdivisions 7``) one after the other, as "import ball_N.glb" typed five times would: every
import leaves an undo entry holding the model before it. The process's resident memory after each
import (after a garbage collection) gives what one more entry keeps; the baseline in the same
process is the memory after the first import, and the arrays of one model (vertices and faces) for
scale. The GUI thread's part is timed from the job's ``finish`` (what runs on it) against the
whole command.
"""

from __future__ import annotations

import gc
import sys
import tempfile
import time
from pathlib import Path


def rss_mib() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def main() -> None:
    import napari
    import trimesh

    from napari_talk.core.basics.jobs import Job, Progress
    from napari_talk.core.basics.result import Result
    from napari_talk.core.running.session import Session

    subdivisions = int(sys.argv[sys.argv.index("--subdivisions") + 1]) if "--subdivisions" in sys.argv else 7
    workspace = Path(tempfile.mkdtemp(prefix="napari-talk-mesh-memory-"))
    ball = trimesh.creation.icosphere(subdivisions=subdivisions)
    for n in range(5):
        moved = ball.copy()
        moved.apply_scale(1.0 + 0.1 * n)
        (workspace / f"ball_{n}.glb").write_bytes(moved.export(file_type="glb"))
    model_mib = (ball.vertices.nbytes + ball.faces.nbytes) / 2**20
    viewer = napari.Viewer(show=False)
    session = Session(viewer, workspace=workspace)
    finish_seconds: list[float] = []

    def timed(job: Job) -> Result:  # the job's work here too; finish is what the GUI thread runs
        value = job.work(Progress())
        started = time.perf_counter()
        result = job.finish(value)
        finish_seconds.append(time.perf_counter() - started)
        return result

    session.jobs.wait = timed
    print(f"{len(ball.faces):,} faces a model; its vertices and faces take {model_mib:.0f} MiB")
    before = None
    for n in range(5):
        started = time.perf_counter()
        result = session.execute({"action": "import_model", "path": f"ball_{n}.glb"})
        whole = time.perf_counter() - started
        gc.collect()
        now = rss_mib()
        grew = "" if before is None else f", +{now - before:.0f} MiB for one more undo entry"
        gui = finish_seconds[-1]
        said = f"import {n + 1}: {result.status}, {whole:.2f} s, on the GUI thread {gui:.2f} s"
        print(f"{said}; RSS {now:.0f} MiB{grew}")
        before = now
    viewer.close()


if __name__ == "__main__":
    main()
