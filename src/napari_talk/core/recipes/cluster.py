"""Where a batch's tasks run, and running them there: one Dask fan-out for every batch.

    fan_out(function, payloads, arrived, scheduler="local")

``scheduler`` is ``"local"`` (a ``LocalCluster`` on this machine: one process per core, or
``workers`` of them, one thread each) or an existing scheduler's address (``tcp://host:8786``).
Each payload becomes one task, ``function(*payload)``; ``arrived(index, value)`` is called in this
process as each task ends, in the order they end. A task whose worker dies is run again on another
(``retries``); one that fails on every try arrives as its exception, never as the end of the
fan-out. A recipe's rows (:mod:`.batch`) and the atlas's embedding of an import both run here.
"""

from __future__ import annotations

import logging
import os
import threading
import uuid
from collections.abc import Callable, Sequence
from typing import Any

LOCAL = "local"
IN_PROCESS = "in-process"
SCHEDULER_ENV = "NAPARI_TALK_SCHEDULER"
"""The default scheduler: an existing cluster's address, ``local`` or ``in-process``."""
WORKERS_ENV = "NAPARI_TALK_WORKERS"
"""The default number of a local cluster's worker processes (else one per core)."""

Arrived = Callable[[int, Any], None]
"""``arrived(index, value)``: the task of ``payloads[index]`` ended with ``value`` (or its exception)."""


def scheduler_chosen() -> str | None:
    """The scheduler the person set (``$NAPARI_TALK_SCHEDULER``, ``run --scheduler``), or None."""
    return os.environ.get(SCHEDULER_ENV, "").strip() or None


def is_address(scheduler: str) -> bool:
    """Whether ``scheduler`` names an existing cluster rather than ``local`` or ``in-process``."""
    return scheduler not in (LOCAL, IN_PROCESS)


def local_workers(workers: int | None = None) -> int:
    """How many worker processes a local cluster gets: ``workers``, else ``$NAPARI_TALK_WORKERS``,
    else one per core."""
    if workers:
        return max(int(workers), 1)
    given = os.environ.get(WORKERS_ENV, "").strip()
    if given.isdigit() and int(given) > 0:
        return int(given)
    return max(os.cpu_count() or 1, 1)


def fan_out(
    function: Callable[..., Any],
    payloads: Sequence[tuple[Any, ...]],
    arrived: Arrived,
    *,
    scheduler: str = LOCAL,
    workers: int | None = None,
    stop: Callable[[], bool] = lambda: False,
    keep_cluster: bool = False,
    name: str = "task",
    retries: int = 1,
    ahead_per_worker: int | None = None,
) -> None:
    """Run ``function(*payload)`` for every payload as a Dask task; returns once every task has
    arrived, or as soon as ``stop()`` says so after one arrives (the rest are cancelled).

    ``ahead_per_worker``: at most this many tasks per worker submitted and not yet arrived (large
    payloads go out as workers take them, not all at once); None submits them all.
    ``keep_cluster``: a local cluster stays up for the next fan-out of this process, its workers
    warm."""
    from distributed import as_completed

    client, cluster = client_for(scheduler, workers, keep_cluster)
    try:
        batch = uuid.uuid4().hex[:8]
        pending = iter(enumerate(payloads))
        futures: dict[Any, int] = {}

        def submit_next() -> Any:
            found = next(pending, None)
            if found is None:
                return None
            index, payload = found
            future = client.submit(
                function, *payload, key=f"{name}-{batch}-{index}", pure=False, retries=retries
            )
            futures[future] = index
            return future

        ahead = len(payloads)
        if ahead_per_worker is not None:
            ahead = ahead_per_worker * max(len(client.scheduler_info().get("workers", {})), 1)
        first = [submit_next() for _ in range(ahead)]
        running = as_completed([f for f in first if f is not None])
        for future in running:
            index = futures.pop(future)
            try:
                value = future.result()
            except Exception as exc:  # the task itself failed (its workers killed more than once)
                value = exc
            future.release()
            arrived(index, value)
            if stop():
                client.cancel(list(futures))
                return
            following = submit_next()
            if following is not None:
                running.add(following)
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


kept: dict[int, Any] = {}
"""Local clusters kept up between fan-outs, by their number of workers (``keep_cluster``)."""
_kept_lock = threading.Lock()


def client_for(scheduler: str, workers: int | None, keep: bool = False) -> tuple[Any, Any]:
    """A client, and the cluster to close after the fan-out (None: not this one's to close)."""
    from distributed import Client

    if scheduler != LOCAL:
        return Client(scheduler, timeout="10s"), None
    count = local_workers(workers)
    if not keep:
        cluster = local_cluster(count)
        return Client(cluster), cluster
    with _kept_lock:
        cluster = kept.get(count)
        if cluster is None or getattr(cluster.status, "name", "") != "running":
            cluster = kept[count] = local_cluster(count)
    return Client(cluster), None


def local_cluster(workers: int) -> Any:
    """One process per worker, one thread each: a viewer model, like a sentence model's session,
    is not shared between threads, and two threads in one process would only contend."""
    from distributed import LocalCluster

    return LocalCluster(
        n_workers=workers,
        threads_per_worker=1,
        processes=True,
        dashboard_address=None,
        host="127.0.0.1",
        silence_logs=logging.ERROR,  # its warnings (a worker slow to stop) are not the person's
    )
