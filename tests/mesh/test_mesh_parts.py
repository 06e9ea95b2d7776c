"""Parts of models as people make them: detached buttons join what they sit on, faces written twice
change nothing, names only where the shape gives the evidence, one part said as one part."""

from __future__ import annotations

import numpy as np
import pytest

from napari_talk.core.running.session import Session
from napari_talk.packs.mesh import primitives
from napari_talk.packs.mesh.mesh import TriMesh
from napari_talk.packs.mesh.naming import part_names
from napari_talk.packs.mesh.segmentation import segment

trimesh = pytest.importorskip("trimesh")


def _union(*meshes: trimesh.Trimesh) -> TriMesh:
    """Separate pieces in one mesh, as a file holding them would."""
    joined = trimesh.util.concatenate(meshes)
    return TriMesh(joined.vertices, joined.faces)


def _sphere(radius: float, centre=(0.0, 0.0, 0.0), subdivisions: int = 3) -> trimesh.Trimesh:
    ball = trimesh.creation.icosphere(subdivisions=subdivisions, radius=radius)
    ball.apply_translation(centre)
    return ball


def test_buttons_on_a_cushion_join_it_and_a_second_cushion_stays_a_part():
    buttons = [_sphere(0.05, (np.cos(a) * 0.9, np.sin(a) * 0.9, 0.42), 1) for a in np.linspace(0, 6, 6)]
    cushion = trimesh.creation.cylinder(radius=1.0, height=0.8, sections=48)
    result = segment(_union(cushion, *buttons))
    assert result.count == 1 and result.merged_pieces == 6
    other = cushion.copy()
    other.apply_translation((3.0, 0.0, 0.0))
    two = segment(_union(cushion, other, *buttons))
    assert two.count == 2 and two.merged_pieces == 6
    labels = two.labels
    button_faces = slice(2 * len(cushion.faces), None)
    assert set(labels[button_faces]) == {labels[0]}, "the buttons sit on the first cushion"


def test_a_body_exported_with_every_face_twice_imports_as_the_body(workspace):
    body = primitives.build("Body")
    doubled = trimesh.Trimesh(body.vertices, np.concatenate([body.faces, body.faces[:, ::-1]]), process=False)
    (workspace / "body.stl").write_bytes(doubled.export(file_type="stl"))
    session = Session(None, workspace=workspace)
    imported = session.execute({"action": "import_model", "path": "body.stl"})
    assert imported.ok and imported.data["repair"]["duplicate_faces"] == body.n_faces
    segmented = session.run("segment it").results[0]
    assert segmented.data["segments"] == segment(body).count == 7
    names = {part["name"] for part in segmented.data["parts"]}
    assert {"torso", "head", "left arm", "right arm", "left leg", "right leg"} <= names


def test_a_plate_with_pegs_gets_no_figure_names():
    """Four short pegs mirrored under a plate and one on top: pairs, but no limbs and no head."""
    plate = trimesh.creation.box(extents=(2.0, 0.2, 1.0))
    pegs = []
    for x, z in ((-0.7, -0.3), (0.7, -0.3), (-0.7, 0.3), (0.7, 0.3)):
        peg = trimesh.creation.cylinder(radius=0.15, height=0.3)
        peg.apply_transform(trimesh.transformations.rotation_matrix(np.pi / 2, (1, 0, 0)))
        peg.apply_translation((x, -0.25, z))
        pegs.append(peg)
    knob = _sphere(0.12, (0.0, 0.2, 0.0), 2)
    pieces = [plate, *pegs, knob]
    mesh = _union(*pieces)
    labels = np.repeat(np.arange(len(pieces)), [len(p.faces) for p in pieces])
    assert part_names(mesh, labels) == ("",) * len(pieces)


def test_a_table_with_long_legs_is_named():
    top = trimesh.creation.box(extents=(2.0, 0.1, 1.0))
    legs = []
    for x, z in ((-0.9, -0.4), (0.9, -0.4), (-0.9, 0.4), (0.9, 0.4)):
        leg = trimesh.creation.box(extents=(0.1, 1.0, 0.1))
        leg.apply_translation((x, -0.55, z))
        legs.append(leg)
    mesh = _union(top, *legs)
    labels = np.repeat(np.arange(5), [len(top.faces)] + [len(leg.faces) for leg in legs])
    names = part_names(mesh, labels)
    assert names[0] == "top" and sorted(names[1:]) == [
        "back left leg", "back right leg", "front left leg", "front right leg"
    ]  # fmt: skip


def test_naming_thousands_of_pieces_looks_at_the_largest_only():
    """12,000 one-face parts (a file whose faces all came apart): naming takes the same path as a
    model of a few parts, so its cost stays linear (the benchmark times it)."""
    rng = np.random.default_rng(3)
    corners = rng.normal(size=(12_000, 3, 3))
    mesh = TriMesh(corners.reshape(-1, 3), np.arange(36_000).reshape(-1, 3))
    names = part_names(mesh, np.arange(12_000))
    assert len(names) == 12_000 and not any(names)


def test_a_one_part_model_is_described_as_one_part(workspace):
    session = Session(None, workspace=workspace)
    for line in ("spawn a cube", "segment it"):
        assert session.run(line).ok
    said = session.run("describe the model").results[0].message
    assert "One part." in said and "1 segments" not in said and "1 parts" not in said
    context = " ".join(session.context_lines(["mesh"]))
    assert "1 part" in context and "segment(s)" not in context
