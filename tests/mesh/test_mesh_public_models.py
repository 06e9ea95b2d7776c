"""Public models people have, from the cache ``benchmarks/mesh_models.py --fetch-only`` fills
(CGAL's test meshes, shipped by Debian's libcgal-demo): a fist with its thumb, a camel whose hind
legs meet at the hip, a spool turned on a lathe. Skipped when the cache is empty."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import numpy as np
import pytest
from support.door import open_door, type_line

from napari_talk.core.running.session import Session

trimesh = pytest.importorskip("trimesh")


def _cached(name: str) -> Path:
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    path = base / "napari-talk" / "mesh-models" / "cgal" / "data" / "meshes" / name
    if not path.exists():
        pytest.skip(f"{name} is not cached: run benchmarks/mesh_models.py --fetch-only")
    return path


@pytest.mark.parametrize(
    ("name", "low", "high"), [("camel.off", 6, 8), ("spool.off", 1, 1), ("hand.off", 2, 4)]
)
def test_a_public_model_splits_into_the_parts_a_person_counts(workspace, name, low, high):
    shutil.copy(_cached(name), workspace / name)
    session = Session(None, workspace=workspace)
    assert session.run(f"import {name}").ok
    parts = session.run("segment it").results[0].data["parts"]
    assert low <= len(parts) <= high, [p["area_share"] for p in parts]
    exported = session.run("export the model")
    assert exported.ok, exported.message
    scene = trimesh.load(workspace / exported.results[0].data["glb"])
    assert len(scene.geometry) == len(parts)
    assert sum(len(g.faces) for g in scene.geometry.values()) == session.state("mesh").model.mesh.n_faces


def test_the_camels_hind_legs_are_two_parts():
    """Both hind legs are thin, as the neck is, and meet through thin skin at the hip: one part
    by thickness, split as a fork."""
    from napari_talk.packs.mesh.importers import import_bytes
    from napari_talk.packs.mesh.segmentation import segment

    mesh = import_bytes(_cached("camel.off").read_bytes(), "camel.off").mesh
    result = segment(mesh)
    low = mesh.bounds[0][1] + 0.25 * float(np.ptp(mesh.vertices[:, 1]))
    feet = mesh.face_centers[:, 1] < low
    assert len(set(result.labels[feet])) == 4, "each of the four legs is a part of its own"


def test_a_low_poly_figure_keeps_its_head():
    """Qt 3D's rigged figure (Debian's qt3d5-examples): 256 faces of split quads, as flat as a
    machined part, with a head as large as its torso; the torso is the trunk the others hang
    from, and the head stands out from it."""
    from napari_talk.packs.mesh.importers import import_bytes
    from napari_talk.packs.mesh.segmentation import segment

    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "napari-talk" / "mesh-models"
    path = base / "qt3d/usr/lib/x86_64-linux-gnu/qt5/examples/qt3d/exampleresources/assets/gltf/2.0"
    path = path / "RiggedFigure" / "RiggedFigure.gltf"
    if not path.exists():
        pytest.skip("the rigged figure is not cached: run benchmarks/mesh_models.py --fetch-only")
    glb = trimesh.load(str(path), force="scene").export(file_type="glb")
    mesh = import_bytes(glb, "RiggedFigure.glb").mesh
    result = segment(mesh)
    assert 5 <= result.count <= 7
    top = mesh.face_centers[:, 1] > mesh.bounds[1][1] - 0.15 * float(np.ptp(mesh.vertices[:, 1]))
    head = set(result.labels[top])
    assert len(head) == 1 and not np.any(result.labels[~top & (mesh.face_centers[:, 1] < 0)] == head.pop())


@pytest.fixture
def door(make_napari_viewer_proxy, workspace):
    return open_door(make_napari_viewer_proxy, workspace)


def test_through_the_dock_the_fist_shows_its_thumb(qtbot, door, workspace):
    shutil.copy(_cached("hand.off"), workspace / "hand.off")
    type_line(qtbot, door, "import hand.off")
    entry = type_line(qtbot, door, "segment it")
    assert entry.kind == "table"
    replies = [e for e in door.transcript.entries if e.kind == "reply"]
    assert "into 2 parts" in replies[-1].text, replies[-1].text
    surfaces = [layer for layer in door.viewer.layers if layer.__class__.__name__ == "Surface"]
    assert len(surfaces) == 1
