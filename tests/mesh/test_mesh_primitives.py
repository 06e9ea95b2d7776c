"""Primitives: closed ones watertight with outward normals, the right size and volume; Head and Body
recognizable by where their features are."""

from __future__ import annotations

import numpy as np
import pytest

from napari_talk.packs.mesh import humanoid, primitives
from napari_talk.packs.mesh.mesh import TriMesh, pick_face

CLOSED = ["Sphere", "Cube", "Cone", "Cylinder", "Torus", "Head", "Body"]
VOLUMES = {
    "Sphere": 4 / 3 * np.pi,
    "Cube": 8.0,
    "Cone": 2 / 3 * np.pi,
    "Cylinder": 2 * np.pi,
    "Torus": 2 * np.pi**2 * 0.7 * 0.3**2,
}


@pytest.mark.parametrize("name", CLOSED)
def test_closed_primitives_are_watertight_and_face_outwards(name):
    mesh = primitives.build(name)
    edges = mesh.edges()
    assert np.all(edges.counts == 2), "every edge is shared by exactly two faces"
    assert edges.consistently_wound, "neighbouring faces walk their shared edge in opposite directions"
    assert mesh.is_watertight
    assert mesh.volume > 0, "a positive enclosed volume means the normals point out"
    assert np.all(mesh.face_areas > 0), "no degenerate faces"
    assert np.all(np.abs(mesh.bounds) <= 1.0 + 1e-9)


@pytest.mark.parametrize("name", sorted(VOLUMES))
def test_parametric_volumes_match_the_formulas(name):
    mesh = primitives.build(name)
    assert mesh.volume == pytest.approx(VOLUMES[name], rel=0.02)


@pytest.mark.parametrize("name", ["Sphere", "Cube", "Cone", "Cylinder"])
def test_every_face_of_a_convex_primitive_points_away_from_its_centre(name):
    mesh = primitives.build(name)
    outward = np.einsum("ij,ij->i", mesh.face_centers - mesh.center, mesh.face_normals)
    assert np.all(outward > 0)


def test_torus_normals_point_away_from_the_tube_axis():
    mesh = primitives.build("Torus")
    centers = mesh.face_centers
    ring = centers.copy()
    ring[:, 1] = 0
    ring = ring / np.linalg.norm(ring, axis=1, keepdims=True) * 0.7
    assert np.all(np.einsum("ij,ij->i", centers - ring, mesh.face_normals) > 0)


def test_the_disk_is_one_flat_open_surface_facing_up():
    mesh = primitives.build("Disk")
    assert not mesh.closed and not mesh.is_watertight
    assert np.allclose(mesh.vertices[:, 1], 0.0)
    assert np.all(mesh.face_normals[:, 1] > 0.999)
    boundary = mesh.edges().boundary()
    assert len(boundary) == primitives.RADIAL_SEGMENTS, "one rim, nothing else open"
    assert mesh.area == pytest.approx(np.pi, rel=0.01)


def test_a_line_through_the_sphere_hits_the_face_nearest_the_eye():
    mesh = primitives.build("Sphere")
    face = pick_face(mesh, origin=(0.0, 0.0, 0.0), direction=(0.0, 0.0, -1.0))
    assert face is not None and mesh.face_centers[face][2] > 0.9, "the cursor point may lie inside"
    assert pick_face(mesh, (5.0, 5.0, 0.0), (0.0, 0.0, -1.0)) is None


def _front_of(mesh: TriMesh, x: float, y: float) -> float:
    """How far forward (+z) the surface reaches near (x, y)."""
    near = (np.abs(mesh.vertices[:, 0] - x) < 0.06) & (np.abs(mesh.vertices[:, 1] - y) < 0.06)
    return float(mesh.vertices[near, 2].max())


def test_the_head_has_a_nose_and_two_ears():
    mesh = primitives.build("Head")
    assert mesh.is_watertight
    # the nose: the frontmost point of the head is on the middle line, and stands out from the cheeks
    tip = mesh.vertices[np.argmax(mesh.vertices[:, 2])]
    assert abs(tip[0]) < 0.05 and -0.3 < tip[1] < 0.3
    assert tip[2] - _front_of(mesh, 0.35, tip[1]) > 0.15
    # the ears: thin flaps sticking out sideways on both sides, around eye height, behind the face
    for side in (1.0, -1.0):
        widest = mesh.vertices[np.argmax(side * mesh.vertices[:, 0])]
        assert side * widest[0] > 0.75
        assert -0.3 < widest[1] < 0.4 and widest[2] < 0.2


def test_the_body_has_a_head_a_torso_two_arms_and_two_legs():
    mesh = primitives.build("Body")
    assert mesh.is_watertight and mesh.n_faces > 10_000
    landmarks = humanoid.body_landmarks()
    for name, point in landmarks.items():
        # each landmark is inside the body: a ray from it leaves through an odd number of faces
        hits = _crossings(mesh, point, np.array([0.0, 0.0, 1.0]))
        assert hits % 2 == 1, f"the {name} landmark is not inside the body"
    assert landmarks["head"][1] > landmarks["torso"][1] > landmarks["left leg"][1]
    assert landmarks["left arm"][0] > 0 > landmarks["right arm"][0]


def _crossings(mesh: TriMesh, origin: np.ndarray, direction: np.ndarray) -> int:
    tri = mesh.triangles
    e1, e2 = tri[:, 1] - tri[:, 0], tri[:, 2] - tri[:, 0]
    p = np.cross(direction, e2)
    det = np.einsum("ij,ij->i", e1, p)
    ok = np.abs(det) > 1e-12
    inv = np.where(ok, 1.0 / np.where(ok, det, 1.0), 0.0)
    s = origin - tri[:, 0]
    u = np.einsum("ij,ij->i", s, p) * inv
    q = np.cross(s, e1)
    v = (q @ direction) * inv
    t = np.einsum("ij,ij->i", e2, q) * inv
    return int(np.sum(ok & (u >= 0) & (v >= 0) & (u + v <= 1) & (t > 0)))
