"""The dock's batches keep their local cluster: the next batch runs on the same, warm worker
processes (their imports and grammar paid once), and a batch that does not keep it closes it."""

from __future__ import annotations

import os

from support.recipe_inputs import small_tiffs

from napari_talk.core.recipes import batch as batches
from napari_talk.core.recipes import cluster as clusters
from napari_talk.core.recipes.item import Item, Options

RECIPE = "auto contrast {layer1}\nset the colormap of {layer1} to magma\n"


def _worker_pids(cluster) -> set[int]:
    from distributed import Client

    with Client(cluster) as client:
        return set(client.run(os.getpid).values())


def test_a_kept_cluster_serves_the_next_batch_on_the_same_workers(workspace):
    small_tiffs(workspace / "data", 3)
    items = [Item(input=f"data/img0{n}.tif") for n in range(3)]
    try:
        first = batches.run_batch(
            RECIPE, items, Options(str(workspace), "batches/a"), workers=1, keep_cluster=True
        )
        cluster = clusters.kept[1]
        pids = _worker_pids(cluster)
        second = batches.run_batch(
            RECIPE, items, Options(str(workspace), "batches/b"), workers=1, keep_cluster=True
        )
        assert clusters.kept[1] is cluster and _worker_pids(cluster) == pids
        assert [r.status for r in first.rows + second.rows] == ["ok"] * 6
        assert os.getpid() not in pids, "the rows ran on the cluster's worker, not here"
    finally:
        kept = clusters.kept.pop(1, None)
        if kept is not None:
            kept.close()


def test_a_batch_that_does_not_keep_its_cluster_closes_it(workspace):
    small_tiffs(workspace / "data", 1)
    done = batches.run_batch(
        RECIPE, [Item(input="data/img00.tif")], Options(str(workspace), "batches/c"), workers=1
    )
    assert done.rows[0].status == "ok"
    assert 1 not in clusters.kept
