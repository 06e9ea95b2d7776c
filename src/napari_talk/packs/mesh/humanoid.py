"""The Head and Body primitives: signed-distance sculptures turned into one watertight mesh.

Each is a smooth union of ellipsoids and (tapered) capsules, sampled on a grid and meshed with
marching cubes (scikit-image), then lightly smoothed. A single closed surface, so segmentation
has to find the parts by shape, as it would on any scanned or generated figure.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

import numpy as np

from .mesh import TriMesh

Field = Callable[[np.ndarray], np.ndarray]
"""Signed distance of points (..., 3): negative inside."""


def ellipsoid(center, radii) -> Field:
    c, r = np.asarray(center, float), np.asarray(radii, float)
    return lambda p: (np.linalg.norm((p - c) / r, axis=-1) - 1.0) * r.min()


def capsule(a, b, radius_a: float, radius_b: float | None = None) -> Field:
    """A capsule from ``a`` to ``b`` whose radius runs linearly from ``radius_a`` to ``radius_b``."""
    a, b = np.asarray(a, float), np.asarray(b, float)
    radius_b = radius_a if radius_b is None else radius_b
    ab = b - a
    length2 = float(ab @ ab)

    def field(p: np.ndarray) -> np.ndarray:
        t = np.clip(((p - a) @ ab) / length2, 0.0, 1.0)
        return np.linalg.norm(p - (a + t[..., None] * ab), axis=-1) - (radius_a + t * (radius_b - radius_a))

    return field


def smooth_union(k: float, *fields: Field) -> Field:
    """Polynomial smooth minimum: shapes melt into each other over about ``k``."""

    def field(p: np.ndarray) -> np.ndarray:
        d = fields[0](p)
        for other in fields[1:]:
            e = other(p)
            h = np.clip(0.5 + 0.5 * (e - d) / k, 0.0, 1.0)
            d = e + (d - e) * h - k * h * (1.0 - h)
        return d

    return field


def smooth_subtract(k: float, base: Field, cut: Field) -> Field:
    def field(p: np.ndarray) -> np.ndarray:
        d, e = base(p), -cut(p)
        h = np.clip(0.5 - 0.5 * (e - d) / k, 0.0, 1.0)
        return e + (d - e) * h + k * h * (1.0 - h)

    return field


def mesh_from_field(field: Field, low, high, spacing: float, name: str, smoothing: int = 6) -> TriMesh:
    """Marching cubes on the zero level of ``field`` over the box [low, high]."""
    from skimage.measure import marching_cubes

    low, high = np.asarray(low, float), np.asarray(high, float)
    axes = [np.arange(lo - spacing, hi + 2 * spacing, spacing) for lo, hi in zip(low, high, strict=True)]
    grid = np.stack(np.meshgrid(*axes, indexing="ij"), axis=-1)
    values = field(grid)
    values[0], values[-1], values[:, 0], values[:, -1], values[:, :, 0], values[:, :, -1] = (1.0,) * 6
    vertices, faces, _, _ = marching_cubes(values, level=0.0, spacing=(spacing,) * 3)
    mesh = TriMesh(vertices + np.array([a[0] for a in axes]), faces, name)
    mesh = _clean(mesh)
    mesh = TriMesh(taubin(mesh.vertices, mesh.faces, smoothing), mesh.faces, name)
    return mesh.with_faces(mesh.faces[:, ::-1]) if mesh.volume < 0 else mesh


def _clean(mesh: TriMesh) -> TriMesh:
    """Drop faces with a repeated vertex and vertices no face uses."""
    f = mesh.faces
    keep = (f[:, 0] != f[:, 1]) & (f[:, 1] != f[:, 2]) & (f[:, 0] != f[:, 2])
    used, inverse = np.unique(f[keep], return_inverse=True)
    return TriMesh(mesh.vertices[used], inverse.reshape(-1, 3), mesh.name)


def taubin(vertices: np.ndarray, faces: np.ndarray, iterations: int, lam=0.5, mu=-0.53) -> np.ndarray:
    """Taubin λ|μ smoothing: removes marching-cubes stair steps without shrinking the shape."""
    from scipy.sparse import coo_matrix, diags

    if iterations <= 0:
        return vertices
    n = len(vertices)
    rows = faces[:, [0, 1, 2, 1, 2, 0]].reshape(-1)
    cols = faces[:, [1, 2, 0, 0, 1, 2]].reshape(-1)
    adjacency = coo_matrix((np.ones(len(rows)), (rows, cols)), shape=(n, n)).tocsr()
    adjacency.data[:] = 1.0
    degree = np.asarray(adjacency.sum(axis=1)).ravel()
    average = diags(1.0 / np.maximum(degree, 1)) @ adjacency
    v = vertices.copy()
    for _ in range(iterations):
        v = v + lam * (average @ v - v)
        v = v + mu * (average @ v - v)
    return v


def _fit(mesh: TriMesh, height: float = 2.0) -> tuple[TriMesh, float, np.ndarray]:
    """Scaled to ``height`` along y and centred in its bounding box; also the scale and offset."""
    low, high = mesh.bounds
    scale = height / (high[1] - low[1])
    offset = -(low + high) / 2 * scale
    return TriMesh(mesh.vertices * scale + offset, mesh.faces, mesh.name), scale, offset


_BODY_PARTS = {
    "head": (0.0, 0.80, 0.0),
    "torso": (0.0, 0.30, 0.0),
    "left arm": (0.40, 0.17, 0.01),
    "right arm": (-0.40, 0.17, 0.01),
    "left leg": (0.115, -0.55, 0.0),
    "right leg": (-0.115, -0.55, 0.0),
}


def body_landmarks() -> dict[str, np.ndarray]:
    """A point inside each part of the Body mesh (the figure's left is +x): what tests probe."""
    _, scale, offset = _body()
    return {name: np.asarray(point) * scale + offset for name, point in _BODY_PARTS.items()}


def _body_field() -> Field:
    head = smooth_union(
        0.03,
        ellipsoid((0.0, 0.80, 0.0), (0.105, 0.13, 0.115)),
        ellipsoid((0.0, 0.74, 0.035), (0.07, 0.06, 0.07)),  # jaw
        capsule((0.0, 0.57, -0.01), (0.0, 0.70, -0.01), 0.045),  # neck
    )
    torso = smooth_union(
        0.08,
        ellipsoid((0.0, 0.40, 0.0), (0.19, 0.17, 0.11)),  # chest
        ellipsoid((0.0, 0.17, 0.0), (0.15, 0.16, 0.095)),  # waist
        ellipsoid((0.0, 0.0, 0.0), (0.17, 0.12, 0.105)),  # pelvis
        capsule((-0.16, 0.50, 0.0), (0.16, 0.50, 0.0), 0.07),  # shoulders
    )
    limbs = []
    for side in (1.0, -1.0):
        limbs += [
            capsule((side * 0.20, 0.51, 0.0), (side * 0.34, 0.27, 0.0), 0.05, 0.042),  # upper arm
            capsule((side * 0.34, 0.27, 0.0), (side * 0.46, 0.04, 0.02), 0.042, 0.034),  # forearm
            ellipsoid((side * 0.49, -0.03, 0.025), (0.035, 0.06, 0.025)),  # hand
            capsule((side * 0.095, -0.04, 0.0), (side * 0.115, -0.48, 0.0), 0.072, 0.05),  # thigh
            capsule((side * 0.115, -0.48, 0.0), (side * 0.125, -0.90, -0.01), 0.05, 0.038),  # shin
            capsule((side * 0.125, -0.93, -0.02), (side * 0.13, -0.95, 0.10), 0.035, 0.03),  # foot
        ]
    arms_legs = [smooth_union(0.02, *limbs[i : i + 3]) for i in range(0, len(limbs), 3)]
    return smooth_union(0.03, torso, head, *arms_legs)


@lru_cache(maxsize=1)
def _body() -> tuple[TriMesh, float, np.ndarray]:
    return _fit(mesh_from_field(_body_field(), (-0.56, -1.0, -0.16), (0.56, 0.95, 0.16), 0.012, "Body"))


def body() -> TriMesh:
    """A standing humanoid (A-pose): head, neck, torso, two arms with hands, two legs with feet."""
    return _body()[0]


def _head_field() -> Field:
    skull = smooth_union(
        0.12,
        ellipsoid((0.0, 0.12, -0.05), (0.72, 0.86, 0.82)),
        ellipsoid((0.0, -0.32, 0.16), (0.52, 0.46, 0.58)),  # jaw
        ellipsoid((0.0, -0.62, 0.42), (0.2, 0.14, 0.16)),  # chin
    )
    face = smooth_union(
        0.1,
        skull,
        capsule((-0.4, 0.34, 0.6), (0.4, 0.34, 0.6), 0.07),  # brow ridge
        ellipsoid((0.0, -0.1, 0.5), (0.5, 0.3, 0.3)),  # cheeks
    )
    face = smooth_union(
        0.05,
        face,
        capsule((0.0, 0.2, 0.74), (0.0, -0.1, 0.9), 0.055, 0.085),  # nose bridge to tip
        ellipsoid((0.0, -0.14, 0.84), (0.13, 0.065, 0.08)),  # nostrils
        capsule((-0.15, -0.36, 0.71), (0.15, -0.36, 0.71), 0.045),  # upper lip
        capsule((-0.13, -0.45, 0.68), (0.13, -0.45, 0.68), 0.045),  # lower lip
        capsule((0.0, -0.55, -0.12), (0.0, -1.1, -0.12), 0.36),  # neck
    )
    for side in (1.0, -1.0):
        face = smooth_subtract(0.04, face, ellipsoid((side * 0.28, 0.17, 0.8), (0.14, 0.08, 0.14)))
        face = smooth_union(0.02, face, ellipsoid((side * 0.28, 0.16, 0.64), (0.075, 0.06, 0.075)))  # eye
        ear = smooth_union(
            0.03,
            ellipsoid((side * 0.78, 0.08, -0.08), (0.06, 0.24, 0.15)),
            ellipsoid((side * 0.72, -0.08, -0.02), (0.06, 0.1, 0.08)),  # lobe and tragus
        )
        face = smooth_union(0.04, face, ear)
    return face


@lru_cache(maxsize=1)
def _head() -> TriMesh:
    mesh = mesh_from_field(_head_field(), (-0.95, -1.05, -0.95), (0.95, 1.0, 1.1), 0.028, "Head")
    return _fit(mesh)[0]


def head() -> TriMesh:
    """A human head on a neck: skull, jaw, brow, eyes in their sockets, nose, lips, two ears."""
    return _head()
