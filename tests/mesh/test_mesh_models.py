"""Models as files people have: a solid turned on a lathe stays one part, a table keeps its legs,
and a figure whose halves were tessellated apart (T-junctions along the seam) segments as if it
were one surface; each checked in the glTF written for it, read back by trimesh."""

from __future__ import annotations

import numpy as np
import pytest
from support.door import open_door, type_line

from napari_talk.core.running.session import Session
from napari_talk.packs.mesh import primitives
from napari_talk.packs.mesh.segmentation import segment

trimesh = pytest.importorskip("trimesh")


def spool_stl() -> bytes:
    """Two flanges on a hub, turned about one axis: concave creases all round the hub."""
    profile = [[0, 0], [1.0, 0], [1.0, 0.15], [0.4, 0.15], [0.4, 0.85], [1.0, 0.85], [1.0, 1.0], [0, 1.0]]
    return trimesh.creation.revolve(np.array(profile, float), sections=64).export(file_type="stl")


def table_stl() -> bytes:
    from support.mesh_shapes import table

    mesh = table()
    return trimesh.Trimesh(mesh.vertices, mesh.faces, process=False).export(file_type="stl")


def body_in_two_patches_stl() -> bytes:
    """The Body with its left half subdivided on its own: along the seam, the right half's edges
    meet two edges each of the left half's, and no vertex is shared at their midpoints."""
    body = primitives.build("Body")
    left = np.flatnonzero(body.face_centers[:, 0] > 0)
    vertices, faces = trimesh.remesh.subdivide(body.vertices, body.faces, face_index=left)
    return trimesh.Trimesh(vertices, faces, process=False).export(file_type="stl")


def _glb_parts(workspace, session: Session) -> int:
    turn = session.run("export the model")
    assert turn.ok, turn.message
    scene = trimesh.load(workspace / turn.results[0].data["glb"])
    return len(scene.geometry)


@pytest.mark.parametrize(
    ("file", "make", "parts"),
    [("spool.stl", spool_stl, 1), ("table.stl", table_stl, 5), ("body.stl", body_in_two_patches_stl, 7)],
)
def test_imported_models_split_into_the_parts_a_person_sees(workspace, file, make, parts):
    (workspace / file).write_bytes(make())
    session = Session(None, workspace=workspace)
    assert session.run(f"import {file}").ok
    segmented = session.run("segment it").results[0]
    assert segmented.data["segments"] == parts
    assert _glb_parts(workspace, session) == parts


def test_the_seam_between_patches_is_crossed_so_every_part_is_named():
    from napari_talk.packs.mesh.importers import import_bytes
    from napari_talk.packs.mesh.naming import part_names
    from napari_talk.packs.mesh.seams import seam_pairs

    mesh = import_bytes(body_in_two_patches_stl(), "body.stl").mesh
    f, g, length = seam_pairs(mesh)
    assert len(f) > 50 and np.all(length > 0)
    assert not np.any(f == g)
    result = segment(mesh)
    names = part_names(mesh, result.labels)
    assert sorted(names) == sorted(
        ("torso", "head", "neck", "left arm", "right arm", "left leg", "right leg")
    )


def test_a_hole_is_not_a_seam():
    """A sphere with a cap cut off: its rim's edges meet end to end only."""
    from napari_talk.packs.mesh.mesh import TriMesh
    from napari_talk.packs.mesh.seams import seam_pairs

    ball = trimesh.creation.icosphere(subdivisions=3)
    kept = ball.triangles_center[:, 2] < 0.7
    mesh = TriMesh(ball.vertices, ball.faces[kept])
    assert len(mesh.edges().boundary()) > 10
    assert len(seam_pairs(mesh)[0]) == 0


@pytest.fixture
def door(make_napari_viewer_proxy, workspace):
    return open_door(make_napari_viewer_proxy, workspace)


def test_through_the_dock_a_spool_is_one_solid_and_says_why(qtbot, door, workspace):
    (workspace / "spool.stl").write_bytes(spool_stl())
    imported = type_line(qtbot, door, "import spool.stl")
    assert imported.kind == "reply" and "spool" in imported.text.lower(), imported.text
    entry = type_line(qtbot, door, "segment it")
    assert "is one part" in entry.text and "machined solid" in entry.text, entry.text
    (workspace / "table.stl").write_bytes(table_stl())
    type_line(qtbot, door, "import table.stl")
    entry = type_line(qtbot, door, "segment it")
    replies = [e for e in door.transcript.entries if e.kind == "reply"]
    assert "into 5 parts" in replies[-1].text, replies[-1].text
    assert entry.kind == "table"
