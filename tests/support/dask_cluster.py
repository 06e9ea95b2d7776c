"""A real Dask cluster for the tests that fan work out: a scheduler and worker processes on
127.0.0.1, started with Dask's own command line (each worker one thread, no nanny: a killed
worker stays dead)."""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path


def quiet_env(**extra: str) -> dict[str, str]:
    """This environment without a display (a worker has none), Python's warnings off."""
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    return {**env, "PYTHONWARNINGS": "ignore", **extra}


def _dask(*args: str, log: Path, env: dict[str, str]) -> subprocess.Popen:
    dask = Path(sys.executable).with_name("dask")
    return subprocess.Popen([str(dask), *args], stdout=subprocess.DEVNULL, stderr=log.open("wb"), env=env)


@contextlib.contextmanager
def dask_cluster(folder: Path, workers: int = 2, **env: str) -> Iterator[tuple[str, list[subprocess.Popen]]]:
    """The scheduler's address and the worker processes (named ``worker-0``, ``worker-1``, …)."""
    found = folder / "scheduler.json"
    environment = quiet_env(**env)
    where = ["--host", "127.0.0.1", "--no-dashboard"]
    scheduler = _dask(
        "scheduler", *where, "--port", "0", "--scheduler-file", str(found), log=folder / "scheduler.log",
        env=environment,
    )  # fmt: skip
    started: list[subprocess.Popen] = []
    try:
        deadline = time.monotonic() + 60
        while not (found.exists() and found.stat().st_size) and time.monotonic() < deadline:
            time.sleep(0.1)
        address = json.loads(found.read_text())["address"]
        assert address.startswith("tcp://127.0.0.1:")
        started = [
            _dask(
                "worker",
                address,
                *where,
                "--nthreads",
                "1",
                "--no-nanny",
                "--name",
                f"worker-{n}",
                log=folder / f"worker-{n}.log",
                env=environment,
            )
            for n in range(workers)
        ]
        from distributed import Client

        with Client(address, timeout="30s") as client:
            client.wait_for_workers(workers, timeout=90)
        yield address, started
    finally:
        for process in [*started, scheduler]:
            if process.poll() is None:
                process.terminate()
        for process in [*started, scheduler]:
            try:
                process.wait(15)
            except subprocess.TimeoutExpired:
                process.kill()
