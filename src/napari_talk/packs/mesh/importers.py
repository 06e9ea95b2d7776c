"""Meshes from files: binary glTF (what ComfyUI's SaveGLB writes) and Wavefront OBJ.

An imported mesh is welded (files often split vertices along seams), centred and scaled to the
primitives' size, and turned outward-facing when it is closed but inside out.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from .gltf import GltfError, read_primitives
from .mesh import TriMesh, normalized, weld

SUFFIXES = (".glb", ".obj")
MAX_FACES = 2_000_000


class MeshFileError(ValueError):
    """A mesh file that cannot be used (its message says why)."""


def mesh_from_glb(data: bytes, name: str = "model") -> TriMesh:
    try:
        found, _ = read_primitives(data)
    except (GltfError, KeyError, IndexError, ValueError, TypeError) as exc:
        raise MeshFileError(f"the glTF file cannot be read: {exc}") from None
    vertices, faces, offset = [], [], 0
    for primitive, matrix in found:
        points = primitive.positions @ matrix[:3, :3].T + matrix[:3, 3]
        triangles = primitive.indices[: len(primitive.indices) // 3 * 3].reshape(-1, 3)
        if np.linalg.det(matrix[:3, :3]) < 0:
            triangles = triangles[:, ::-1]  # a mirroring node flips the winding
        vertices.append(points)
        faces.append(triangles + offset)
        offset += len(points)
    if not faces:
        raise MeshFileError("the glTF file holds no triangles")
    return _finish(np.concatenate(vertices), np.concatenate(faces), name)


def mesh_from_obj(text: str, name: str = "model") -> TriMesh:
    vertices: list[list[float]] = []
    faces: list[list[int]] = []
    for number, line in enumerate(text.splitlines(), 1):
        parts = line.split()
        if not parts:
            continue
        try:
            if parts[0] == "v":
                vertices.append([float(v) for v in parts[1:4]])
            elif parts[0] == "f":
                corners = [int(p.split("/")[0]) for p in parts[1:]]
                corners = [c - 1 if c > 0 else len(vertices) + c for c in corners]
                faces += [[corners[0], corners[i], corners[i + 1]] for i in range(1, len(corners) - 1)]
        except ValueError:
            raise MeshFileError(f"line {number} of the OBJ file is not understood: {line[:60]!r}") from None
    if not faces:
        raise MeshFileError("the OBJ file holds no faces")
    return _finish(np.asarray(vertices, float), np.asarray(faces, np.int64), name)


def _finish(vertices: np.ndarray, faces: np.ndarray, name: str) -> TriMesh:
    if len(faces) > MAX_FACES:
        raise MeshFileError(f"the mesh has {len(faces):,} faces; at most {MAX_FACES:,} are supported")
    if faces.min() < 0 or faces.max() >= len(vertices):
        raise MeshFileError("a face refers to a vertex that does not exist")
    if not np.all(np.isfinite(vertices)):
        raise MeshFileError("the mesh has vertices at infinite or undefined positions")
    extent = float(np.ptp(vertices, axis=0).max()) or 1.0
    vertices, faces = weld(vertices, faces, decimals=int(np.clip(6 - np.log10(extent), 3, 12)))
    if not len(faces):
        raise MeshFileError("every face of the mesh is degenerate")
    mesh = TriMesh(vertices, faces, name)
    closed = mesh.is_watertight
    if closed and mesh.volume < 0:
        mesh = mesh.with_faces(mesh.faces[:, ::-1])
    return normalized(TriMesh(mesh.vertices, mesh.faces, name, closed=closed))


def load_mesh(path: Path, name: str | None = None) -> TriMesh:
    suffix = path.suffix.lower()
    name = name or path.stem
    if suffix == ".glb":
        return mesh_from_glb(path.read_bytes(), name)
    if suffix == ".obj":
        return mesh_from_obj(path.read_text("utf-8", errors="replace"), name)
    raise MeshFileError(f"{path.name}: only {', '.join(SUFFIXES)} files can be imported")


def load_bytes(data: bytes, filename: str) -> TriMesh:
    """A mesh from a file's bytes (a ComfyUI download), by the file name's suffix."""
    suffix = Path(filename).suffix.lower()
    name = Path(filename).stem or "model"
    if suffix == ".obj":
        return mesh_from_obj(data.decode("utf-8", errors="replace"), name)
    if suffix in (".glb", "") or data[:4] == b"glTF":
        return mesh_from_glb(data, name)
    raise MeshFileError(f"{filename}: only {', '.join(SUFFIXES)} files can be imported")
