"""How a scene is traced: by the ray-optics simulator (``rayoptics``), the one engine of the pack.

The scene is written as the ray-optics JSON it saves to and read by the simulator's loader, so
every kind the simulator supports is traced as ray-optics traces it (blockers, curved mirrors,
gratings, GRIN glass, modules...). Light sources the scene model holds emit the rays the model
gives them (its exact ray counts); the simulator traces them. Each traced segment is recorded
with its lineage, and turned into the :class:`Segments` the queries read: which glass edge or
element a segment ends on, and how it was born (reflected, refracted, totally reflected).
Detectors answer from the simulator's own bins.
"""

from __future__ import annotations

import time
import uuid
from typing import Any

import numpy as np
from scipy.spatial import cKDTree

from .analysis import DetectorReading
from .rayoptics.base import Emitted, SceneError, SceneObj, Settings
from .rayoptics.loader import load_dict
from .rayoptics.simulator import BudgetExceeded, Recorder, simulate
from .scene import Mirror, Scene
from .scene_json import scene_to_dict
from .simulation import REFLECT, REFRACT, SOURCE, TIR, Segments, SimulationResult

DEFAULT_MAX_SEGMENTS = 2_000_000
FEW_EDGES = 32
"""Glasses with at most this many edges find a hit's edge by testing them all."""
NEAREST_MIDDLES = 4
"""Nearest edge middles looked at first for each point (a point needing more searches a ball)."""


class _Emitted(SceneObj):
    """A light source of the scene model: emits the rays the model gives it."""

    type = "emitted"

    def __init__(self, settings: Settings, source: Any) -> None:
        self.settings, self.name, self.props, self.source = settings, "", {}, source

    def start(self) -> tuple[Emitted, float]:
        origins, directions, brightness = (np.asarray(a, dtype=float) for a in self.source.emit())
        wl = float(self.source.wavelength) if self.settings.simulate_colors else None
        x, y = origins[:, 0], origins[:, 1]
        half = brightness / 2
        gap = np.arange(len(x)) == 0
        return Emitted(x, y, x + directions[:, 0], y + directions[:, 1], half, half.copy(), wl, gap), 0.0


def trace(
    scene: Scene, *, max_segments: int = DEFAULT_MAX_SEGMENTS, ray_by_ray: bool = False
) -> SimulationResult:
    """Trace ``scene``; a scene the simulator cannot build or that needs more segments than
    ``max_segments`` raises ValueError with the reason. ``ray_by_ray`` traces every ray by the
    objects' own methods (the same segments, slowly: the baseline of the benchmarks)."""
    started = time.perf_counter()
    document = scene_to_dict(scene)
    n_glass, n_source = len(scene.glasses), len(scene.sources)
    document["objs"] = document["objs"][:n_glass] + document["objs"][n_glass + n_source :]
    try:
        loaded = load_dict(document, scene.name)
    except SceneError as exc:
        raise ValueError(str(exc)) from None
    origins = [o if o < n_glass else o + n_source for o in loaded.origins]
    first = next((k for k, o in enumerate(origins) if o >= n_glass), len(origins))
    emitted = [_Emitted(loaded.settings, source) for source in scene.sources]
    objs = loaded.objs[:first] + emitted + loaded.objs[first:]
    origins = origins[:first] + list(range(n_glass, n_glass + n_source)) + origins[first:]
    record = Recorder()
    try:
        outcome = simulate(
            objs,
            loaded.settings,
            max_depth=loaded.max_depth,
            budget=max_segments,
            ray_limit=loaded.ray_limit,
            record=record,
            vector=not ray_by_ray,
        )
    except BudgetExceeded as exc:
        raise ValueError(str(exc)) from None
    segments = _segments(scene, objs, origins, record)
    readings = {}
    n_element = len(scene.elements)
    for obj, origin in zip(objs, origins, strict=True):
        index = origin - n_glass - n_source - n_element
        if obj.type == "Detector" and 0 <= index < len(scene.detectors):
            readings[index] = _reading(obj)
    warnings = [*scene.warnings, *loaded.warnings, *outcome.warnings]
    summary = _summary(scene, segments, warnings, outcome.notes)
    summary["trace_seconds"] = round(time.perf_counter() - started, 6)
    return SimulationResult(scene.name, segments, summary, readings)


def _reading(detector: Any) -> DetectorReading:
    size = float(detector.binSize)
    bins = detector.bins if detector.bins is not None else [0.0] * detector.bin_count
    return DetectorReading(
        positions=[i * size for i in range(len(bins))],
        irradiance=[float(v) / size for v in bins],
        bin_size=size,
        power=float(detector.power),
    )


def _segments(scene: Scene, objs: list[SceneObj], origins: list[int], record: Recorder) -> Segments:
    rows = record.table()
    p1, ahead, hit = rows[:, 0:2], rows[:, 2:4] - rows[:, 0:2], rows[:, 4:6]
    obj = rows[:, 10].astype(np.int64)
    parent = rows[:, 11].astype(np.int64)
    n = len(rows)
    n_glass, n_source = len(scene.glasses), len(scene.sources)
    origin = np.asarray(origins, dtype=np.int64)
    escaped = obj < 0
    end_origin = np.where(escaped, -1, origin[np.maximum(obj, 0)] if len(origin) else -1)
    on_glass = ~escaped & (end_origin < n_glass)
    element = end_origin - n_glass - n_source
    end_glass = np.where(escaped, -1, np.where(on_glass, end_origin, -2)).astype(np.int32)
    end_edge = np.where(on_glass, 0, np.where(~escaped & (element < len(scene.elements)), element, -1))
    length = np.hypot(ahead[:, 0], ahead[:, 1])
    with np.errstate(invalid="ignore", divide="ignore"):
        unit = ahead / length[:, None]
    del ahead, length  # the trace's peak memory is here: drop what is no longer needed
    p2 = np.where(escaped[:, None], p1 + unit * scene.scale, hit)
    normals = np.full((n, 2), np.nan)
    by_glass = np.argsort(end_glass, kind="stable")
    cuts = np.searchsorted(end_glass[by_glass], np.arange(len(scene.glasses) + 1))
    for g, glass in enumerate(scene.glasses):
        here = by_glass[cuts[g] : cuts[g + 1]]
        if len(here):
            edge = _nearest_edge(hit[here], glass.starts, glass.ends)
            end_edge[here] = edge
            normals[here] = glass.outward_normals[edge]
    for e, item in enumerate(scene.elements):
        here = np.flatnonzero((end_glass == -2) & (end_edge == e))
        (ax, ay), (bx, by) = item.p1, item.p2
        normals[here] = (by - ay, ax - bx)
    total = rows[:, 6] + rows[:, 7]
    weight = 1.0 / rows[:, 13]
    children = np.bincount(parent[parent >= 0], minlength=n)
    owed = (total * weight)[parent >= 0]
    child_sum = np.bincount(parent[parent >= 0], weights=owed, minlength=n)
    lost = np.where(escaped, 0.0, total - child_sum)
    interaction = np.full(n, SOURCE, dtype=np.int8)
    born = parent >= 0
    pp = parent[born]
    d0, d1, nrm = unit[pp], unit[born], normals[pp]
    dn0 = np.einsum("ij,ij->i", d0, nrm)
    dn1 = np.einsum("ij,ij->i", d1, nrm)
    along = np.einsum("ij,ij->i", d0, d1)
    del d0, d1, nrm
    reflected = np.where(np.isnan(dn0), along < 0, dn0 * dn1 < 0)
    total_internal = reflected & (end_glass[pp] >= 0) & (dn0 > 0) & (children[pp] == 1)
    interaction[born] = np.where(total_internal, TIR, np.where(reflected, REFLECT, REFRACT))
    source = rows[:, 12].astype(np.int64)
    source = np.where((source >= n_glass) & (source < n_glass + n_source), source - n_glass, -1)
    # a Mirror of the model reflects every ray: its interaction is a reflection, whatever the normal
    mirror_end = np.array([isinstance(e, Mirror) for e in scene.elements] + [False], dtype=bool)
    on_element = (end_glass[pp] == -2) & (end_edge[pp] >= 0)
    at_mirror = on_element & mirror_end[np.where(on_element, end_edge[pp], -1)]
    interaction[born] = np.where(at_mirror, REFLECT, interaction[born])
    return Segments(
        ids=np.arange(n, dtype=np.int64),
        p1=p1.copy(),
        p2=p2,
        brightness_s=rows[:, 6].copy(),
        brightness_p=rows[:, 7].copy(),
        wavelength=rows[:, 8].copy(),
        parent=parent,
        interaction=interaction,
        depth=rows[:, 9].astype(np.int64),
        source=source,
        end_glass=end_glass,
        end_edge=end_edge.astype(np.int64),
        lost=lost,
        weight=weight,
        run_id=uuid.uuid4(),
    )


def _nearest_edge(points: np.ndarray, starts: np.ndarray, ends: np.ndarray, chunk: int = 4096) -> np.ndarray:
    """For each point, the edge ``starts[i]``–``ends[i]`` nearest to it (the first of equals)."""
    edges = _Edges(starts, ends)
    px, py = points[:, 0], points[:, 1]
    if len(starts) <= FEW_EDGES or not len(points):
        out = np.empty(len(points), dtype=np.int64)
        every = np.arange(len(starts))[None]
        for lo in range(0, len(points), chunk):
            gaps = edges.gaps(px[lo : lo + chunk, None], py[lo : lo + chunk, None], every)
            out[lo : lo + chunk] = np.argmin(gaps, axis=1)
        return out
    # only edges whose middle lies within (distance to the nearest middle + the longest half edge)
    # can be nearest: the middles' k-d tree gives the few nearest middles per point, enough for
    # almost every point (the ball around the rest is searched whole)
    middles = (starts + ends) / 2
    reach = float(np.max(np.hypot(*(ends - starts).T))) / 2
    tree = cKDTree(middles)
    k = min(NEAREST_MIDDLES, len(starts))
    far, near = tree.query(points, k=k)
    radius = far[:, 0] * (1 + 1e-9) + reach * (1 + 1e-9) + 1e-12
    out = np.empty(len(points), dtype=np.int64)
    enough = far[:, -1] > radius if k < len(starts) else np.ones(len(points), dtype=bool)
    near_e, far_e = near[enough], far[enough]
    gaps = edges.gaps(px[enough, None], py[enough, None], near_e)
    gaps[far_e > radius[enough, None]] = np.inf
    # the first of equals: the smallest gap, then the smallest edge
    order = np.lexsort((near_e, gaps), axis=1)
    out[enough] = np.take_along_axis(near_e, order[:, :1], axis=1)[:, 0]
    rest = np.flatnonzero(~enough)
    if len(rest):
        found = tree.query_ball_point(points[rest], radius[rest])
        counts = np.fromiter((len(f) for f in found), dtype=np.int64, count=len(found))
        which = np.repeat(rest, counts)
        edge = np.fromiter((e for f in found for e in f), dtype=np.int64, count=int(counts.sum()))
        gaps = edges.gaps(px[which], py[which], edge)
        order = np.lexsort((edge, gaps, which))
        first = np.r_[True, which[order][1:] != which[order][:-1]]
        out[which[order][first]] = edge[order][first]
    return out


class _Edges:
    """Segments as columns, for squared distances from points to chosen segments."""

    def __init__(self, starts: np.ndarray, ends: np.ndarray) -> None:
        self.sx, self.sy = starts[:, 0].copy(), starts[:, 1].copy()
        self.dx, self.dy = ends[:, 0] - self.sx, ends[:, 1] - self.sy
        self.dd = np.maximum(self.dx * self.dx + self.dy * self.dy, 1e-300)

    def gaps(self, px: np.ndarray, py: np.ndarray, edge: np.ndarray) -> np.ndarray:
        """Squared distances from points (px, py) to segments ``edge`` (arrays that broadcast)."""
        dx, dy = self.dx[edge], self.dy[edge]
        qx, qy = px - self.sx[edge], py - self.sy[edge]
        t = np.clip((qx * dx + qy * dy) / self.dd[edge], 0.0, 1.0)
        gx, gy = qx - t * dx, qy - t * dy
        return gx * gx + gy * gy


def _summary(scene: Scene, segments: Segments, warnings: list[str], notes: list[str]) -> dict[str, Any]:
    counts = np.bincount(segments.interaction, minlength=4)
    total = segments.total
    source_energy = float(total[segments.interaction == SOURCE].sum())
    escaped = float(total[segments.escaped].sum())
    ended = float(segments.lost.sum())
    return {
        "scene": scene.name,
        "segments": len(segments),
        "source_rays": int(counts[SOURCE]),
        "by_interaction": {
            "source": int(counts[SOURCE]),
            "reflect": int(counts[REFLECT]),
            "refract": int(counts[REFRACT]),
            "tir": int(counts[TIR]),
        },
        "generations": int(segments.depth.max()) + 1 if len(segments) else 0,
        "source_energy": source_energy,
        "escaped_energy": escaped,
        "truncated_energy": ended,
        "below_threshold_energy": ended,
        "unfinished_energy": 0.0,
        "balance_error": source_energy - escaped - ended,
        "warnings": list(dict.fromkeys(warnings)),
        "notes": notes,
    }
