"""Parametric primitives: watertight where they enclose a volume, wound so normals point out.

Each fits the cube [-1, 1]³ (y up), like Blender's default objects, with enough faces that
segmentation and smooth shading have something to work with.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from .mesh import TriMesh, weld

RADIAL_SEGMENTS = 64


def _oriented(mesh: TriMesh) -> TriMesh:
    """Flip every face if the (closed) mesh encloses a negative volume."""
    return mesh.with_faces(mesh.faces[:, ::-1]) if mesh.volume < 0 else mesh


def revolve(profile: np.ndarray, segments: int = RADIAL_SEGMENTS, name: str = "model") -> TriMesh:
    """Sweep a (radius, y) profile around the y axis; points on the axis become single vertices."""
    profile = np.asarray(profile, dtype=float)
    angles = np.linspace(0.0, 2 * np.pi, segments, endpoint=False)
    radius, height = profile[:, 0:1], profile[:, 1:2]
    vertices = np.stack(
        [
            radius * np.cos(angles),
            np.broadcast_to(height, (len(profile), segments)),
            -radius * np.sin(angles),
        ],
        axis=-1,
    ).reshape(-1, 3)
    ring = np.arange(len(profile) - 1)[:, None] * segments
    j = np.arange(segments)[None, :]
    a, b = ring + j, ring + (j + 1) % segments
    c, d = b + segments, a + segments
    faces = np.concatenate([np.stack([a, b, c], -1).reshape(-1, 3), np.stack([a, c, d], -1).reshape(-1, 3)])
    vertices, faces = weld(vertices, faces)
    return TriMesh(vertices, faces, name)


def _cap(y: float, radius: float, rings: int, top: bool) -> np.ndarray:
    """A flat cap profile from the rim in to the axis (or out, for a bottom cap)."""
    radii = np.linspace(radius, 0.0, rings + 1)
    points = np.column_stack([radii, np.full(rings + 1, y)])
    return points if top else points[::-1]


def sphere(subdivisions: int = 4) -> TriMesh:
    """An icosphere of radius 1: evenly sized faces, no poles."""
    t = (1 + 5**0.5) / 2
    vertices = np.array(
        [
            [-1, t, 0], [1, t, 0], [-1, -t, 0], [1, -t, 0], [0, -1, t], [0, 1, t],
            [0, -1, -t], [0, 1, -t], [t, 0, -1], [t, 0, 1], [-t, 0, -1], [-t, 0, 1],
        ],
        dtype=float,
    )  # fmt: skip
    faces = np.array(
        [
            [0, 11, 5], [0, 5, 1], [0, 1, 7], [0, 7, 10], [0, 10, 11], [1, 5, 9], [5, 11, 4],
            [11, 10, 2], [10, 7, 6], [7, 1, 8], [3, 9, 4], [3, 4, 2], [3, 2, 6], [3, 6, 8],
            [3, 8, 9], [4, 9, 5], [2, 4, 11], [6, 2, 10], [8, 6, 7], [9, 8, 1],
        ]
    )  # fmt: skip
    vertices /= np.linalg.norm(vertices, axis=1, keepdims=True)
    for _ in range(subdivisions):
        a, b, c = faces[:, 0], faces[:, 1], faces[:, 2]
        n = len(vertices)
        m = len(faces)
        mids = np.concatenate(
            [
                (vertices[a] + vertices[b]) / 2,
                (vertices[b] + vertices[c]) / 2,
                (vertices[c] + vertices[a]) / 2,
            ]
        )
        vertices = np.concatenate([vertices, mids / np.linalg.norm(mids, axis=1, keepdims=True)])
        ab, bc, ca = n + np.arange(m), n + m + np.arange(m), n + 2 * m + np.arange(m)
        faces = np.concatenate(
            [np.stack(x, -1) for x in ((a, ab, ca), (b, bc, ab), (c, ca, bc), (ab, bc, ca))]
        )
        vertices, faces = weld(vertices, faces)
    return _oriented(TriMesh(vertices, faces, "Sphere"))


def cube(divisions: int = 10) -> TriMesh:
    """A cube of side 2, each face a grid of ``divisions``² quads."""
    s = np.linspace(-1.0, 1.0, divisions + 1)
    u, v = np.meshgrid(s, s, indexing="ij")
    i = np.arange(divisions)[:, None] * (divisions + 1)
    j = np.arange(divisions)[None, :]
    a, b, c, d = i + j, i + j + 1, i + j + divisions + 2, i + j + divisions + 1
    quad = np.concatenate([np.stack([a, b, c], -1).reshape(-1, 3), np.stack([a, c, d], -1).reshape(-1, 3)])
    vertices: list[np.ndarray] = []
    faces: list[np.ndarray] = []
    for axis in range(3):
        for sign in (-1.0, 1.0):
            points = np.zeros((u.size, 3))
            others = [k for k in range(3) if k != axis]
            points[:, axis] = sign
            points[:, others[0]], points[:, others[1]] = u.ravel(), v.ravel()
            p0, p1, p2 = points[quad[0]]
            local = quad if np.cross(p1 - p0, p2 - p0)[axis] * sign > 0 else quad[:, ::-1]
            grid = local + sum(len(p) for p in vertices)
            vertices.append(points)
            faces.append(grid)
    welded = weld(np.concatenate(vertices), np.concatenate(faces))
    return _oriented(TriMesh(*welded, "Cube"))


def cylinder(rings: int = 8, cap_rings: int = 4) -> TriMesh:
    """Radius 1, height 2, closed by two flat caps."""
    side = np.column_stack([np.ones(rings + 1), np.linspace(-1.0, 1.0, rings + 1)])
    profile = np.concatenate(
        [_cap(-1.0, 1.0, cap_rings, top=False)[:-1], side, _cap(1.0, 1.0, cap_rings, True)[1:]]
    )
    return _oriented(revolve(profile, name="Cylinder"))


def cone(rings: int = 12, cap_rings: int = 4) -> TriMesh:
    """Base radius 1 at y = -1, apex at y = 1, closed by a flat base."""
    t = np.linspace(0.0, 1.0, rings + 1)
    side = np.column_stack([1.0 - t, -1.0 + 2.0 * t])
    profile = np.concatenate([_cap(-1.0, 1.0, cap_rings, top=False)[:-1], side])
    return _oriented(revolve(profile, name="Cone"))


def disk(rings: int = 8) -> TriMesh:
    """A flat open disk of radius 1 in the y = 0 plane, facing +y."""
    mesh = revolve(_cap(0.0, 1.0, rings, top=True), name="Disk")
    if mesh.face_normals[:, 1].mean() < 0:
        mesh = mesh.with_faces(mesh.faces[:, ::-1])
    return TriMesh(mesh.vertices, mesh.faces, "Disk", closed=False)


def torus(major: float = 0.7, minor: float = 0.3, segments: int = 96, tube_segments: int = 48) -> TriMesh:
    """A ring around the y axis: ``major`` to the tube's centre, ``minor`` the tube's radius."""
    u, v = np.meshgrid(
        np.linspace(0.0, 2 * np.pi, segments, endpoint=False),
        np.linspace(0.0, 2 * np.pi, tube_segments, endpoint=False),
        indexing="ij",
    )
    ring = major + minor * np.cos(v)
    vertices = np.stack([ring * np.cos(u), minor * np.sin(v), ring * np.sin(u)], -1).reshape(-1, 3)
    i = np.arange(segments)[:, None]
    j = np.arange(tube_segments)[None, :]
    a = i * tube_segments + j
    b = ((i + 1) % segments) * tube_segments + j
    c = ((i + 1) % segments) * tube_segments + (j + 1) % tube_segments
    d = i * tube_segments + (j + 1) % tube_segments
    faces = np.concatenate([np.stack([a, b, c], -1).reshape(-1, 3), np.stack([a, c, d], -1).reshape(-1, 3)])
    return _oriented(TriMesh(vertices, faces, "Torus"))


def builders() -> dict[str, Callable[[], TriMesh]]:
    from .humanoid import body, head

    return {
        "Sphere": sphere,
        "Cube": cube,
        "Cone": cone,
        "Cylinder": cylinder,
        "Disk": disk,
        "Torus": torus,
        "Head": head,
        "Body": body,
    }


def build(primitive_type: str) -> TriMesh:
    return builders()[primitive_type]()
