"""Segmentation: parts follow thickness and concave creases, as CGAL's shape-diameter segmentation
and the minima rule have it: a figure's head, torso and each limb apart, a table's legs apart from
its top, a cube, a sphere (noisy or not) and a cylinder whole, open meshes as closed ones."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.sparse import coo_matrix
from scipy.sparse.csgraph import connected_components
from support import mesh_shapes

from napari_talk.packs.mesh import humanoid, primitives, thickness
from napari_talk.packs.mesh.mesh import TriMesh, pick_face
from napari_talk.packs.mesh.naming import part_names
from napari_talk.packs.mesh.segmentation import segment


def _connected(mesh, mask: np.ndarray) -> bool:
    f, g, _ = mesh.edges().face_pairs()
    keep = mask[f] & mask[g]
    n = mesh.n_faces
    graph = coo_matrix((np.ones(keep.sum()), (f[keep], g[keep])), shape=(n, n))
    _, labels = connected_components(graph, directed=False)
    return len(np.unique(labels[mask])) == 1


def _part_at(mesh, result, point, around: int = 20) -> int:
    nearest = np.argsort(np.linalg.norm(mesh.face_centers - point, axis=1))[:around]
    labels = result.labels[nearest]
    assert np.all(labels == labels[0]), f"the surface around {point} is one part"
    return int(labels[0])


# -- the shape diameter ------------------------------------------------------------------------


def test_rays_meet_the_first_triangle_a_brute_force_search_finds():
    """The grid walk against the mesh module's own search over every triangle."""
    mesh = primitives.build("Torus")
    grid = thickness.TriangleGrid.of(mesh.triangles, thickness.grid_cell(mesh))
    rng = np.random.default_rng(3)
    faces = rng.choice(mesh.n_faces, 40, replace=False)
    directions = -mesh.face_normals[faces] + rng.normal(0, 0.3, (40, 3))
    directions /= np.linalg.norm(directions, axis=1, keepdims=True)
    origins = mesh.face_centers[faces] + 1e-7 * directions
    lengths = grid.first_hits(origins, directions, faces)
    for origin, direction, length in zip(origins, directions, lengths, strict=True):
        expected = pick_face(mesh, origin + 1e-6 * direction, direction)
        assert np.isfinite(length)
        hit = origin + length * direction
        assert pick_face(mesh, hit - 1e-4 * direction, direction) == expected


def test_the_shape_diameter_of_a_slab_and_a_sphere_by_hand():
    # the table's top is a slab 0.1 thick: every ray of the cone crosses it, slanted ones
    # scaled by their cosine, so the diameter is the thickness
    table = mesh_shapes.table()
    diameter = thickness.shape_diameter(table)
    top = table.face_normals[:, 1] > 0.99
    top &= table.face_centers[:, 1] > 0.89
    assert np.median(diameter[top]) == pytest.approx(0.1, rel=0.02)
    # a unit sphere: the central ray crosses 2, a ray 30° off crosses 2 cos 30°, scaled by
    # cos 30°: 1.5; the median of 1 central and 6 slanted rays is 1.5
    sphere = primitives.build("Sphere")
    assert np.median(thickness.shape_diameter(sphere)) == pytest.approx(1.5, rel=0.01)


def test_rays_that_leave_through_a_hole_are_left_out_not_counted_as_thin():
    closed, opened = primitives.build("Body"), mesh_shapes.body_with_holes(0.06)
    torso = humanoid.body_landmarks()["torso"]
    near = lambda mesh: np.linalg.norm(mesh.face_centers - torso, axis=1) < 0.25  # noqa: E731
    a = np.median(thickness.shape_diameter(closed)[near(closed)])
    b = np.median(thickness.shape_diameter(opened)[near(opened)])
    assert b == pytest.approx(a, rel=0.1)


# -- parts ------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["Cube", "Sphere", "Torus", "Disk", "Cylinder", "Cone"])
def test_primitives_are_one_part(name):
    """One solid of one thickness, with no concave crease: a cube's sharp edges are convex, and
    convex edges do not divide a shape into parts (CGAL's segmentation gives a cube one part)."""
    assert segment(primitives.build(name)).count == 1


def test_the_body_separates_head_torso_and_each_limb():
    mesh = primitives.build("Body")
    result = segment(mesh)
    assert result.count == 7  # and the neck
    found = {name: _part_at(mesh, result, point) for name, point in humanoid.body_landmarks().items()}
    assert len(set(found.values())) == 6, found
    for part in range(result.count):
        assert _connected(mesh, result.labels == part), "every part is one connected piece"
    # the limbs are thinner than the torso, as the shape diameter says
    torso = np.median(result.thickness[result.labels == found["torso"]])
    for limb in ("left arm", "right arm", "left leg", "right leg"):
        assert np.median(result.thickness[result.labels == found[limb]]) < 0.7 * torso


def test_stub_legs_shorter_than_wide_are_found_from_the_plane_the_body_stands_on():
    """The legs neither narrow to a neck nor meet the body at a crease; the plane under the four
    soles finds them (segmentation.py without the stand gives this body one part)."""
    mesh = mesh_shapes.stub_legged_body()
    result = segment(mesh)
    assert result.count == 5
    legs = {_part_at(mesh, result, (x, y, -0.13)) for x, y in mesh_shapes.LEG_SOLES}
    body = _part_at(mesh, result, (0.0, 0.0, 0.8))
    assert len(legs) == 4 and body not in legs
    for leg in legs:
        inside = result.labels == leg
        assert _connected(mesh, inside)
        extent = np.ptp(mesh.face_centers[inside], axis=0)
        assert extent[2] < extent[0], "shorter than wide"


def test_a_rounded_box_resting_on_a_face_stays_one_part():
    assert segment(mesh_shapes.rounded_box()).count == 1


def test_a_table_splits_into_its_top_and_four_legs_at_the_concave_creases():
    """One thickness (0.1) everywhere, so the minima rule does it: each leg meets the top's
    underside in a closed loop of 90° concave edges. The top's convex edges divide nothing."""
    mesh = mesh_shapes.table()
    result = segment(mesh)
    assert result.count == 5
    centers = mesh.face_centers
    assert len(np.unique(result.labels[centers[:, 1] > 0.8])) == 1, "the top, its rim included"
    legs = {_part_at(mesh, result, (x, 0.4, z), 4) for x in (0.1, 1.9) for z in (0.1, 1.1)}
    assert len(legs) == 4 and 0 not in legs
    areas = np.bincount(result.labels, weights=mesh.face_areas)
    # a leg: four sides 0.1 × 0.8 and its foot 0.1 × 0.1
    assert areas[1:] == pytest.approx([4 * 0.1 * 0.8 + 0.01] * 4)


def test_an_l_bracket_is_one_part_and_a_cup_keeps_its_handle_apart():
    assert segment(mesh_shapes.l_bracket()).count == 1  # its inner crease does not go round a plate
    cup = mesh_shapes.cup()
    result = segment(cup)
    assert result.count == 2
    handle = cup.face_centers[:, 0] > 0.62
    assert np.mean(result.labels[handle] == 1) > 0.9


@pytest.mark.parametrize("seed", [0, 1])
def test_a_sphere_with_five_percent_noise_is_one_part(seed):
    mesh = mesh_shapes.noisy_sphere(5, 0.05, seed)
    assert mesh.n_faces == 20480
    assert segment(mesh).count == 1


@pytest.mark.parametrize("seed", [2, 4])
def test_a_sphere_crumpled_by_noise_in_every_direction_is_one_part(seed):
    """Each vertex moved by a normal deviate of 5 % of the radius along x, y and z: nearly twice
    the edge length at 20,480 faces, so faces fold every way (a crease rule per edge saw parts)."""
    import trimesh

    ico = trimesh.creation.icosphere(subdivisions=5)
    rng = np.random.default_rng(seed)
    mesh = TriMesh(ico.vertices + rng.normal(0, 0.05, ico.vertices.shape), ico.faces)
    assert segment(mesh).count == 1


@pytest.mark.parametrize("radius, holes", [(0.03, 1), (0.06, 3)])
def test_an_open_body_segments_like_the_closed_one(radius, holes):
    closed, opened = primitives.build("Body"), mesh_shapes.body_with_holes(radius, holes)
    assert not opened.is_watertight
    result = segment(opened)
    assert result.count == 7
    found = {name: _part_at(opened, result, point) for name, point in humanoid.body_landmarks().items()}
    assert len(set(found.values())) == 6, found
    # the same faces in the same parts (parts are numbered by area, so compare through the landmarks)
    reference = segment(closed)
    marks = humanoid.body_landmarks().values()
    mapping = {_part_at(closed, reference, p): _part_at(opened, result, p) for p in marks}
    expected = np.array([mapping.get(int(label), -1) for label in reference.labels])
    kept = mesh_shapes.kept_faces(radius, holes)
    assert np.mean(result.labels == expected[kept]) > 0.97


def test_segmentation_is_deterministic_and_numbers_parts_by_area():
    mesh = primitives.build("Body")
    first, second = segment(mesh), segment(mesh)
    assert np.array_equal(first.labels, second.labels)
    areas = np.bincount(first.labels, weights=mesh.face_areas)
    assert np.all(np.diff(areas) <= 1e-12), "segment 1 is the largest"


# -- names ------------------------------------------------------------------------------------


def test_the_body_parts_are_named_by_their_place_and_a_mirrored_body_swaps_left_and_right():
    mesh = primitives.build("Body")
    result = segment(mesh)
    names = part_names(mesh, result.labels)
    marks = humanoid.body_landmarks()
    for name, point in marks.items():
        assert names[_part_at(mesh, result, point)] == name
    assert sorted(n for n in names if n not in marks) == ["neck"]
    # the same figure mirrored left to right (faces rewound to stay outward): geometry, not
    # knowledge of the sample, decides which arm is the left one
    mirrored = TriMesh(mesh.vertices * (-1.0, 1.0, 1.0), mesh.faces[:, ::-1], "mirrored")
    flipped = segment(mirrored)
    names = part_names(mirrored, flipped.labels)
    assert names[_part_at(mirrored, flipped, marks["left arm"] * (-1.0, 1.0, 1.0))] == "right arm"


def test_a_table_is_named_top_and_legs_and_shapes_that_are_neither_keep_numbers_only():
    table = mesh_shapes.table()  # legs at x 0.05-0.15 and 1.85-1.95, z 0.05-0.15 and 1.05-1.15
    result = segment(table)
    names = part_names(table, result.labels)
    assert names[0] == "top"
    assert names[_part_at(table, result, (0.1, 0.4, 1.1), 4)] == "front left leg"
    assert names[_part_at(table, result, (1.9, 0.4, 0.1), 4)] == "back right leg"
    assert len(set(names)) == 5
    cup = mesh_shapes.cup()
    assert part_names(cup, segment(cup).labels) == ("", "")
