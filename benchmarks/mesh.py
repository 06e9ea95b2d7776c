"""Segmentation of a ~100,000-face figure and its .glb export, each beside a baseline.

    python benchmarks/mesh.py [--spacing 0.0068]

The mesh is the Body primitive's sculpture meshed at a finer grid (about 105,000 faces): a
closed figure whose limbs the segmentation must find. Each figure is the best of three warm
runs. Baselines from the same run: computing the same mesh's face normals (a pass over every
face) and serializing its vertex and index arrays (``tobytes``, what any writer must at least do).
Targets: segmentation under 3 s, export under 0.5 s.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from napari_talk.packs.mesh import humanoid
from napari_talk.packs.mesh.export import glb_bytes
from napari_talk.packs.mesh.materials import match
from napari_talk.packs.mesh.mesh import TriMesh
from napari_talk.packs.mesh.segmentation import segment
from napari_talk.packs.mesh.state import ModelState

SEGMENTATION_TARGET = 3.0
EXPORT_TARGET = 0.5


def best(run, repeat: int = 3) -> tuple[float, object]:
    times, value = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        value = run()
        times.append(time.perf_counter() - start)
    return min(times), value


def figure(spacing: float) -> TriMesh:
    low, high = (-0.56, -1.0, -0.16), (0.56, 0.95, 0.16)
    return humanoid.mesh_from_field(humanoid._body_field(), low, high, spacing, "Body")


def normals_baseline(mesh: TriMesh) -> np.ndarray:
    tri = mesh.vertices[mesh.faces]
    cross = np.cross(tri[:, 1] - tri[:, 0], tri[:, 2] - tri[:, 0])
    return cross / np.linalg.norm(cross, axis=1, keepdims=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--spacing", type=float, default=0.0068, help="grid step of the sculpture (smaller: more faces)"
    )
    args = parser.parse_args()

    mesh = figure(args.spacing)
    print(f"mesh: {mesh.n_faces:,} faces, {len(mesh.vertices):,} vertices, watertight={mesh.is_watertight}")

    base, _ = best(lambda: normals_baseline(TriMesh(mesh.vertices, mesh.faces)))
    seconds, result = best(lambda: segment(TriMesh(mesh.vertices, mesh.faces)))
    verdict = "ok" if seconds < SEGMENTATION_TARGET else "SLOW"
    print(
        f"segmentation: {seconds:.3f} s for {result.count} parts ({mesh.n_faces / seconds:,.0f} faces/s); "
        f"baseline face normals {base * 1000:.1f} ms ({seconds / base:.0f}x); "
        f"target < {SEGMENTATION_TARGET} s: {verdict}"
    )

    state = ModelState(mesh=mesh, labels=result.labels).with_materials(
        {1: match("shiny gold").material, 2: match("glowing blue crystals").material}
    )
    raw, _ = best(lambda: mesh.vertices.astype(np.float32).tobytes() + mesh.faces.astype(np.uint32).tobytes())
    seconds, data = best(lambda: glb_bytes(state))
    verdict = "ok" if seconds < EXPORT_TARGET else "SLOW"
    print(
        f"glb export: {seconds * 1000:.1f} ms for {len(data) / 2**20:.1f} MiB, {result.count} primitives; "
        f"baseline raw arrays {raw * 1000:.1f} ms ({seconds / max(raw, 1e-9):.0f}x); "
        f"target < {EXPORT_TARGET} s: {verdict}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
