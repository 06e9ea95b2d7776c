"""A triangle mesh and the geometry every other module of the pack needs, vectorized with numpy.

Coordinates are glTF's: x right, y up, z towards the viewer, right-handed; faces wind
counter-clockwise seen from outside, so their normals point outwards.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np


@dataclass(frozen=True, eq=False)
class TriMesh:
    """Vertices (n, 3) float64 and faces (m, 3) int64; never changed in place once built."""

    vertices: np.ndarray
    faces: np.ndarray
    name: str = "model"
    closed: bool = True
    """Meant to enclose a volume (an open disk is not); glTF then may cull back faces."""
    _cache: dict = field(default_factory=dict, repr=False, compare=False)

    def __post_init__(self) -> None:
        vertices = np.ascontiguousarray(self.vertices, dtype=np.float64).reshape(-1, 3)
        faces = np.ascontiguousarray(self.faces, dtype=np.int64).reshape(-1, 3)
        if faces.size and (faces.min() < 0 or faces.max() >= len(vertices)):
            raise ValueError("a face refers to a vertex that does not exist")
        vertices.setflags(write=False)
        faces.setflags(write=False)
        object.__setattr__(self, "vertices", vertices)
        object.__setattr__(self, "faces", faces)

    def _cached(self, key: str, build):
        if key not in self._cache:
            value = build()
            if isinstance(value, np.ndarray):
                value.setflags(write=False)
            self._cache[key] = value
        return self._cache[key]

    def forget_derived(self, keep: tuple[str, ...] = ("creases",)) -> None:
        """Drop what was computed from the mesh (triangles, normals, edges: several times the
        size of its vertices and faces), but keys starting with ``keep``: a mesh only an undo
        entry still holds costs its arrays, and computes the rest again if it comes back."""
        for key in [k for k in self._cache if not k.startswith(keep)]:
            del self._cache[key]

    @property
    def n_faces(self) -> int:
        return len(self.faces)

    @property
    def triangles(self) -> np.ndarray:
        """(m, 3, 3): the corners of every face."""
        return self._cached("triangles", lambda: self.vertices[self.faces])

    @property
    def face_cross(self) -> np.ndarray:
        tri = self.triangles
        return self._cached("cross", lambda: np.cross(tri[:, 1] - tri[:, 0], tri[:, 2] - tri[:, 0]))

    @property
    def face_areas(self) -> np.ndarray:
        return self._cached("areas", lambda: 0.5 * np.linalg.norm(self.face_cross, axis=1))

    @property
    def face_normals(self) -> np.ndarray:
        def build() -> np.ndarray:
            cross = self.face_cross
            length = np.linalg.norm(cross, axis=1, keepdims=True)
            return cross / np.where(length > 0, length, 1.0)

        return self._cached("normals", build)

    @property
    def face_centers(self) -> np.ndarray:
        return self._cached("centers", lambda: self.triangles.mean(axis=1))

    @property
    def bounds(self) -> np.ndarray:
        """(2, 3): minimum and maximum corner."""
        return np.array([self.vertices.min(axis=0), self.vertices.max(axis=0)])

    @property
    def center(self) -> np.ndarray:
        return self.bounds.mean(axis=0)

    @property
    def area(self) -> float:
        return float(self.face_areas.sum())

    @property
    def volume(self) -> float:
        """Signed volume (divergence theorem): positive when a closed mesh's normals point out."""
        tri = self.triangles
        return float(np.einsum("ij,ij->i", tri[:, 0], np.cross(tri[:, 1], tri[:, 2])).sum() / 6.0)

    def edges(self) -> Edges:
        return self._cached("edges", lambda: Edges.of(self.faces, len(self.vertices)))

    @property
    def is_watertight(self) -> bool:
        """Every edge is shared by exactly two faces that run along it in opposite directions."""
        edges = self.edges()
        return bool(self.n_faces) and edges.all_paired and edges.consistently_wound

    def with_faces(self, faces: np.ndarray, **changes) -> TriMesh:
        return TriMesh(self.vertices, faces, **{"name": self.name, "closed": self.closed, **changes})

    def transformed(self, scale: float = 1.0, offset=(0.0, 0.0, 0.0)) -> TriMesh:
        return TriMesh(self.vertices * scale + np.asarray(offset), self.faces, self.name, self.closed)

    def submesh(self, face_mask: np.ndarray, name: str | None = None) -> TriMesh:
        """The faces selected by ``face_mask`` with only the vertices they use."""
        faces = self.faces[face_mask]
        used, inverse = np.unique(faces, return_inverse=True)
        return TriMesh(self.vertices[used], inverse.reshape(-1, 3), name or self.name, closed=False)


@dataclass(frozen=True, eq=False)
class Edges:
    """The undirected edges of a mesh and which faces share them (the dual graph)."""

    keys: np.ndarray
    """(e, 2) sorted vertex pairs, unique."""
    face_of_half: np.ndarray
    """Face of each half-edge (3 per face, in face order)."""
    edge_of_half: np.ndarray
    """Index into ``keys`` of each half-edge."""
    forward: np.ndarray
    """True where a half-edge runs from the lower vertex index to the higher."""

    @classmethod
    def of(cls, faces: np.ndarray, n_vertices: int) -> Edges:
        a = faces[:, [0, 1, 2]].reshape(-1)
        b = faces[:, [1, 2, 0]].reshape(-1)
        lo, hi = np.minimum(a, b), np.maximum(a, b)
        code = lo * np.int64(n_vertices) + hi
        unique, edge_of_half = np.unique(code, return_inverse=True)
        keys = np.column_stack([unique // n_vertices, unique % n_vertices])
        face_of_half = np.repeat(np.arange(len(faces)), 3)
        return cls(keys, face_of_half, edge_of_half.reshape(-1), a < b)

    @property
    def counts(self) -> np.ndarray:
        return np.bincount(self.edge_of_half, minlength=len(self.keys))

    @property
    def all_paired(self) -> bool:
        return bool(len(self.keys)) and bool(np.all(self.counts == 2))

    @property
    def consistently_wound(self) -> bool:
        """Each shared edge is walked once in each direction by its two faces."""
        forward = np.bincount(self.edge_of_half, weights=self.forward, minlength=len(self.keys))
        return bool(np.all(forward[self.counts == 2] == 1))

    def face_pairs(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(f, g, edge) for every edge shared by exactly two faces: the dual graph's arcs."""
        order = np.argsort(self.edge_of_half, kind="stable")
        counts = self.counts
        starts = np.concatenate([[0], np.cumsum(counts)[:-1]])
        manifold = np.flatnonzero(counts == 2)
        first = order[starts[manifold]]
        second = order[starts[manifold] + 1]
        return self.face_of_half[first], self.face_of_half[second], manifold

    def boundary(self) -> np.ndarray:
        """Edges used by one face only (an open mesh's rim)."""
        return self.keys[self.counts == 1]


def weld(vertices: np.ndarray, faces: np.ndarray, decimals: int = 9) -> tuple[np.ndarray, np.ndarray]:
    """Merge vertices at the same position (after rounding); drop faces that collapse."""
    rounded = np.round(vertices, decimals) + 0.0  # + 0.0 turns -0.0 into 0.0
    _, first, inverse = np.unique(rounded, axis=0, return_index=True, return_inverse=True)
    new_faces = inverse.reshape(-1)[faces]
    keep = (
        (new_faces[:, 0] != new_faces[:, 1])
        & (new_faces[:, 1] != new_faces[:, 2])
        & (new_faces[:, 0] != new_faces[:, 2])
    )
    return vertices[first], new_faces[keep]


def split_by_groups(mesh: TriMesh, groups: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Duplicate vertices shared by faces of different groups, so each group owns its vertices.

    Returns (vertices, faces, source) where ``source`` maps each new vertex to the original one.
    Smooth shading then stays within a group (a cube's faces stay flat, a sphere stays round).
    """
    groups = np.asarray(groups, dtype=np.int64)
    n_groups = int(groups.max()) + 1 if len(groups) else 1
    corner_key = mesh.faces * n_groups + groups[:, None]
    unique, inverse = np.unique(corner_key.reshape(-1), return_inverse=True)
    source = unique // n_groups
    return mesh.vertices[source], inverse.reshape(-1, 3), source


def vertex_normals(vertices: np.ndarray, faces: np.ndarray) -> np.ndarray:
    """Area-weighted vertex normals (unit length; +y where a vertex has no area around it)."""
    tri = vertices[faces]
    cross = np.cross(tri[:, 1] - tri[:, 0], tri[:, 2] - tri[:, 0])
    normals = np.zeros_like(vertices)
    for corner in range(3):
        np.add.at(normals, faces[:, corner], cross)
    length = np.linalg.norm(normals, axis=1, keepdims=True)
    out = np.divide(normals, length, out=np.zeros_like(normals), where=length > 0)
    out[length[:, 0] == 0] = (0.0, 1.0, 0.0)
    return out


def crease_groups(mesh: TriMesh, angle_deg: float) -> np.ndarray:
    """Per face: the smooth patch it belongs to, patches being cut where normals turn more than
    ``angle_deg`` between neighbouring faces. Kept with the mesh (which never changes), so a job
    that computes it off the GUI thread hands it on with the mesh."""

    def build() -> np.ndarray:
        from scipy.sparse import coo_matrix
        from scipy.sparse.csgraph import connected_components

        f, g, _ = mesh.edges().face_pairs()
        normals = mesh.face_normals
        smooth = np.einsum("ij,ij->i", normals[f], normals[g]) >= np.cos(np.radians(angle_deg))
        n = mesh.n_faces
        graph = coo_matrix((np.ones(int(smooth.sum())), (f[smooth], g[smooth])), shape=(n, n))
        return connected_components(graph, directed=False)[1]

    return mesh._cached(f"creases {float(angle_deg)}", build)


def normalized(mesh: TriMesh, size: float = 2.0) -> TriMesh:
    """Centred on its bounding box, its largest side ``size`` long (imported meshes come in any unit)."""
    low, high = mesh.bounds
    extent = float((high - low).max())
    scale = size / extent if extent > 0 else 1.0
    return mesh.transformed(scale, -(low + high) / 2 * scale)


def pick_face(mesh: TriMesh, origin, direction) -> int | None:
    """The first face the line ``origin + t·direction`` meets going along ``direction`` (t may be
    negative: the viewer's cursor point lies somewhere on the ray); None if it meets none."""
    origin = np.asarray(origin, dtype=float)
    direction = np.asarray(direction, dtype=float)
    tri = mesh.triangles
    e1, e2 = tri[:, 1] - tri[:, 0], tri[:, 2] - tri[:, 0]
    p = np.cross(direction, e2)
    det = np.einsum("ij,ij->i", e1, p)
    usable = np.abs(det) > 1e-12
    inv = np.divide(1.0, det, out=np.zeros_like(det), where=usable)
    s = origin - tri[:, 0]
    u = np.einsum("ij,ij->i", s, p) * inv
    q = np.cross(s, e1)
    v = (q @ direction) * inv
    t = np.einsum("ij,ij->i", e2, q) * inv
    hit = usable & (u >= 0) & (v >= 0) & (u + v <= 1)
    if not hit.any():
        return None
    candidates = np.flatnonzero(hit)
    return int(candidates[np.argmin(t[candidates])])
