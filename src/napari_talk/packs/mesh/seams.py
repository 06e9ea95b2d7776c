"""Seams: open edges that lie along another face's open edge, though they share no vertices.

Models built from separately tessellated patches (many STL exports of NURBS or subdivision
surfaces) meet along seams where one side's vertices do not match the other's (T-junctions), so
welding cannot join them and the faces' adjacency falls apart into patches. Here two open edges
are neighbours when they run along one line and overlap there: the segmentation then walks
across the seam as across a shared edge. A hole's rim is not a seam: its edges meet end to end
only, and the opposite side of the hole is far away.
"""

from __future__ import annotations

import numpy as np
from scipy.spatial import cKDTree

from .mesh import TriMesh

OFF_LINE = 0.1
"""An edge's ends may lie off the other edge's line by this share of the shorter edge."""
OVERLAP = 0.2
"""The two edges overlap along the line by at least this share of the shorter one."""
REACH = 2.0
NEIGHBOURS = 6
"""Candidate pairs: each open edge and the NEIGHBOURS nearest by midpoint, within REACH median
open-edge lengths (a long edge along a seam meets a few short ones)."""


def seam_pairs(mesh: TriMesh) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(f, g, length): faces that meet across a seam, and how long they run together."""
    edges = mesh.edges()
    open_edge = edges.counts == 1
    empty = np.zeros(0, np.int64)
    if open_edge.sum() < 2:
        return empty, empty, np.zeros(0)
    halves = np.flatnonzero(open_edge[edges.edge_of_half])
    keys = edges.keys[edges.edge_of_half[halves]]
    face = edges.face_of_half[halves]
    start, end = mesh.vertices[keys[:, 0]], mesh.vertices[keys[:, 1]]
    length = np.linalg.norm(end - start, axis=1)
    reach = REACH * float(np.median(length))
    middle = (start + end) / 2
    distance, near = cKDTree(middle).query(middle, k=NEIGHBOURS + 1, distance_upper_bound=reach)
    a = np.repeat(np.arange(len(middle)), NEIGHBOURS + 1)
    b = near.reshape(-1)
    keep = np.isfinite(distance.reshape(-1)) & (a < b)  # each pair once, never an edge with itself
    a, b = a[keep], b[keep]
    other = face[a] != face[b]
    a, b = a[other], b[other]
    direction = (end[b] - start[b]) / np.maximum(length[b], 1e-300)[:, None]
    t0 = np.einsum("ij,ij->i", start[a] - start[b], direction)
    t1 = np.einsum("ij,ij->i", end[a] - start[b], direction)
    off0 = np.linalg.norm(start[a] - start[b] - t0[:, None] * direction, axis=1)
    off1 = np.linalg.norm(end[a] - start[b] - t1[:, None] * direction, axis=1)
    overlap = np.minimum(np.maximum(t0, t1), length[b]) - np.maximum(np.minimum(t0, t1), 0.0)
    shorter = np.minimum(length[a], length[b])
    seam = (np.maximum(off0, off1) <= OFF_LINE * shorter) & (overlap >= OVERLAP * shorter)
    return face[a[seam]], face[b[seam]], overlap[seam]
