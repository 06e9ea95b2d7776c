"""The shape diameter of every face: how thick the object is behind it.

CGAL's segmentation casts a cone of rays inwards from each facet and takes how far they go before
they meet the surface again (Shapira et al., 2008). We do the same on the triangles themselves, so
open meshes work as well as closed ones: a ray that leaves through a hole meets nothing and is left
out, instead of the whole solid being lost as when a voxel copy of it cannot be filled.

Casting from all of 100 000 faces is more than a second needs, so the rays start from a sample of
faces spread by area; the other faces take the value of the nearest sampled face along the surface
(Dijkstra on the faces' adjacency). The rays walk a uniform grid of triangle lists together, in
numpy: at every step each ray tests the triangles listed in the cell it is in.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np

from .mesh import TriMesh

SAMPLES = 2000
"""Faces rays are cast from (all of them when the mesh has fewer)."""
CONE_ANGLE = 30.0
"""Degrees between the central ray and the others (CGAL's cone is 120° wide)."""
CONE_RAYS = 6
CELL_EDGES = 1.0
"""Grid cell size in typical triangle edges."""
MEMBERSHIPS_PER_TRIANGLE = 64
"""The grid lists a triangle in this many cells on average at most: beyond, its cells grow."""
PAIR_BATCH = 250_000
"""Ray-triangle pairs tested in one numpy pass (about 250 bytes each while tested)."""
MAX_PAIR_TESTS = 60_000_000
"""Ray-triangle tests one thickness reading may make (a few seconds; ordinary models make under a
million): triangles crowded into one place (every one meeting at a point, or stacked) would make
billions."""


class CrowdedMeshError(ValueError):
    """The triangles crowd together so that reading thickness would test too many of them."""


@dataclass(frozen=True)
class TriangleGrid:
    """Triangles listed per cell of a uniform grid (every cell their bounding box touches)."""

    origin: np.ndarray
    cell: float
    shape: np.ndarray
    starts: np.ndarray
    """(cells + 1,) offsets into ``members``."""
    members: np.ndarray
    packed: np.ndarray
    """(triangles, 9): a corner and the two edges from it, gathered in one go."""

    @classmethod
    def of(cls, triangles: np.ndarray, cell: float) -> TriangleGrid:
        """The grid at ``cell``, coarser (cells doubled) while its lists would pass
        :data:`MEMBERSHIPS_PER_TRIANGLE` a triangle: large slanted triangles each touch many cells."""
        budget = MEMBERSHIPS_PER_TRIANGLE * max(len(triangles), 1)
        while True:
            low = triangles.min(axis=(0, 1)) - 1e-6 * cell
            shape = np.floor((triangles.max(axis=(0, 1)) - low) / cell).astype(np.int64) + 1
            first = np.floor((triangles.min(axis=1) - low) / cell).astype(np.int64)
            last = np.minimum(np.floor((triangles.max(axis=1) - low) / cell).astype(np.int64), shape - 1)
            span = last - first + 1
            counts = span.prod(axis=1)
            if counts.sum() <= budget:
                break
            cell *= 2.0
        owner = np.repeat(np.arange(len(triangles), dtype=np.int64), counts)
        local = np.arange(counts.sum()) - np.repeat(np.cumsum(counts) - counts, counts)
        sy, sz = span[owner, 1], span[owner, 2]
        ix = first[owner, 0] + local // (sy * sz)
        iy = first[owner, 1] + (local // sz) % sy
        iz = first[owner, 2] + local % sz
        cells = (ix * shape[1] + iy) * shape[2] + iz
        order = np.argsort(cells, kind="stable")
        starts = np.concatenate([[0], np.cumsum(np.bincount(cells, minlength=int(shape.prod())))])
        a = triangles[:, 0]
        packed = np.ascontiguousarray(np.concatenate([a, triangles[:, 1] - a, triangles[:, 2] - a], axis=1))
        return cls(low, cell, shape, starts, owner[order], packed)

    def first_hits(self, origins: np.ndarray, directions: np.ndarray, skip: np.ndarray) -> np.ndarray:
        """Distance from each origin along its unit direction to the first triangle other than
        ``skip`` (inf when it meets none): all rays walk the grid cell by cell together
        (Amanatides & Woo), testing the triangles of the cell they are in."""
        n = len(origins)
        best = np.full(n, np.inf)
        shape = self.shape
        q = (origins - self.origin) / self.cell
        index = np.clip(np.floor(q).astype(np.int64), 0, shape - 1)
        sign = np.where(directions >= 0, 1, -1)
        with np.errstate(divide="ignore", invalid="ignore"):
            delta = np.where(directions != 0, self.cell / np.abs(directions), np.inf)
            boundary = (index + (sign > 0)) * self.cell + self.origin
            t_max = np.where(directions != 0, (boundary - origins) / directions, np.inf)
        eps = 1e-9 * self.cell
        rays = np.ascontiguousarray(np.concatenate([origins, directions], axis=1))
        active = np.arange(n)
        tested = 0
        while len(active):
            idx = index[active]
            cells = (idx[:, 0] * shape[1] + idx[:, 1]) * shape[2] + idx[:, 2]
            lo = self.starts[cells]
            counts = self.starts[cells + 1] - lo
            tested += int(counts.sum())
            if tested > MAX_PAIR_TESTS:
                crowd = int((self.starts[1:] - self.starts[:-1]).max())
                raise CrowdedMeshError(
                    f"its triangles crowd together (one cell of space holds {crowd:,} of them), so "
                    f"reading its thickness would make over {MAX_PAIR_TESTS:,} ray tests"
                )
            for part in _batches(counts, PAIR_BATCH):
                self._test(active[part], lo[part], counts[part], rays, skip, best, eps)
            t_cell = t_max[active]
            axis = np.argmin(t_cell, axis=1)
            exit_t = t_cell[np.arange(len(active)), axis]
            going = best[active] > exit_t  # a hit inside this cell is the first
            active, axis = active[going], axis[going]
            index[active, axis] += sign[active, axis]
            t_max[active, axis] += delta[active, axis]
            moved = index[active, axis]
            active = active[(moved >= 0) & (moved < shape[axis])]
        return best

    def _test(
        self, active: np.ndarray, lo: np.ndarray, counts: np.ndarray, rays: np.ndarray,
        skip: np.ndarray, best: np.ndarray, eps: float,
    ) -> None:  # fmt: skip
        """Each of ``active`` rays against the ``counts`` triangles listed from ``lo``; ``best`` lowered."""
        if not counts.any():
            return
        ray = np.repeat(active, counts)
        slot = np.arange(counts.sum()) + np.repeat(lo - (np.cumsum(counts) - counts), counts)
        tri = self.members[slot]
        r, p = rays[ray], self.packed[tri]
        t = _intersect(r[:, :3], r[:, 3:], p[:, :3], p[:, 3:6], p[:, 6:])
        good = (t > eps) & (tri != skip[ray])
        np.minimum.at(best, ray[good], t[good])


def _batches(counts: np.ndarray, size: int) -> list[slice]:
    """Consecutive slices of rays whose pairs add up to about ``size`` (one ray's may be more)."""
    total = np.cumsum(counts)
    if not len(total) or total[-1] <= size:
        return [slice(0, len(counts))]
    cuts = np.searchsorted(total, np.arange(size, total[-1], size), side="right")
    edges = np.unique(np.concatenate([[0], cuts, [len(counts)]]))
    return [slice(int(a), int(b)) for a, b in itertools.pairwise(edges) if b > a]


def _intersect(o, d, a, e1, e2) -> np.ndarray:
    """Möller–Trumbore for pairs of rays and triangles: the ray parameter, inf for a miss."""
    p = _cross(d, e2)
    det = _dot(e1, p)
    ok = np.abs(det) > 1e-15
    inv = np.divide(1.0, det, out=np.zeros_like(det), where=ok)
    s = o - a
    u = _dot(s, p) * inv
    q = _cross(s, e1)
    v = _dot(d, q) * inv
    t = _dot(e2, q) * inv
    hit = ok & (u >= 0) & (v >= 0) & (u + v <= 1)
    return np.where(hit, t, np.inf)


def _cross(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Row-wise cross product (np.cross's general machinery is several times slower)."""
    out = np.empty_like(x)
    out[:, 0] = x[:, 1] * y[:, 2] - x[:, 2] * y[:, 1]
    out[:, 1] = x[:, 2] * y[:, 0] - x[:, 0] * y[:, 2]
    out[:, 2] = x[:, 0] * y[:, 1] - x[:, 1] * y[:, 0]
    return out


def _dot(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    return x[:, 0] * y[:, 0] + x[:, 1] * y[:, 1] + x[:, 2] * y[:, 2]


def _cone(normals: np.ndarray, angle_deg: float, rays: int) -> np.ndarray:
    """(m, 1 + rays, 3) unit directions: the inward normal and a ring around it."""
    inward = -normals
    helper = np.where(np.abs(inward[:, :1]) < 0.9, [[1.0, 0.0, 0.0]], [[0.0, 1.0, 0.0]])
    u = np.cross(inward, helper)
    u /= np.maximum(np.linalg.norm(u, axis=1, keepdims=True), 1e-300)
    v = np.cross(inward, u)
    angle = np.radians(angle_deg)
    turns = np.linspace(0, 2 * np.pi, rays, endpoint=False)
    ring = np.cos(angle) * inward[:, None, :] + np.sin(angle) * (
        np.cos(turns)[None, :, None] * u[:, None, :] + np.sin(turns)[None, :, None] * v[:, None, :]
    )
    return np.concatenate([inward[:, None, :], ring], axis=1)


def sample_faces(mesh: TriMesh, count: int = SAMPLES) -> np.ndarray:
    """About ``count`` faces spread by area (every face when there are fewer), deterministic."""
    if mesh.n_faces <= count:
        return np.arange(mesh.n_faces)
    cumulative = np.cumsum(mesh.face_areas)
    marks = (np.arange(count) + 0.5) / count * cumulative[-1]
    return np.unique(np.searchsorted(cumulative, marks))


def grid_cell(mesh: TriMesh) -> float:
    """A cell about a triangle wide, and no finer than 1/256 of the model."""
    tri = mesh.triangles
    edge = float(np.median(np.linalg.norm(tri[:, 1] - tri[:, 0], axis=1)))
    extent = float((mesh.bounds[1] - mesh.bounds[0]).max()) or 1.0
    return max(CELL_EDGES * edge, extent / 256.0)


def sampled_diameter(mesh: TriMesh, faces: np.ndarray) -> np.ndarray:
    """The shape diameter at ``faces``: the median length of the cone's rays that meet the surface
    (slanted rays scaled by the cosine: they cross a slab of the same depth); NaN where none does."""
    grid = TriangleGrid.of(mesh.triangles, grid_cell(mesh))
    directions = _cone(mesh.face_normals[faces], CONE_ANGLE, CONE_RAYS)
    rays = directions.shape[1]
    origins = np.repeat(mesh.face_centers[faces], rays, axis=0)
    lengths = grid.first_hits(origins, directions.reshape(-1, 3), np.repeat(faces, rays))
    lengths = lengths.reshape(-1, rays)
    lengths[:, 1:] *= np.cos(np.radians(CONE_ANGLE))
    lengths[~np.isfinite(lengths)] = np.nan
    out = np.full(len(faces), np.nan)
    some = ~np.all(np.isnan(lengths), axis=1)
    out[some] = np.nanmedian(lengths[some], axis=1)
    return out


def spread(mesh: TriMesh, faces: np.ndarray, values: np.ndarray) -> np.ndarray:
    """Every face takes the value of the nearest of ``faces`` (by path over the faces' centres);
    faces no sampled face reaches (another piece of the mesh) take the median."""
    from scipy.sparse import coo_matrix
    from scipy.sparse.csgraph import dijkstra

    known = np.isfinite(values)
    n = mesh.n_faces
    if not known.any():
        return np.full(n, np.nan)
    sources = faces[known]
    out = np.full(n, float(np.median(values[known])))
    if len(sources) == n:
        out[sources] = values[known]
        return out
    f, g, _ = mesh.edges().face_pairs()
    centers = mesh.face_centers
    length = np.linalg.norm(centers[f] - centers[g], axis=1) + 1e-12
    graph = coo_matrix((np.concatenate([length, length]), (np.r_[f, g], np.r_[g, f])), shape=(n, n)).tocsr()
    _, _, nearest = dijkstra(graph, directed=False, indices=sources, min_only=True, return_predecessors=True)
    by_face = np.full(n, np.nan)
    by_face[sources] = values[known]
    reached = nearest >= 0
    out[reached] = by_face[nearest[reached]]
    return out


def shape_diameter(mesh: TriMesh, samples: int = SAMPLES) -> np.ndarray:
    """Per face: the shape diameter (world units); NaN everywhere when no ray meets the surface
    again (a flat sheet)."""
    faces = sample_faces(mesh, samples)
    return spread(mesh, faces, sampled_diameter(mesh, faces))
