"""Segmentation: a cube's six faces, a sphere whole, a figure's head, torso and each limb apart."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.sparse import coo_matrix
from scipy.sparse.csgraph import connected_components

from napari_talk.packs.mesh import humanoid, primitives
from napari_talk.packs.mesh.segmentation import segment


def _connected(mesh, mask: np.ndarray) -> bool:
    f, g, _ = mesh.edges().face_pairs()
    keep = mask[f] & mask[g]
    n = mesh.n_faces
    graph = coo_matrix((np.ones(keep.sum()), (f[keep], g[keep])), shape=(n, n))
    _, labels = connected_components(graph, directed=False)
    return len(np.unique(labels[mask])) == 1


def test_a_cube_gives_its_six_faces():
    mesh = primitives.build("Cube")
    result = segment(mesh)
    assert result.count == 6
    directions = set()
    for part in range(6):
        normals = mesh.face_normals[result.labels == part]
        assert np.allclose(normals, normals[0]), "a part is one flat side"
        directions.add(tuple(np.round(normals[0]).astype(int)))
    assert len(directions) == 6
    assert np.all(result.face_counts() == mesh.n_faces // 6)


@pytest.mark.parametrize("name", ["Sphere", "Torus", "Disk"])
def test_smooth_even_shapes_stay_one_part(name):
    assert segment(primitives.build(name)).count == 1


def test_a_cylinder_splits_into_side_and_caps_and_a_cone_into_side_and_base():
    cylinder = primitives.build("Cylinder")
    result = segment(cylinder)
    assert result.count == 3
    caps = [p for p in range(3) if np.allclose(np.abs(cylinder.face_normals[result.labels == p][:, 1]), 1)]
    assert len(caps) == 2
    assert segment(primitives.build("Cone")).count == 2


def test_the_body_separates_head_torso_and_each_limb():
    mesh = primitives.build("Body")
    result = segment(mesh)
    found = {}
    for name, point in humanoid.body_landmarks().items():
        nearest = np.argsort(np.linalg.norm(mesh.face_centers - point, axis=1))[:20]
        labels = result.labels[nearest]
        assert np.all(labels == labels[0]), f"the surface around the {name} is one part"
        found[name] = int(labels[0])
    assert len(set(found.values())) == 6, found
    for part in set(found.values()):
        assert _connected(mesh, result.labels == part), "every part is one connected piece"
    # the limbs are thinner than the torso, as the shape diameter says
    torso = np.median(result.thickness[result.labels == found["torso"]])
    for limb in ("left arm", "right arm", "left leg", "right leg"):
        assert np.median(result.thickness[result.labels == found[limb]]) < 0.7 * torso


def test_segmentation_is_deterministic_and_numbers_parts_by_area():
    mesh = primitives.build("Body")
    first, second = segment(mesh), segment(mesh)
    assert np.array_equal(first.labels, second.labels)
    areas = np.bincount(first.labels, weights=mesh.face_areas)
    assert np.all(np.diff(areas) <= 1e-12), "segment 1 is the largest"
