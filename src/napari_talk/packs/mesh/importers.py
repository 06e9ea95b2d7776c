"""Meshes from files: STL (ASCII and binary), PLY, OFF, OBJ, glTF and GLB, read by trimesh.

Every file's declared sizes are checked first (:mod:`.declared`), so no reader allocates for
more than the limits (:mod:`.limits`). What trimesh reads is then cleaned, and the repair is
counted for the reply: vertices at one position welded (files split them along seams and
per-face normals), faces that collapse or repeat another (exports often write both sides of
every face) dropped. The mesh is centred and scaled to the primitives' size, and turned
outward-facing when it is closed but inside out.
"""

from __future__ import annotations

import io
import itertools
import logging
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from .declared import DeclaredError, check
from .formats import MODEL_SUFFIXES
from .limits import MeshLimits
from .mesh import TriMesh, normalized

SUFFIXES = MODEL_SUFFIXES


class MeshFileError(ValueError):
    """A mesh file that cannot be used (its message says why)."""


@dataclass(frozen=True)
class Repair:
    """What cleaning changed in a file's mesh."""

    welded_vertices: int = 0
    """Vertices merged into another at the same position (or used by no face)."""
    duplicate_faces: int = 0
    degenerate_faces: int = 0
    """Faces with no area: two corners the same, or all three on a line."""

    def __bool__(self) -> bool:
        return bool(self.welded_vertices or self.duplicate_faces or self.degenerate_faces)

    def describe(self) -> str:
        """ "welded 1,204 duplicate vertices, dropped 340 duplicate faces", or "" when clean."""
        said = []
        if self.welded_vertices:
            said.append(f"welded {self.welded_vertices:,} duplicate vertices")
        dropped = [
            f"{count:,} {kind} face{'s' if count != 1 else ''}"
            for count, kind in ((self.duplicate_faces, "duplicate"), (self.degenerate_faces, "degenerate"))
            if count
        ]
        if dropped:
            said.append("dropped " + " and ".join(dropped))
        return ", ".join(said)

    def as_dict(self) -> dict[str, int]:
        return {
            "welded_vertices": self.welded_vertices,
            "duplicate_faces": self.duplicate_faces,
            "degenerate_faces": self.degenerate_faces,
        }


@dataclass(frozen=True, eq=False)
class Imported:
    mesh: TriMesh
    repair: Repair


def kind_of(filename: str, data: bytes = b"") -> str:
    """The format by the file name's suffix (a nameless download that starts like a GLB is one)."""
    suffix = Path(filename).suffix.lower()
    if suffix in SUFFIXES:
        return suffix[1:]
    if data[:4] == b"glTF":
        return "glb"
    raise MeshFileError(f"only {', '.join(SUFFIXES)} files can be imported")


def import_bytes(data: bytes, filename: str, limits: MeshLimits | None = None) -> Imported:
    """A cleaned mesh from a file's bytes, by its name's suffix; the repair says what changed."""
    limits = limits or MeshLimits.current()
    kind = kind_of(filename, data)
    megabytes = -(-len(data) // (1024 * 1024))
    if megabytes > limits.max_file_mb:
        raise MeshFileError(f"the file cannot be imported: {limits.refusal('MB', megabytes, 'max_file_mb')}")
    try:
        check(data, kind, limits)
    except DeclaredError as exc:
        raise MeshFileError(f"the {kind.upper()} file cannot be imported: {exc}") from None
    vertices, faces = _read(data, kind)
    return clean(vertices, faces, Path(filename).stem or "model", limits)


def load_bytes(data: bytes, filename: str) -> TriMesh:
    """:func:`import_bytes` without the repair (a ComfyUI download)."""
    return import_bytes(data, filename).mesh


def load_mesh(path: Path, name: str | None = None) -> TriMesh:
    imported = import_bytes(path.read_bytes(), path.name)
    return imported.mesh if name is None else _renamed(imported.mesh, name)


def _renamed(mesh: TriMesh, name: str) -> TriMesh:
    return TriMesh(mesh.vertices, mesh.faces, name, closed=mesh.closed)


class _NoTracebacks(logging.Filter):
    """trimesh logs some of a file's faults with their traceback (an ASCII STL's unreadable facet
    normals, which it then recomputes): the record keeps its message, never the traceback, so a
    hostile file prints no trace on the person's console."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.exc_info, record.exc_text = None, None
        return True


def _quiet_trimesh() -> None:
    """The filter on each of trimesh's module loggers (a logger's filters see only its own records)."""
    names = [name for name in list(logging.root.manager.loggerDict) if name.split(".")[0] == "trimesh"]
    for name in names:
        found = logging.getLogger(name)
        if not any(isinstance(f, _NoTracebacks) for f in found.filters):
            found.addFilter(_NoTracebacks())


def _read(data: bytes, kind: str) -> tuple[np.ndarray, np.ndarray]:
    import trimesh

    _quiet_trimesh()

    if kind == "gltf" and b'"uri"' in data and b'"uri":"data:' not in data.replace(b" ", b""):
        raise MeshFileError(
            "the glTF file keeps its data in separate files; import the .glb form of it (one file)"
        )
    # only the geometry is kept, so embedded textures are never decoded (a small PNG may
    # unpack to gigabytes of pixels)
    skip = {"skip_materials": True} if kind in ("glb", "gltf") else {}
    if kind == "off":
        data = fan_off_polygons(data)
    try:
        loaded = trimesh.load(
            io.BytesIO(data), file_type=kind, process=False, force="mesh", resolver=_no_files(), **skip
        )
    except MeshFileError:
        raise
    except Exception as exc:  # any reader's failure is the file's: say it, never a traceback
        raise MeshFileError(f"the {kind.upper()} file cannot be read: {exc or type(exc).__name__}") from None
    try:
        vertices = np.asarray(getattr(loaded, "vertices", np.zeros((0, 3))), dtype=np.float64).reshape(-1, 3)
        faces = np.asarray(getattr(loaded, "faces", np.zeros((0, 3))), dtype=np.int64).reshape(-1, 3)
    except (TypeError, ValueError):
        raise MeshFileError(
            f"the {kind.upper()} file holds something other than 3-D points and triangles"
        ) from None
    if not len(faces):
        raise MeshFileError(f"the {kind.upper()} file holds no triangles")
    return vertices, faces


def fan_off_polygons(data: bytes) -> bytes:
    """An OFF file whose faces of more than four corners are written as the triangles they fan out
    to (the face count raised to match). trimesh's OFF reader keeps a face's indices as text and
    cannot split such a polygon (numpy 2 refuses to multiply strings), so a valid file mixing
    triangles and pentagons was refused with numpy's words. The declared sizes, checked before,
    already count each polygon as its triangles. Any other file is returned as it was."""
    lines = data.decode("utf-8", errors="replace").splitlines()
    rows = [(n, line.split("#", 1)[0].split()) for n, line in enumerate(lines)]
    rows = [(n, words) for n, words in rows if words]
    if not rows or not rows[0][1][0].endswith("OFF"):
        return data
    on_header = len(rows[0][1]) > 1  # "OFF 8 6 0", or the counts on a line of their own
    if not on_header and len(rows) < 2:
        return data
    counts_at, counts = (rows[0][0], rows[0][1][1:]) if on_header else rows[1]
    first = 1 if on_header else 2
    try:
        vertices, faces = int(counts[0]), int(counts[1])
    except (IndexError, ValueError):
        return data
    if vertices < 0 or faces < 0:
        return data
    added = 0
    for n, words in rows[first + vertices : first + vertices + faces]:
        size = int(words[0]) if words[0].isdigit() else 0
        corners = words[1 : size + 1]
        if size <= 4 or len(corners) < size:
            continue
        lines[n] = "\n".join(f"3 {corners[0]} {a} {b}" for a, b in itertools.pairwise(corners[1:]))
        added += size - 3
    if not added:
        return data
    head = lines[counts_at].split("#", 1)[0].split()
    head[2 if on_header else 1] = str(faces + added)
    lines[counts_at] = " ".join(head)
    return "\n".join(lines).encode()


def _no_files() -> Any:
    """A trimesh resolver that refuses to open other files (a model may only be the file given)."""
    from trimesh.resolvers import Resolver

    class NoFiles(Resolver):
        def __init__(self) -> None:
            pass

        def get(self, name: str) -> bytes:
            raise MeshFileError(
                f"the file refers to another file ({name[:60]!r}); import a single-file model"
            )

        def namespaced(self, namespace: str) -> NoFiles:
            return self

        def keys(self) -> list[str]:
            return []

        def write(self, name: str, data: str | bytes) -> None:
            raise MeshFileError("a model file may not write files")

    return NoFiles()


def clean(vertices: np.ndarray, faces: np.ndarray, name: str, limits: MeshLimits | None = None) -> Imported:
    """Weld, drop degenerate and repeated faces, orient, centre and scale; count the repair."""
    limits = limits or MeshLimits.current()
    if len(faces) > limits.max_faces:
        refusal = limits.refusal("faces", len(faces), "max_faces")
        raise MeshFileError(f"the mesh cannot be imported: {refusal}")
    if faces.size and (faces.min() < 0 or faces.max() >= len(vertices)):
        raise MeshFileError("a face refers to a vertex that does not exist")
    used = np.unique(faces)
    if not np.all(np.isfinite(vertices[used])):
        raise MeshFileError("the mesh has vertices at infinite or undefined positions")
    extent = float(np.ptp(vertices[used], axis=0).max()) or 1.0
    tolerance = extent * 1e-7
    # only the vertices faces use: an unused one may be anywhere, even at NaN
    quantized = np.round((vertices[used] - vertices[used].min(axis=0)) / tolerance).astype(np.int64)
    _, first, inverse = np.unique(quantized, axis=0, return_index=True, return_inverse=True)
    remap = np.full(len(vertices), -1, dtype=np.int64)
    remap[used] = inverse.reshape(-1)
    welded_vertices = vertices[used[first]]
    faces = remap[faces]

    collapsed = (faces[:, 0] == faces[:, 1]) | (faces[:, 1] == faces[:, 2]) | (faces[:, 0] == faces[:, 2])
    tri = welded_vertices[faces]
    area2 = np.linalg.norm(np.cross(tri[:, 1] - tri[:, 0], tri[:, 2] - tri[:, 0]), axis=1)
    flat = area2 <= (tolerance * extent) * 1e-3
    degenerate = collapsed | flat
    faces = faces[~degenerate]
    _, keep = np.unique(np.sort(faces, axis=1), axis=0, return_index=True)
    keep.sort()
    duplicates = len(faces) - len(keep)
    faces = faces[keep]
    if not len(faces):
        raise MeshFileError("every face of the mesh is degenerate")
    # vertices no face uses any more go too
    still, faces_compact = np.unique(faces, return_inverse=True)
    faces = faces_compact.reshape(-1, 3)
    welded_vertices = welded_vertices[still]
    repair = Repair(
        welded_vertices=len(vertices) - len(welded_vertices),
        duplicate_faces=int(duplicates),
        degenerate_faces=int(degenerate.sum()),
    )
    mesh = TriMesh(welded_vertices, faces, name)
    closed = mesh.is_watertight
    if closed and mesh.volume < 0:
        mesh = mesh.with_faces(mesh.faces[:, ::-1])
    return Imported(normalized(TriMesh(mesh.vertices, mesh.faces, name, closed=closed)), repair)
