"""Splitting a mesh into meaningful parts: changes of thickness and concave creases.

After CGAL's shape-diameter-function segmentation, and the minima rule of perception (parts meet
where the surface folds inwards), in numpy and scipy:

1. Thickness: the shape diameter of every face (:mod:`.thickness`, rays on the triangles), its
   logarithm smoothed over neighbouring faces so noise does not count.
2. Levels: the area-weighted distribution of log-thickness is split at its deep valleys only
   (a sphere, all one thickness, has one level; a figure has thin limbs and a thick trunk).
3. Clean-up: an iterated-conditional-modes pass lets every face take the level that suits its
   thickness and its neighbours (CGAL uses a graph cut for this).
4. Concave creases: where neighbouring faces fold inwards by more than ``concave_angle``, and
   their normals averaged over two rings of neighbours still by half of it (noise does not),
   parts may meet: a table's legs meet its top there. Convex edges never divide: a cube is one
   solid.
5. Parts: connected regions of one level not crossing a concave crease; parts under ``min_part``
   of the area join the neighbour they share the longest border with. Faces meet across shared
   edges and across seams between separately tessellated patches (:mod:`.seams`).
6. Machined solids (mostly planes): a part stays apart only where it protrudes from its cut
   (Hoffman and Singh, 1997: protrusion as a factor of a part's salience), as a table's leg or a
   mug's handle; a spool's flanges, a tube cast onto a block and stripes of thickness along
   slivers of triangles are one solid.
7. Sculpted or scanned surfaces: limbs where the body narrows (:mod:`.limbs`, a Reeb graph of
   geodesic distance read with the shape diameter) when nothing else divided the model, and
   otherwise only forks: a part that is mostly two limbs (a pair of legs joined at the hip).
   Then stub legs, too short to narrow, where the body stands on a plane in three or more places
   (:mod:`.stands`).

Everything is vectorized over faces and deterministic: the same mesh always gives the same parts,
numbered by decreasing area.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.sparse import coo_matrix, csr_matrix
from scipy.sparse.csgraph import connected_components

from .limbs import Faces, split_forks, split_limbs
from .mesh import TriMesh
from .seams import seam_pairs
from .stands import split_feet
from .thickness import shape_diameter

CONCAVE_ANGLE = 60.0
AVERAGED_SHARE = 0.5
AVERAGING_ROUNDS = 2
"""Normals are averaged over this many rings of neighbours to tell a crease from noise."""
MIN_PART = 0.01
BANDWIDTH = 0.15
"""Smoothing of the log-thickness histogram (natural-log units)."""
VALLEY_DEPTH = 0.5
"""A valley splits two levels when it is lower than this share of the smaller peak beside it."""
MIN_LEVEL_SHARE = 0.02
"""A level needs this share of the surface area."""
MIN_LEVEL_RATIO = np.log(1.3)
"""Levels whose typical thicknesses differ by less than 30 % are one."""
LIMBS_BELOW = 2
"""Limbs are looked for when thickness levels and creases left fewer parts than this: where they
found limbs already, a second reading only splits hairs (a palm's wrist, a dinosaur's frill), so
only forks are split then."""
MACHINED_SHARE = 0.3
"""A surface this flat (by :func:`_flat_share`) is machined: no limbs are looked for on it, and
its parts (by thickness or creases) stay apart only where they protrude (:func:`_keep_protruding`):
a tube cast onto a block, or stripes of thickness along long slivers of triangles, are one solid."""
PROTRUSION = 1.5
DETACHED_SHARE = 0.02
DETACHED_SIZE = 0.25
"""A detached piece under this share of the surface, and this share of the largest piece's size
across, is a button, a tooth or a rivet: it joins the part it sits on."""


@dataclass(frozen=True, eq=False)
class Segmentation:
    labels: np.ndarray
    """Per face: its part, 0 for the largest part, 1 for the next, ..."""
    thickness: np.ndarray
    """Per face: the smoothed shape diameter (world units; NaN for a sheet no ray crosses)."""
    levels: int
    concave_edges: int = 0
    """How many edges are concave creases (for messages: what divided the mesh)."""
    merged_pieces: int = 0
    """Small detached pieces (buttons, teeth, rivets) joined to the part they sit on."""
    flush_parts: int = 0
    """Parts of a machined solid joined to their neighbour because they do not protrude."""

    @property
    def count(self) -> int:
        return int(self.labels.max()) + 1 if len(self.labels) else 0

    def face_counts(self) -> np.ndarray:
        return np.bincount(self.labels, minlength=self.count)


@dataclass(frozen=True, eq=False)
class _Dual:
    """The faces' adjacency: arcs (f, g) across shared edges, with the edge length."""

    f: np.ndarray
    g: np.ndarray
    length: np.ndarray
    n: int

    def matrix(self, mask: np.ndarray | None = None, weights: np.ndarray | None = None) -> csr_matrix:
        mask = np.ones(len(self.f), dtype=bool) if mask is None else mask
        f, g = self.f[mask], self.g[mask]
        w = np.ones(len(f)) if weights is None else weights[mask]
        rows, cols = np.concatenate([f, g]), np.concatenate([g, f])
        return coo_matrix((np.concatenate([w, w]), (rows, cols)), shape=(self.n, self.n)).tocsr()


def _dual(mesh: TriMesh) -> _Dual:
    edges = mesh.edges()
    f, g, edge = edges.face_pairs()
    keys = edges.keys[edge]
    length = np.linalg.norm(mesh.vertices[keys[:, 0]] - mesh.vertices[keys[:, 1]], axis=1)
    seam_f, seam_g, seam_length = seam_pairs(mesh)
    return _Dual(np.r_[f, seam_f], np.r_[g, seam_g], np.r_[length, seam_length], mesh.n_faces)


def concave_creases(mesh: TriMesh, dual: _Dual, angle: float = CONCAVE_ANGLE) -> np.ndarray:
    """Per arc: True where the surface folds inwards by more than ``angle`` degrees between the two
    faces, and still by more than ``angle`` × AVERAGED_SHARE between their normals averaged over
    two rings of neighbours (area-weighted): a crease runs on, noise does not."""
    normals = mesh.face_normals
    adjacency = dual.matrix()
    averaged = normals * mesh.face_areas[:, None]
    for _ in range(AVERAGING_ROUNDS):
        averaged = averaged + adjacency @ averaged
    averaged /= np.maximum(np.linalg.norm(averaged, axis=1, keepdims=True), 1e-300)
    f, g = dual.f, dual.g
    turn = (np.einsum("ij,ij->i", normals[f], normals[g]) < np.cos(np.radians(angle))) & (
        np.einsum("ij,ij->i", averaged[f], averaged[g]) < np.cos(np.radians(angle * AVERAGED_SHARE))
    )
    # normals that converge across the edge: the surface folds inwards (a valley)
    folds_in = np.einsum("ij,ij->i", normals[g] - normals[f], mesh.face_centers[g] - mesh.face_centers[f]) < 0
    return turn & folds_in


def segment(
    mesh: TriMesh,
    *,
    concave_angle: float = CONCAVE_ANGLE,
    min_part: float = MIN_PART,
) -> Segmentation:
    if mesh.n_faces == 0:
        raise ValueError("the mesh has no faces")
    dual = _dual(mesh)
    areas = mesh.face_areas
    creases = concave_creases(mesh, dual, concave_angle)
    within = dual.matrix(~creases)

    machined = _flat_share(mesh, dual) >= MACHINED_SHARE
    diameter = shape_diameter(mesh)
    if np.all(np.isnan(diameter)):
        log_t = np.zeros(mesh.n_faces)
        thresholds = np.zeros(0)
    else:
        log_t = np.log(np.maximum(np.nan_to_num(diameter, nan=float(np.nanmedian(diameter))), 1e-9))
        log_t = _smooth(log_t, within, areas)
        thresholds = _level_thresholds(log_t, areas)
    levels = np.searchsorted(thresholds, log_t)
    if len(thresholds):
        levels = _icm(levels, log_t, thresholds, within)

    same = ~creases & (levels[dual.f] == levels[dual.g])
    _, parts = connected_components(dual.matrix(same), directed=False)
    pieces, small = _detached_pieces(mesh, areas)
    parts = _merge_small(parts, dual, areas, min_part * areas.sum())
    _, parts = np.unique(parts, return_inverse=True)
    stranded = np.bincount(parts, weights=areas) < min_part * areas.sum()
    if stranded.any() and not stranded.all():  # small parts with no edge to merge across (cracks)
        parts = _join_nearest(mesh, parts, parts, stranded)
    flush = 0
    if machined:
        before = len(np.unique(parts))
        parts = _keep_protruding(mesh, dual, parts, areas)
        flush = before - len(np.unique(parts))
    elif not np.all(np.isnan(diameter)):
        faces = Faces(dual.f, dual.g, mesh.face_centers, areas, np.exp(log_t))
        if parts.max() < LIMBS_BELOW:
            parts = split_limbs(parts, faces, mesh.is_watertight)
        else:
            parts = split_forks(parts, faces)
        parts = split_feet(parts, mesh.vertices, faces)
        parts = _merge_small(parts, dual, areas, min_part * areas.sum())  # a fork's hip
    if small.any():
        parts = _join_nearest(mesh, parts, pieces, small)
    thickness = np.exp(log_t) if not np.all(np.isnan(diameter)) else diameter
    return Segmentation(
        _by_area(parts, areas), thickness, len(thresholds) + 1, int(creases.sum()), int(small.sum()), flush
    )


def _keep_protruding(mesh: TriMesh, dual: _Dual, parts: np.ndarray, areas: np.ndarray) -> np.ndarray:
    """Parts of a machined solid met at concave creases stay apart only where they protrude:
    their farthest face lies at least PROTRUSION times the width of the cut (a loop's length
    over pi; a handle has two) from it, as a table's leg does; a spool's flange or a boss does
    not, and joins the trunk or a larger neighbour, whichever it shares the longest crease with.
    Protrusion is one of the factors of a part's salience in Hoffman and Singh (1997, "Salience
    of visual parts")."""
    for _ in range(64):
        _, parts = np.unique(parts, return_inverse=True)
        if parts.max() == 0:
            return parts
        flat, trunk = _not_protruding(mesh, dual, parts, areas)
        size = np.bincount(parts, weights=areas)
        size[trunk] = np.inf  # parts join towards the trunk: a spool's flanges onto its hub
        joined = _join_neighbours(parts, dual, size, flat, by_part=True)
        if np.array_equal(joined, parts):
            return parts
        parts = joined
    return parts


def _not_protruding(
    mesh: TriMesh, dual: _Dual, parts: np.ndarray, areas: np.ndarray
) -> tuple[np.ndarray, int]:
    """Per part: True where it reaches less than PROTRUSION cut widths from its cut; and the
    trunk, which is never tested."""
    from scipy.spatial import cKDTree

    count = int(parts.max()) + 1
    a, b = parts[dual.f], parts[dual.g]
    cross = a != b
    length = dual.length[cross]
    cut = np.bincount(np.r_[a[cross], b[cross]], weights=np.r_[length, length], minlength=count)
    border = np.zeros(len(parts), dtype=bool)
    border[dual.f[cross]] = border[dual.g[cross]] = True
    # the faces along the cut and their neighbours in the part: one band per loop of the cut
    same = a == b
    band = border.copy()
    band[dual.f[same & border[dual.g]]] = band[dual.g[same & border[dual.f]]] = True
    in_band = same & band[dual.f] & band[dual.g]
    _, band_of = connected_components(dual.matrix(in_band), directed=False)
    band_of = np.where(band, band_of, -1)
    centers = mesh.face_centers
    flat = np.zeros(count, dtype=bool)
    # the trunk: the part with the longest cut (the others hang from it), then the largest
    area = np.bincount(parts, weights=areas, minlength=count)
    trunk = int(np.lexsort((area, np.round(cut / max(float(cut.max()), 1e-300), 6)))[-1])
    for part in range(count):
        if part == trunk or cut[part] == 0:
            continue
        inside = parts == part
        loops = max(len(np.unique(band_of[inside & border])), 1)
        reach, _ = cKDTree(centers[inside & border]).query(centers[inside])
        flat[part] = float(reach.max()) < PROTRUSION * cut[part] / (np.pi * loops)
    return flat, trunk


def _flat_share(mesh: TriMesh, dual: _Dual) -> float:
    """The share of edge length between faces that lie in one plane (within 1°): most of a
    machined part's surface is planes and its cylinders are flat along their axis; a sculpted or
    scanned figure curves almost everywhere. Limbs are looked for on the second only: a CAD part's
    bosses are not arms."""
    normals = mesh.face_normals
    flat = np.einsum("ij,ij->i", normals[dual.f], normals[dual.g]) > np.cos(np.radians(1.0))
    return float(dual.length[flat].sum() / max(dual.length.sum(), 1e-300))


def _detached_pieces(mesh: TriMesh, areas: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per face its piece (faces joined through shared vertices), and per piece whether it is a
    small one sitting on another: under DETACHED_SHARE of the surface and of the largest piece's
    size across, while a larger piece exists."""
    n_vertices = len(mesh.vertices)
    faces = mesh.faces
    rows = np.repeat(np.arange(len(faces)), 3)
    graph = coo_matrix((np.ones(rows.size), (rows, faces.reshape(-1) + len(faces))),
                       shape=(len(faces) + n_vertices,) * 2)  # fmt: skip
    _, labels = connected_components(graph, directed=False)
    _, pieces = np.unique(labels[: len(faces)], return_inverse=True)
    count = int(pieces.max()) + 1
    if count == 1:
        return pieces, np.zeros(1, dtype=bool)
    piece_area = np.bincount(pieces, weights=areas, minlength=count)
    low = np.full((count, 3), np.inf)
    high = np.full((count, 3), -np.inf)
    centers = mesh.face_centers
    np.minimum.at(low, pieces, centers)
    np.maximum.at(high, pieces, centers)
    size = np.linalg.norm(high - low, axis=1)
    largest = int(np.argmax(piece_area))
    small = (piece_area < DETACHED_SHARE * areas.sum()) & (size < DETACHED_SIZE * size[largest])
    small[largest] = False
    return pieces, small


def _join_nearest(mesh: TriMesh, parts: np.ndarray, pieces: np.ndarray, small: np.ndarray) -> np.ndarray:
    """Every face of a small piece takes the part of the nearest face outside the small pieces
    (by the piece's majority: a button joins the cushion it sits on, whole)."""
    from scipy.spatial import cKDTree

    in_small = small[pieces]
    anchors = np.flatnonzero(~in_small)
    tree = cKDTree(mesh.face_centers[anchors])
    _, nearest = tree.query(mesh.face_centers[in_small])
    candidate = parts[anchors[nearest]]
    small_faces = np.flatnonzero(in_small)
    keys = pieces[small_faces].astype(np.int64) * (int(parts.max()) + 1) + candidate
    unique, votes = np.unique(keys, return_counts=True)
    order = np.lexsort((-votes, unique // (int(parts.max()) + 1)))
    piece_of_key = unique[order] // (int(parts.max()) + 1)
    first = np.concatenate([[True], piece_of_key[1:] != piece_of_key[:-1]])
    chosen = np.full(int(pieces.max()) + 1, -1)
    chosen[piece_of_key[first]] = unique[order][first] % (int(parts.max()) + 1)
    joined = parts.copy()
    joined[small_faces] = chosen[pieces[small_faces]]
    return joined


def _smooth(values: np.ndarray, within: csr_matrix, areas: np.ndarray, iterations: int = 8) -> np.ndarray:
    """Area-weighted neighbour averaging that does not cross a concave crease."""
    weights = within.multiply(areas[None, :]).tocsr()
    total = np.asarray(weights.sum(axis=1)).ravel()
    for _ in range(iterations):
        around = weights @ values
        values = np.where(total > 0, 0.5 * values + 0.5 * around / np.maximum(total, 1e-300), values)
    return values


def _level_thresholds(log_t: np.ndarray, areas: np.ndarray, bins: int = 256) -> np.ndarray:
    """Cut points between the deep valleys of the area-weighted log-thickness distribution."""
    low, high = float(log_t.min()), float(log_t.max())
    if high - low < MIN_LEVEL_RATIO:
        return np.zeros(0)
    edges = np.linspace(low, high, bins + 1)
    hist, _ = np.histogram(log_t, bins=edges, weights=areas)
    centers = (edges[:-1] + edges[1:]) / 2
    sigma = BANDWIDTH / (edges[1] - edges[0])
    radius = int(np.ceil(4 * sigma))
    kernel = np.exp(-0.5 * (np.arange(-radius, radius + 1) / sigma) ** 2)
    density = np.convolve(np.pad(hist, radius), kernel, mode="valid")
    density /= density.sum()
    cuts = _valleys(density)
    while True:
        weakest = None
        bounds = [0, *cuts, bins]
        for k, cut in enumerate(cuts):
            left, right = density[bounds[k] : cut], density[cut : bounds[k + 2]]
            shares = (density[bounds[k] : cut].sum(), density[cut : bounds[k + 1 + 1]].sum())
            separation = centers[bounds[k] + int(np.argmax(left))], centers[cut + int(np.argmax(right))]
            depth = density[cut] / min(left.max(), right.max())
            fails = (
                depth > VALLEY_DEPTH
                or min(shares) < MIN_LEVEL_SHARE
                or separation[1] - separation[0] < MIN_LEVEL_RATIO
            )
            if fails and (weakest is None or depth > weakest[1]):
                weakest = (k, depth)
        if weakest is None:
            break
        cuts.pop(weakest[0])
    return np.array([centers[c] for c in cuts])


def _valleys(density: np.ndarray) -> list[int]:
    """Indices of local minima (the lowest bin of each flat bottom)."""
    slope = np.sign(np.diff(density))
    slope[slope == 0] = 1
    return [int(i) + 1 for i in np.flatnonzero((slope[:-1] < 0) & (slope[1:] > 0))]


def _icm(levels, log_t, thresholds, within, iterations: int = 8, coupling: float = 1.2) -> np.ndarray:
    """Iterated conditional modes: each face picks the level minimizing its thickness misfit
    minus ``coupling`` × the share of its neighbours already on that level."""
    k = len(thresholds) + 1
    bounds = np.concatenate([[log_t.min()], thresholds, [log_t.max()]])
    centers = np.array(
        [np.median(log_t[levels == i]) if np.any(levels == i) else bounds[i] for i in range(k)]
    )
    width = max(float(np.min(np.diff(centers))) if k > 1 else 1.0, 1e-6) / 2
    misfit = ((log_t[:, None] - centers[None, :]) / width) ** 2
    degree = np.maximum(np.asarray(within.sum(axis=1)).ravel(), 1)
    for _ in range(iterations):
        onehot = csr_matrix((np.ones(len(levels)), (np.arange(len(levels)), levels)), shape=(len(levels), k))
        share = (within @ onehot).toarray() / degree[:, None]
        new = np.argmin(misfit - coupling * 4 * share, axis=1)
        if np.array_equal(new, levels):
            break
        levels = new
    return levels


def _merge_small(parts: np.ndarray, dual: _Dual, areas: np.ndarray, min_area: float) -> np.ndarray:
    """Parts under ``min_area`` join the neighbour sharing the longest border with them; a part
    only ever joins a larger one, so merges cannot go round in circles."""
    for _ in range(64):
        _, parts = np.unique(parts, return_inverse=True)
        count = int(parts.max()) + 1
        small = np.bincount(parts, weights=areas, minlength=count) < min_area
        if not small.any() or count == 1:
            return parts
        joined = _join_neighbours(parts, dual, areas, small)
        if np.array_equal(joined, parts):
            return parts
        parts = joined
    return parts


def _join_neighbours(
    parts: np.ndarray, dual: _Dual, areas: np.ndarray, joins: np.ndarray, by_part: bool = False
) -> np.ndarray:
    """Each part flagged in ``joins`` takes the label of the larger neighbour it shares the
    longest border with (none larger: it stays); ``parts`` numbered 0..count-1, ``areas`` per
    face (or per part with ``by_part``). Vectorized over the border arcs: a file whose faces all
    came apart has a part per face."""
    count = int(parts.max()) + 1
    part_area = areas if by_part else np.bincount(parts, weights=areas, minlength=count)
    rank = np.argsort(np.argsort(part_area, kind="stable"), kind="stable")  # unique sizes order
    a, b = parts[dual.f], parts[dual.g]
    cross = a != b
    a, b = np.r_[a[cross], b[cross]], np.r_[b[cross], a[cross]]
    length = np.r_[dual.length[cross], dual.length[cross]]
    wanted = joins[a] & (rank[b] > rank[a])
    target = np.arange(count)
    if wanted.any():
        keys, where = np.unique(a[wanted].astype(np.int64) * count + b[wanted], return_inverse=True)
        border = np.bincount(where, weights=length[wanted])
        small, large = keys // count, keys % count
        order = np.lexsort((large, -border, small))  # per small part: longest border, then lowest id
        first = np.r_[True, small[order][1:] != small[order][:-1]]
        target[small[order][first]] = large[order][first]
    for _ in range(count):
        nxt = target[target]
        if np.array_equal(nxt, target):
            break
        target = nxt
    return target[parts]


def _by_area(parts: np.ndarray, areas: np.ndarray) -> np.ndarray:
    """Renumber parts 0, 1, ... by decreasing area (ties: the part holding the lowest face first)."""
    ids, parts = np.unique(parts, return_inverse=True)
    area = np.bincount(parts, weights=areas, minlength=len(ids))
    first_face = np.full(len(ids), len(parts))
    np.minimum.at(first_face, parts, np.arange(len(parts)))
    order = np.lexsort((first_face, -np.round(area, 12)))
    rank = np.empty(len(ids), dtype=np.int64)
    rank[order] = np.arange(len(ids))
    return rank[parts]
