"""The nearest-hit search of the rays pack's vector stage on the 1,000-glass scene: through the grid
(``rayoptics/grid.py``) beside the boxes of 16 primitives it replaces there (the baseline, in the
same process, on the same rays), with the two answers compared.

    python benchmarks/rays_nearest.py          # 1,000 rays
    python benchmarks/rays_nearest.py 300

The scene is traced once to record the chunks of rays the search is asked about; each search then
answers all of them. Printed: CPU seconds (the machine may be shared) and rays per second of each,
and whether every answer (object, point, settled or not) is the same.
"""

from __future__ import annotations

import argparse
import math
import time

import numpy as np
from rays_engine import with_rays
from rays_suite import many_glasses

from napari_talk.packs.rays import engine
from napari_talk.packs.rays.rayoptics import vector
from napari_talk.packs.rays.rayoptics.vector import VectorStage
from napari_talk.packs.rays.scene_json import scene_from_dict


def chunks(rays: int) -> list[np.ndarray]:
    """The rows of every chunk the vector stage searches while tracing the scene."""
    asked: list[np.ndarray] = []
    search = VectorStage.nearest

    def recording(stage: VectorStage, rows: np.ndarray) -> tuple[np.ndarray, ...]:
        asked.append(rows.copy())
        return search(stage, rows)

    vector.VectorStage.nearest = recording  # type: ignore[method-assign]
    try:
        engine.trace(with_rays(many_glasses(), rays))
    finally:
        vector.VectorStage.nearest = search  # type: ignore[method-assign]
    return asked


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rays", nargs="?", type=int, default=1000)
    asked = chunks(parser.parse_args().rays)
    scene = engine.simulator_scene(scene_from_dict(many_glasses()))
    stage = VectorStage(scene.objs, scene.settings, math.sqrt(scene.settings.min_len_sq))
    grid = stage.grid
    assert grid is not None
    total = sum(len(rows) for rows in asked)
    shape = f"grid {grid.shape[0]} x {grid.shape[1]}"
    print(f"{len(stage.table):,} primitives, {shape}; {total:,} rays in {len(asked)} chunks")
    answers = {}
    for name, index in (("grid", grid), ("boxes (baseline)", None)):
        stage.grid = index
        started = time.process_time()
        answers[name] = [stage.nearest(rows) for rows in asked]
        cpu = time.process_time() - started
        print(f"{name:<17} {cpu:7.2f} s CPU  {total / cpu:12,.0f} rays/s")
    same = all(
        np.array_equal(a, b, equal_nan=True)
        for ours, theirs in zip(*answers.values(), strict=True)
        for a, b in zip(ours, theirs, strict=True)
    )
    print(f"same answers: {same}")


if __name__ == "__main__":
    main()
