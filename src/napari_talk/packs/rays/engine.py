"""How a scene is traced: by the ray-optics simulator (``rayoptics``), the one engine of the pack.

:func:`simulator_scene` hands the simulator the scene's objects: each object of the model is built
into the simulator object(s) that trace it, which remember it as their owner, so every kind the
simulator supports is traced as ray-optics traces it (blockers, curved mirrors, gratings, GRIN
glass, modules...). Light sources the scene model holds emit the rays the model gives them (its
exact ray counts); the simulator traces them. Each traced segment is recorded with its lineage,
and turned into the :class:`Segments` the queries read: the scene object it ends on and the one
whose light it carries, by object (ids into ``Scene.objects``, found through the owner of each
simulator object, never by a position in one of the scene's lists), the glass edge it ends on, and
how it was born (reflected, refracted, totally reflected). Detectors answer from the simulator's
own bins, keyed by the scene's detector.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable
from typing import Any

import numpy as np

from ...core.basics.native_work import native_work
from .analysis import DetectorReading
from .limits import MAX_SEGMENTS
from .rayoptics.base import Emitted, SceneError, SceneObj, Settings
from .rayoptics.loader import LoadedScene, add_built, add_objects, check_emission, read_settings
from .rayoptics.simulator import BudgetExceeded, Recorder, simulate
from .scene import Glass, IdealLens, LightSource, Mirror, Scene
from .simulation import REFLECT, REFRACT, SOURCE, TIR, Segments, SimulationResult
from .writer import detector_to_dict, element_to_dict, glass_to_dict, scene_settings

DEFAULT_MAX_SEGMENTS = MAX_SEGMENTS
PLAIN_SEGMENTS = 10_000
"""A trace made before the kernels are loaded runs in plain Python up to this many segments (about
a quarter of a second; the Prism demo's 99 take 5 ms), and past it is traced again
by the kernels, loading or compiling them."""
FEW_EDGES = 32
"""Glasses with at most this many edges find a hit's edge by testing them all (else a grid)."""


class _Emitted(SceneObj):
    """A light source of the scene model: emits the rays the model gives it."""

    type = "emitted"

    def __init__(self, settings: Settings, source: LightSource) -> None:
        self.settings, self.name, self.props, self.source = settings, "", {}, source

    def start(self) -> tuple[Emitted, float]:
        origins, directions, brightness = (np.asarray(a, dtype=float) for a in self.source.emit())
        wl = float(self.source.wavelength) if self.settings.simulate_colors else None
        x, y = origins[:, 0], origins[:, 1]
        half = brightness / 2
        gap = np.arange(len(x)) == 0
        return Emitted(x, y, x + directions[:, 0], y + directions[:, 1], half, half.copy(), wl, gap), 0.0


_kernels_loaded = False


def kernels_loaded() -> bool:
    """Whether :func:`load_kernels` has run in this process: every kernel of a trace is machine code
    by now, and a trace compiles nothing (known without importing numba)."""
    return _kernels_loaded


def load_kernels(scene: Scene) -> None:
    """Compile the kernels (or load them from numba's disk cache) by tracing ``scene`` with them;
    a process that ends meanwhile waits for it (numba compiling as the interpreter shuts down
    crashes it)."""
    global _kernels_loaded
    with native_work():
        trace(scene, compiled=True)
    _kernels_loaded = True


def trace(
    scene: Scene,
    *,
    max_segments: int = DEFAULT_MAX_SEGMENTS,
    ray_by_ray: bool = False,
    compiled: bool | None = None,
    stop: Callable[[], None] | None = None,
) -> SimulationResult:
    """Trace ``scene``; a scene the simulator cannot build or that needs more segments than
    ``max_segments`` raises ValueError with the reason. ``ray_by_ray`` traces every ray by the
    objects' own methods (the same segments, slowly: the baseline of the benchmarks).
    ``compiled``: by the compiled kernels (True), in plain Python without numba (False: the same
    segments), or None: by the kernels once they are loaded (:func:`load_kernels`), else in plain Python
    if the scene takes at most :data:`PLAIN_SEGMENTS` segments, so that a first trace never
    compiles a kernel where it stands (the GUI thread, for a sample). ``stop()`` is called between
    steps of the trace and raises to end it (a job's ``progress.check``)."""
    try:
        if compiled is None and not kernels_loaded():
            try:
                return _trace(scene, min(max_segments, PLAIN_SEGMENTS), ray_by_ray, compiled=False, stop=stop)
            except BudgetExceeded:
                if max_segments <= PLAIN_SEGMENTS:
                    raise
        return _trace(scene, max_segments, ray_by_ray, compiled=compiled is not False, stop=stop)
    except BudgetExceeded as exc:
        raise ValueError(str(exc)) from None


def _trace(
    scene: Scene,
    max_segments: int,
    ray_by_ray: bool,
    *,
    compiled: bool,
    stop: Callable[[], None] | None = None,
) -> SimulationResult:
    started = time.perf_counter()
    try:
        built = simulator_scene(scene)
    except SceneError as exc:
        raise ValueError(str(exc)) from None
    record = Recorder()
    outcome = simulate(
        built.objs,
        built.settings,
        max_depth=built.max_depth,
        budget=max_segments,
        ray_limit=built.ray_limit,
        record=record,
        vector=not ray_by_ray,
        compiled=compiled,
        stop=stop,
    )
    objects = scene.objects
    ids = {id(obj): k for k, obj in enumerate(objects)}
    owner_id = np.array([ids[id(owner)] for owner in built.owners], dtype=np.int64)  # owners: scene objects
    segments = _segments(scene, owner_id, record, compiled)
    measured = {id(owner): obj for obj, owner in zip(built.objs, built.owners, strict=True)}
    readings = {d: _reading(measured[id(d)]) for d in scene.detectors if id(d) in measured}
    warnings = [*scene.warnings, *built.warnings, *outcome.warnings]
    summary = _summary(scene, segments, warnings, outcome.notes)
    summary["trace_seconds"] = round(time.perf_counter() - started, 6)
    return SimulationResult(scene.name, segments, summary, readings, objects)


def simulator_scene(scene: Scene) -> LoadedScene:
    """The simulator's objects for ``scene``, each owned by the object of the scene it was built for,
    in the order ray-optics reads the saved scene: glasses, light sources, mirrors and lenses,
    detectors (every one measuring its irradiance map), then the objects kept as the file gives them.
    A scene the simulator cannot build raises SceneError; an object it cannot build is left out and
    named in the warnings."""
    built = read_settings(scene_settings(scene), scene.name)
    for glass in scene.glasses:  # the order of scene.objects
        add_objects(built, [glass_to_dict(glass)], glass)
    for source in scene.sources:
        add_built(built, _Emitted(built.settings, source), source, kind=type(source).__name__)
    for element in scene.elements:
        add_objects(built, [element_to_dict(element)], element)
    for detector in scene.detectors:
        add_objects(built, [{**detector_to_dict(detector), "irradMap": True}], detector)
    for other in scene.others:
        add_objects(built, [other.to_dict()], other)
    check_emission(built)
    return built


def _reading(detector: Any) -> DetectorReading:
    size = float(detector.binSize)
    bins = detector.bins if detector.bins is not None else [0.0] * detector.bin_count
    return DetectorReading(
        positions=[i * size for i in range(len(bins))],
        irradiance=[float(v) / size for v in bins],
        bin_size=size,
        power=float(detector.power),
    )


def _segments(scene: Scene, owner_id: np.ndarray, record: Recorder, compiled: bool) -> Segments:
    """The segment table of ``record``: each segment names the scene objects it ends on and whose
    light it carries by their ids (positions in ``scene.objects``); ``owner_id`` gives, for each
    simulator object, the id of the scene object it was built for."""
    if compiled:
        from . import table_kernel as passes
    else:
        from . import table_passes as passes  # type: ignore[no-redef]

    rows = record.table()
    n = len(rows)
    objects = scene.objects
    length = np.hypot(rows[:, 2] - rows[:, 0], rows[:, 3] - rows[:, 1])
    p2, unit = np.empty((n, 2)), np.empty((n, 2))
    end_object = np.empty(n, dtype=np.int64)
    ints = np.empty(n, np.int64), np.empty(n, np.int64)
    columns = np.empty((n, 2)), np.empty(n), np.empty(n), np.empty(n), *ints
    passes.ends(rows, length, owner_id, float(scene.scale), p2, unit, end_object, columns)
    p1, bs, bp, wavelength, parent, depth = columns
    del length
    end_glass, end_edge, normals = _where_segments_end(scene.glasses, objects, end_object, rows, passes)
    for k, item in enumerate(objects):
        if isinstance(item, (Mirror, IdealLens)):
            (ax, ay), (bx, by) = item.p1, item.p2
            normals[np.flatnonzero(end_object == k)] = (by - ay, ax - bx)
    glass = np.array([isinstance(item, Glass) for item in objects], dtype=bool)
    mirror = np.array([isinstance(item, Mirror) for item in objects], dtype=bool)
    lost, weight = np.empty(n), np.empty(n)
    interaction = np.empty(n, dtype=np.int8)
    source = np.empty(n, dtype=np.int64)
    passes.lineage(
        rows, unit, normals, end_object, owner_id, glass, mirror, lost, weight, interaction, source
    )
    return Segments(
        ids=np.arange(n, dtype=np.int64),
        p1=p1,
        p2=p2,
        brightness_s=bs,
        brightness_p=bp,
        wavelength=wavelength,
        parent=parent,
        interaction=interaction,
        depth=depth,
        source=source,
        end_glass=end_glass,
        end_edge=end_edge,
        lost=lost,
        weight=weight,
        end_object=end_object,
        run_id=uuid.uuid4(),
    )


def _where_segments_end(
    glasses: tuple[Glass, ...],
    objects: tuple[Any, ...],
    end_object: np.ndarray,
    rows: np.ndarray,
    passes: Any,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For each segment: the glass it ends on (its position among ``glasses``; -1: it escapes, -2:
    it ends on another object), the edge of that glass nearest its end (-1: none), and the edge's
    outward normal (NaN: not on a glass)."""
    n = len(end_object)
    number = {id(glass): g for g, glass in enumerate(glasses)}
    glass_of = np.array([number.get(id(item), -2) for item in objects] + [-1], dtype=np.int32)
    end_glass = glass_of[end_object]  # -1, an escaped ray's id, reads the last entry
    end_edge = np.full(n, -1, dtype=np.int64)
    normals = np.full((n, 2), np.nan)
    if glasses:
        sizes = np.array([g.n_edges for g in glasses], dtype=np.int64)
        glass_edges = np.stack([np.cumsum(sizes) - sizes, sizes], axis=1)
        edges = np.concatenate([np.c_[g.starts, g.ends] for g in glasses])
        outward = np.concatenate([g.outward_normals for g in glasses])
        hits = np.ascontiguousarray(rows[:, 4:6])
        passes.nearest_edges(hits, end_glass, edges, glass_edges, FEW_EDGES, end_edge)
        on = np.flatnonzero(end_glass >= 0)
        normals[on] = outward[glass_edges[end_glass[on], 0] + end_edge[on]]
    return end_glass, end_edge, normals


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
