"""Shapes with known parts for segmentation tests and ``benchmarks/mesh.py``.

Each is built independently of the segmentation: CAD-like unions as the exact surface of a voxel
solid (flat faces, sharp 90° edges, one watertight surface), a cup by marching cubes, a sphere with
noise, the Body with holes cut in it.
"""

from __future__ import annotations

import json
import struct

import numpy as np

from napari_talk.packs.mesh import humanoid
from napari_talk.packs.mesh.mesh import TriMesh


def voxel_surface(solid: np.ndarray, cell: float, name: str) -> TriMesh:
    """The boundary of a boolean voxel solid: two triangles per exposed voxel side, shared
    vertices welded, wound outwards."""
    occ = np.pad(solid, 1)
    quads = []
    for axis in range(3):
        for sign in (1, -1):
            neighbour = np.roll(occ, -sign, axis=axis)
            exposed = np.argwhere(occ & ~neighbour)
            base = exposed + (np.eye(3, dtype=int)[axis] if sign > 0 else 0)
            u, v = np.eye(3, dtype=int)[(axis + 1) % 3], np.eye(3, dtype=int)[(axis + 2) % 3]
            corners = np.stack([base, base + u, base + u + v, base + v], axis=1)
            quads.append(corners if sign > 0 else corners[:, ::-1])
    corners = np.concatenate(quads)
    points, inverse = np.unique(corners.reshape(-1, 3), axis=0, return_inverse=True)
    q = inverse.reshape(-1, 4)
    faces = np.concatenate([q[:, [0, 1, 2]], q[:, [0, 2, 3]]])
    return TriMesh((points - 1) * cell, faces, name)


def table(cell: float = 0.05) -> TriMesh:
    """A table 2.0 × 0.9 × 1.2: a top 0.1 thick on four legs 0.1 × 0.1 (5 parts)."""
    solid = np.zeros((40, 18, 24), dtype=bool)
    solid[:, 16:18, :] = True
    for x in (1, 37):
        for z in (1, 21):
            solid[x : x + 2, 0:16, z : z + 2] = True
    return voxel_surface(solid, cell, "table")


def l_bracket(cell: float = 0.05) -> TriMesh:
    """Two plates 0.1 thick at a right angle: one thickness, and the inner crease does not go
    round either plate (1 part)."""
    solid = np.zeros((20, 16, 12), dtype=bool)
    solid[:, 0:2, :] = True
    solid[0:2, :, :] = True
    return voxel_surface(solid, cell, "L-bracket")


def cup(spacing: float = 0.02) -> TriMesh:
    """A mug: a thin-walled cup with a bottom, and a handle of thicker round section (2 parts)."""
    outer = humanoid.capsule((0, -0.5, 0), (0, 0.5, 0), 0.5)
    inner = humanoid.capsule((0, -0.5, 0), (0, 1.2, 0), 0.44)

    def cup_field(p: np.ndarray) -> np.ndarray:
        wall = np.maximum(outer(p), -inner(p))
        wall = np.maximum(wall, p[..., 1] - 0.55)  # cut the rim flat
        ring = np.sqrt((np.hypot(p[..., 0] - 0.55, p[..., 1]) - 0.3) ** 2 + p[..., 2] ** 2) - 0.09
        handle = np.maximum(ring, 0.45 - p[..., 0])
        return np.minimum(wall, handle)

    low, high = (-0.6, -1.05, -0.6), (1.0, 0.6, 0.6)
    return humanoid.mesh_from_field(cup_field, low, high, spacing, "cup", smoothing=2)


LEG_SOLES = tuple((x, y) for x in (-0.55, 0.55) for y in (-0.25, 0.25))


def stub_legged_body(spacing: float = 0.035) -> TriMesh:
    """An ellipsoid body 0.6 thick on four round legs 0.36 wide, melted in smoothly (no crease,
    no neck), that stand out of it less than they are wide, as a pig's. Soles at ``LEG_SOLES``
    (x, y), z = -0.13."""
    body = humanoid.ellipsoid((0, 0, 0.5), (1.0, 0.5, 0.3))
    legs = [humanoid.capsule((x, y, 0.3), (x, y, 0.05), 0.18) for x, y in LEG_SOLES]
    field = humanoid.smooth_union(0.15, body, *legs)
    return humanoid.mesh_from_field(field, (-1.1, -0.6, -0.2), (1.1, 0.6, 0.85), spacing, "stub-legged body")


def rounded_box(spacing: float = 0.035) -> TriMesh:
    """A box 1.8 × 1.2 × 0.8 with edges rounded over 0.1, as a CAD solid: one part."""
    half, radius = np.array([0.8, 0.5, 0.3]), 0.1

    def field(p: np.ndarray) -> np.ndarray:
        outside = np.abs(p) - half
        return np.linalg.norm(np.maximum(outside, 0), axis=-1) + np.minimum(outside.max(axis=-1), 0) - radius

    return humanoid.mesh_from_field(field, -half - radius, half + radius, spacing, "rounded box")


def noisy_sphere(subdivisions: int = 5, noise: float = 0.05, seed: int = 0) -> TriMesh:
    """An icosphere (20 480 faces at 5 subdivisions) with each vertex moved radially by a normal
    deviate of ``noise`` × the radius (1 part)."""
    import trimesh

    ico = trimesh.creation.icosphere(subdivisions=subdivisions)
    rng = np.random.default_rng(seed)
    vertices = ico.vertices * (1 + rng.normal(0, noise, len(ico.vertices)))[:, None]
    return TriMesh(vertices, ico.faces, "noisy sphere")


def body_with_holes(radius: float = 0.06, holes: int = 1) -> TriMesh:
    """The Body with round holes cut through its surface: the torso's front first, then the
    back, then the head (7 parts, as closed)."""
    body = humanoid.body()
    return TriMesh(body.vertices, body.faces[kept_faces(radius, holes)], "Body (open)", closed=False)


def kept_faces(radius: float = 0.06, holes: int = 1) -> np.ndarray:
    """Which of the Body's faces :func:`body_with_holes` keeps."""
    body = humanoid.body()
    marks = humanoid.body_landmarks()
    centers = body.face_centers
    targets = [
        marks["torso"] + (0.0, 0.0, 1.0),
        marks["torso"] - (0.0, 0.0, 1.0),
        marks["head"] + (0.0, 0.0, 1.0),
    ][:holes]
    keep = np.ones(body.n_faces, dtype=bool)
    for target in targets:
        nearest = centers[np.argmin(np.linalg.norm(centers - target, axis=1))]
        keep &= np.linalg.norm(centers - nearest, axis=1) > radius
    return keep


def sphere_glb(document_change) -> bytes:
    """A 20,480-face sphere as GLB, its JSON changed by ``document_change(document, binary)``,
    which returns the binary chunk to write."""
    import trimesh

    data = trimesh.creation.icosphere(subdivisions=5).export(file_type="glb")
    (length,) = struct.unpack_from("<I", data, 12)
    document = json.loads(data[20 : 20 + length])
    (stored,) = struct.unpack_from("<I", data, 20 + length)
    binary = document_change(document, data[28 + length : 28 + length + stored])
    text = json.dumps(document).encode()
    text += b" " * (-len(text) % 4)
    body = (
        struct.pack("<II", len(text), 0x4E4F534A)
        + text
        + struct.pack("<II", len(binary), 0x004E4942)
        + binary
    )
    return b"glTF" + struct.pack("<II", 2, 12 + len(body)) + body


def instanced(document, binary: bytes) -> bytes:
    """One node instanced 160,000 times by ``EXT_mesh_gpu_instancing``, its translations in a
    buffer view that really holds them: 3.3 billion faces."""
    copies = 160_000
    document["buffers"][0]["byteLength"] = len(binary) + 12 * copies
    document["bufferViews"].append({"buffer": 0, "byteOffset": len(binary), "byteLength": 12 * copies})
    view = len(document["bufferViews"]) - 1
    document["accessors"].append({"bufferView": view, "componentType": 5126, "count": copies, "type": "VEC3"})
    instancing = {"attributes": {"TRANSLATION": len(document["accessors"]) - 1}}
    document["nodes"] = [{"mesh": 0, "extensions": {"EXT_mesh_gpu_instancing": instancing}}]
    document["scenes"] = [{"nodes": [0]}]
    document["extensionsUsed"] = ["EXT_mesh_gpu_instancing"]
    return binary + bytes(12 * copies)
