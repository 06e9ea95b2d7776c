# SPDX-License-Identifier: Apache-2.0
# SPDX-FileCopyrightText: 2024 The Ray Optics Simulation authors and contributors
# SPDX-FileCopyrightText: 2026 napari-talk contributors
#
# Translated from ray-optics (https://github.com/ricktu288/ray-optics, by Yi-Ting Tu and contributors):
# src/core/Simulator.js.
# Licensed under the Apache License, Version 2.0 (see LICENSES/Apache-2.0.txt); modified: translated to
# Python and changed for napari-talk (2026).
"""The simulation loop as ray-optics defines it.

Rays wait in one list. Passes run over the list in order; each live ray finds the nearest object
it meets (coincident glass surfaces are merged, a glass surface coinciding with an object that
cannot merge is undefined behaviour), gets handed to that object, and stays in its slot — moved
on — for the next pass; rays an object spawns are appended. A ray that meets nothing leaves.
A ray's slot index matters: faint partial reflections are kept one in ``amp`` by it. Each
interaction adds one to a ray's depth; past the scene's ``maxRayDepth`` the ray is dropped and
its brightness counted as truncated. A budget on processed segments stops a runaway scene; a
scene's crop box stops it where ray-optics stops (its ray count limit). Live rays are kept as rows
of numpy arrays, and a pass takes them in chunks: the common hits are done for a whole chunk at
once (:mod:`.vector`), the others ray by ray in slot order, with the outcome of ray-by-ray tracing.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..limits import MAX_SEGMENTS as DEFAULT_SEGMENT_BUDGET
from ..limits import MAX_TRACE_SECONDS
from .base import Emitted, Point, Ray, SceneObj, Settings, dist_sq
from .layout import AMP, BP, BS, COLUMNS, DEPTH, GAP, NEW, PARENT, SOURCE, WL, X1, X2, Y1, Y2
from .nearest import NearestIndex
from .scene_objs.base_glass import BaseGlass
from .scene_objs.base_grin_glass import GrinMixin
from .vector import VectorStage

UNDEFINED_THRESHOLD = 0.001


class Recorder:
    """Every segment a simulation traces, in the order traced: where it starts, where it ends (NaN
    when it meets nothing), its brightness, wavelength, depth, the object it ends on (-1: none),
    the segment it continues (-1: a source's ray), the object that emitted it, and ``amp`` (a
    sampled faint reflection stands for 1/amp of its brightness)."""

    COLUMNS = 14
    GROWTH = 1.5
    """The record grows by half when full (a copy; a chunk's segments are written in place)."""

    def __init__(self) -> None:
        self.rows = np.empty((1 << 16, self.COLUMNS))
        """Room for the first rows at once (memory untouched until written costs nothing)."""
        self.count = 0

    def add(self, ray: Ray, hit: Point | None, obj: int, parent: int, source: int) -> int:
        (x1, y1), (x2, y2) = ray.p1, ray.p2
        hx, hy = hit if hit is not None else (math.nan, math.nan)
        wl = math.nan if ray.wl is None else float(ray.wl)
        row = (x1, y1, x2, y2, hx, hy, ray.bs, ray.bp, wl, ray.depth or 0, obj, parent, source, ray.amp)
        self.reserve(1)[0] = row
        ray.amp = 1  # the ray's next segments are its own light, not a sample
        return self.count - 1

    def reserve(self, n: int) -> np.ndarray:
        """The next ``n`` rows of the record, to be written in place."""
        need = self.count + n
        if need > len(self.rows):
            grown = np.empty((max(need, int(len(self.rows) * self.GROWTH)), self.COLUMNS))
            grown[: self.count] = self.rows[: self.count]
            self.rows = grown
        self.count = need
        return self.rows[need - n : need]

    def table(self) -> np.ndarray:
        """The rows as an (n, 14) array over the recorder's memory."""
        return self.rows[: self.count]


class BudgetExceeded(RuntimeError):
    """The scene needs more ray segments than the budget allows."""


@dataclass
class Outcome:
    segments: int = 0
    truncation: float = 0.0
    undefined: float = 0.0
    undefined_objs: list[str] = field(default_factory=list)
    brightness_scale: float = 0.0
    emitted: int = 0
    stopped: bool = False
    """The scene's ray count limit stopped the simulation (ray-optics stops there too)."""

    @property
    def warnings(self) -> list[str]:
        out = []
        if self.undefined > UNDEFINED_THRESHOLD and len(self.undefined_objs) >= 2:
            first, second = self.undefined_objs[:2]
            out.append(
                f"rays met undefined behaviour where {first} and {second} meet (brightness "
                f"{self.undefined:.3g}): ray-optics defines no outcome for a ray reaching two objects "
                f"that cannot merge at one point, and hands it to the first in the file ({first}); "
                "move them slightly apart for a defined one"
            )
        elif self.undefined > UNDEFINED_THRESHOLD:
            names = self.undefined_objs[0] if self.undefined_objs else "an object"
            out.append(
                f"rays met undefined behaviour at {names} (brightness {self.undefined:.3g}): "
                "a ray along its surface or through a corner, where ray-optics defines no outcome"
            )
        return out

    @property
    def notes(self) -> list[str]:
        """What the trace did as ray-optics does it, worth a line but not a warning."""
        if not self.stopped:
            return []
        return [
            f"the simulation stopped at the scene's ray count limit ({self.segments:,} rays "
            "processed), as ray-optics stops there"
        ]


def simulate(
    objs: list[SceneObj],
    settings: Settings,
    *,
    max_depth: float = math.inf,
    budget: int = DEFAULT_SEGMENT_BUDGET,
    record: Recorder | None = None,
    exhaustive: bool | None = None,
    ray_limit: float = math.inf,
    vector: bool = True,
    compiled: bool = True,
    stop: Callable[[], None] | None = None,
    max_seconds: float = MAX_TRACE_SECONDS,
) -> Outcome:
    """Trace every source's rays through ``objs`` (the optical objects, modules expanded);
    ``record`` keeps every segment with its lineage. ``exhaustive`` True traces ray by ray,
    testing every object against every ray in Python (the slow search the vectorized one
    reproduces), False always searches vectorized, None chooses by the number of objects.
    ``ray_limit``: stop, as ray-optics does, once more rays than this have been processed.
    ``vector`` False does every hit by the objects' own methods (what the vector stage reproduces).
    ``compiled`` False also takes every chunk ray by ray and draws random numbers by calls: no
    compiled kernel runs (nor compiles: a trace before the kernels are loaded), the same segments.
    ``stop()`` is called between chunks of rays (at most :data:`CHUNK_RAYS`, one compiled step or
    one ray at a time): it raises to end the trace (a Stop, a call's deadline); a trace longer than
    ``max_seconds``, or needing more than ``budget`` segments counting the rays still waiting, is
    refused (:class:`BudgetExceeded`) as soon as it is known."""
    out = Outcome()
    allowed = math.inf if math.isinf(ray_limit) else max(0, math.floor(ray_limit) + 1)
    check = _checker(stop, max_seconds, budget, out, fan_out=allowed > budget)
    settings.objs = objs
    if not compiled and settings.rng is not None:
        settings.rng.compiled = False  # the sources draw as they emit, below
    table = RayTable()
    for position, obj in enumerate(objs):
        started = obj.start()
        if not started:
            continue
        emitted, scale = started
        table.append(rows_of_emitted(emitted, position))
        if scale:
            if out.brightness_scale == 0:
                out.brightness_scale = scale
            elif out.brightness_scale != scale:
                out.brightness_scale = -1
        out.emitted += len(emitted)
        if table.next_id > budget:
            raise BudgetExceeded(
                f"the sources emit {table.next_id:,} rays, more than the budget of {budget:,}"
            )
    min_sq = settings.min_len_sq
    index = NearestIndex(objs, math.sqrt(min_sq), exhaustive=exhaustive)
    # a GRIN glass may draw random numbers while searching: those scenes go ray by ray
    sequential = any(isinstance(o, GrinMixin) for o in objs)
    use_stage = vector and compiled and not exhaustive and not sequential
    chunk_rays = 1 if sequential else CHUNK_RAYS
    run = _Run(objs, settings, table, index, use_stage, out, record, 0 if max_depth < 0 else max_depth)
    run.check = check
    processed = 0
    while True:
        run.left = 0
        run.last_obj = -1
        table.compact()
        queue = np.arange(table.n)
        born = table.n
        while len(queue):
            for lo in range(0, len(queue), chunk_rays):
                slots = queue[lo : lo + chunk_rays]
                if processed + len(slots) > allowed:
                    slots = slots[: int(allowed - processed)]
                    out.stopped = True
                processed += len(slots)
                check(processed, table.next_id)
                if compiled and (len(slots) > FEW_RAYS or run.stage is not None):
                    run.before = processed - len(slots)
                    run.chunk(int(slots[0]), int(slots[-1]) + 1)  # the queue's rows are consecutive
                else:
                    for at in slots.tolist():
                        run.one(at)
                        check(processed, table.next_id)
                if out.stopped:
                    out.segments = processed
                    return out
            queue = np.arange(born, table.n)
            born = table.n
        if run.left == 0:
            break
    out.segments = processed
    return out


def _checker(
    stop: Callable[[], None] | None, max_seconds: float, budget: int, out: Outcome, *, fan_out: bool = True
) -> Callable[[int, int], None]:
    """``check(processed, made)``: raises when the trace must end (stopped, too long, too many).
    ``fan_out``: also refuse rays multiplying faster than they are traced (see :data:`FAN_OUT`)."""
    deadline = time.monotonic() + max_seconds

    def check(processed: int, made: int) -> None:
        if stop is not None:
            stop()
        if max(processed, made) > budget:
            raise BudgetExceeded(
                f"the scene needs more than {budget:,} ray segments, counting the rays still waiting "
                "(a trapped ray, or too many rays); raise the budget to trace it"
            )
        spawned = made - max(processed, out.emitted)  # the objects' rays still waiting
        if fan_out and spawned > budget // FAN_OUT and spawned > FAN_OUT * processed:
            raise BudgetExceeded(
                f"the scene's rays multiply faster than they are traced ({spawned:,} made by its objects "
                f"wait after {processed:,} traced), on the way past {budget:,} ray segments, counting "
                "the rays still waiting; raise the budget to trace it"
            )
        if time.monotonic() > deadline:
            raise BudgetExceeded(
                f"the trace took longer than {max_seconds:g} s (after {processed:,} ray segments; "
                "GRIN glasses step ray by ray); lower the rays or enlarge the GRIN step size"
            )

    return check


FAN_OUT = 16
"""Rays the objects made that wait at once, past a 16th of the budget and more than 16 for each ray
traced so far, are multiplying (two facing surfaces each sending a ray back as 32): the trace is
refused then, in seconds, rather than once the waiting rays have filled the budget's memory."""
FEW_RAYS = 64
"""Chunks of at most this many rays go ray by ray until a larger chunk has built the vector
stage: a scene of few rays is traced without it (the compiled kernels' first load costs more)."""
CHUNK_RAYS = 4096
"""Rays traced one step together (in slot order: none of them changes before its turn)."""


class RayTable:
    """The simulation's live rays in slot order, one row each (columns as in :mod:`.vector`) with
    its slot number (the ray list's index in ray-optics); rays that left are dropped between
    passes. Rays carrying a body (GRIN glasses) keep it beside the table, by slot."""

    def __init__(self) -> None:
        self.rows = np.zeros((1024, COLUMNS))
        self.alive = np.zeros(1024, dtype=bool)
        self.ids = np.zeros(1024, dtype=np.int64)
        self.n = 0
        self.next_id = 0
        self.bodies: dict[int, Any] = {}

    def append(self, rows: np.ndarray) -> int:
        """Add rays (alive) at the end, in new slots; returns the first new slot."""
        first = self.n
        need = first + len(rows)
        if need > len(self.rows):
            size = max(need, 2 * len(self.rows))
            grown = np.zeros((size, COLUMNS))
            grown[:first] = self.rows[:first]
            alive = np.zeros(size, dtype=bool)
            alive[:first] = self.alive[:first]
            ids = np.zeros(size, dtype=np.int64)
            ids[:first] = self.ids[:first]
            self.rows, self.alive, self.ids = grown, alive, ids
        self.rows[first:need] = rows
        self.alive[first:need] = True
        slot = self.next_id
        self.ids[first:need] = np.arange(slot, slot + len(rows))
        self.n = need
        self.next_id += len(rows)
        return slot

    def compact(self) -> None:
        """Drop the rays that left."""
        keep = np.flatnonzero(self.alive[: self.n])
        if len(keep) == self.n:
            return
        self.rows, self.ids = self.rows[keep], self.ids[keep]
        self.alive = np.ones(len(keep), dtype=bool)
        self.n = len(keep)
        if self.bodies:
            live = set(self.ids.tolist())
            self.bodies = {k: v for k, v in self.bodies.items() if k in live}

    def extend(self, rays: list[Ray], parent: int, source: int) -> None:
        first = self.append(np.array([row_of(r, parent, source) for r in rays]).reshape(-1, COLUMNS))
        for k, ray in enumerate(rays):
            if ray.body is not None:
                self.bodies[first + k] = ray.body

    def ray(self, slot: int, row: np.ndarray) -> Ray:
        x1, y1, x2, y2, bs, bp, wl, depth, gap, amp, _, _, new = row.tolist()
        ray = Ray((x1, y1), (x2, y2), bs, bp, None if wl != wl else wl, bool(gap))
        ray.depth, ray.amp, ray.is_new = int(depth), int(amp), bool(new)
        ray.body = self.bodies.get(slot)
        return ray

    def keep(self, slot: int, row: np.ndarray, ray: Ray) -> None:
        """Write a ray an object changed back into its row."""
        row[:] = row_of(ray, row[PARENT], row[SOURCE])
        if ray.body is not None:
            self.bodies[slot] = ray.body
        else:
            self.bodies.pop(slot, None)


def rows_of_emitted(emitted: Emitted, source: int) -> np.ndarray:
    """A source's rays as table rows (depth 0, no parent segment)."""
    rows = np.empty((len(emitted), COLUMNS))
    rows[:, X1], rows[:, Y1], rows[:, X2], rows[:, Y2] = emitted.x1, emitted.y1, emitted.x2, emitted.y2
    rows[:, BS], rows[:, BP] = emitted.bs, emitted.bp
    rows[:, WL] = math.nan if emitted.wl is None else float(emitted.wl)
    rows[:, DEPTH], rows[:, GAP], rows[:, AMP] = 0.0, emitted.gap, 1.0
    rows[:, PARENT], rows[:, SOURCE], rows[:, NEW] = -1.0, source, 1.0
    return rows


def row_of(ray: Ray, parent: float, source: float) -> list[float]:
    (x1, y1), (x2, y2) = ray.p1, ray.p2
    wl = math.nan if ray.wl is None else float(ray.wl)
    depth = ray.depth or 0
    return [
        x1,
        y1,
        x2,
        y2,
        ray.bs,
        ray.bp,
        wl,
        depth,
        float(ray.gap),
        ray.amp,
        parent,
        source,
        float(ray.is_new),
    ]


class _Run:
    """One simulation's state between chunks, and how a chunk of rays takes its step."""

    def __init__(
        self,
        objs: list[SceneObj],
        settings: Settings,
        table: RayTable,
        index: NearestIndex,
        use_stage: bool,
        out: Outcome,
        record: Recorder | None,
        max_depth: float,
    ) -> None:
        self.objs, self.settings, self.table, self.index = objs, settings, table, index
        self.use_stage = use_stage
        self.stage: VectorStage | None = None
        """Built for the first chunk that needs it (a scene of few rays never does)."""
        self.out, self.record, self.max_depth = out, record, max_depth
        self.min_sq = settings.min_len_sq
        self.left = 0
        self.last_obj = -1
        self.draws = np.array([isinstance(o, BaseGlass) for o in objs] + [False], dtype=bool)
        self.step: Any = None
        """The compiled bookkeeping of a chunk's step, imported by the first chunk."""
        self.check: Callable[[int, int], None] = lambda processed, made: None
        """The trace's check (:func:`_checker`), also run after each ray a chunk hands to its object."""
        self.before = 0
        """Rays processed before the current chunk."""
        self.done = 0
        self.pending = 0
        """Rays of the current chunk handed to their objects, and the rays they made (not yet in the
        table)."""

    def one(self, at: int) -> None:
        """The ray at row ``at`` takes its step, by the objects' own methods."""
        table, out, objs = self.table, self.out, self.objs
        row = table.rows[at]
        slot = int(table.ids[at])
        ray = table.ray(slot, row)
        found = self.index.hits(ray, *self.index.bounds([ray])[0])
        hit_obj, hit_index, hit, undefined, undefined_objs, merging = _nearest(objs, ray, found, self.min_sq)
        if undefined:
            out.undefined += ray.bs + ray.bp
            if not out.undefined_objs:
                out.undefined_objs = [o.name or o.type for o in undefined_objs]
        parent, source = float(row[PARENT]), float(row[SOURCE])
        segment = -1
        if self.record is not None:
            segment = self.record.add(ray, hit, hit_index, int(parent), int(source))
        ray.amp = 1
        if self.last_obj != hit_index:
            ray.gap = True
        ray.is_new = False
        self.last_obj = hit_index
        if hit_obj is None or hit is None:
            table.alive[at] = False
            return
        ray.depth = (ray.depth or 0) + 1
        depth = ray.depth
        if depth > self.max_depth:
            out.truncation += ray.bs + ray.bp
            table.alive[at] = False
            return
        result = hit_obj.incident(ray, slot, hit, merging)
        table.keep(slot, row, ray)
        row[PARENT] = segment
        alive = True
        if result is not None:
            if result.undefined:
                out.undefined += ray.bs + ray.bp
                if not out.undefined_objs:
                    out.undefined_objs = [hit_obj.name or hit_obj.type]
            if result.absorbed:
                alive = False
            for new in result.new_rays:
                if new.depth is None:
                    new.depth = depth
            if result.new_rays:
                table.extend(result.new_rays, segment, int(source))
            out.truncation += result.truncation
        table.alive[at] = alive
        self.left += int(alive)

    def chunk(self, lo: int, hi: int) -> None:
        """The rays at rows ``lo`` to ``hi`` take their step together (moved on in place)."""
        table, out, objs = self.table, self.out, self.objs
        rows = table.rows[lo:hi]
        slots = table.ids[lo:hi]
        self.done = self.pending = 0
        if self.use_stage and self.stage is None:
            self.stage = VectorStage(objs, self.settings, math.sqrt(self.min_sq))
        m = len(slots)
        if self.stage is not None:
            obj, hx, hy, clean = self.stage.nearest(rows)
        else:
            obj = np.full(m, -1, dtype=np.int64)
            hx, hy = np.full(m, np.nan), np.full(m, np.nan)
            clean = np.zeros(m, dtype=bool)
        merging: dict[int, list[SceneObj]] = {}
        for k in np.flatnonzero(~clean).tolist():
            ray = table.ray(int(slots[k]), rows[k])
            found = self.index.hits(ray, *self.index.bounds([ray])[0])
            _, hit_index, hit, undefined, undefined_objs, merged = _nearest(objs, ray, found, self.min_sq)
            obj[k] = hit_index
            hx[k], hy[k] = hit if hit is not None else (math.nan, math.nan)
            merging[k] = merged
            if undefined:
                out.undefined += ray.bs + ray.bp
                if not out.undefined_objs:
                    out.undefined_objs = [o.name or o.type for o in undefined_objs]
        if self.step is None:
            from .kernel_step import step

            self.step = step
        alive = np.empty(m, dtype=bool)
        first = self.record.count if self.record is not None else 0
        block = self.record.reserve(m) if self.record is not None else np.empty((0, Recorder.COLUMNS))
        depth = float(self.max_depth)
        out.truncation += self.step(rows, obj, hx, hy, self.last_obj, depth, first, block, alive)
        self.last_obj = int(obj[-1])
        # the glass hits the vector stage refracts; the rest ray by ray, in slot order where they
        # draw random numbers as the vectorized glasses do
        vector = np.zeros(m, dtype=bool)
        if self.stage is not None:
            vector = alive & clean & self.stage.physics[np.maximum(obj, 0)]
            if table.bodies:
                vector &= np.array([int(s) not in table.bodies for s in slots.tolist()], dtype=bool)
        child_rows: list[np.ndarray] = []
        child_keys: list[np.ndarray] = []
        child_bodies: dict[int, list[Any]] = {}

        def single(k: int) -> None:
            self._single(k, slots, rows, obj, hx, hy, alive, merging, child_rows, child_keys, child_bodies)

        drawing = alive & ~vector & self.draws[obj]
        if self.stage is not None:
            met = self.stage.meet(rows, slots, obj, (hx, hy), vector, alive, self.draws, single)
            out.truncation += met.truncation
            out.undefined += met.undefined
            if met.undefined_objs and not out.undefined_objs:
                out.undefined_objs = met.undefined_objs
            if len(met.children):
                child_rows.append(met.children)
                child_keys.append(met.child_of.astype(float) * KEY_SPAN)
        else:
            for k in np.flatnonzero(drawing).tolist():
                single(k)
        for k in np.flatnonzero(alive & ~vector & ~drawing).tolist():
            single(k)
        table.alive[lo:hi] = alive
        self.left += int(alive.sum())
        if child_rows:
            children = np.concatenate(child_rows) if len(child_rows) > 1 else child_rows[0]
            keys = np.concatenate(child_keys) if len(child_keys) > 1 else child_keys[0]
            order = np.argsort(keys, kind="stable")
            first_slot = table.append(children[order] if len(child_rows) > 1 else children)
            if child_bodies:
                rank = {int(key): k for k, key in enumerate(keys[order].tolist())}
                for key, bodies in child_bodies.items():
                    for j, body in enumerate(bodies):
                        if body is not None:
                            table.bodies[first_slot + rank[key + j]] = body

    def _single(
        self,
        k: int,
        slots: np.ndarray,
        rows: np.ndarray,
        obj: np.ndarray,
        hx: np.ndarray,
        hy: np.ndarray,
        alive: np.ndarray,
        merging: dict[int, list[SceneObj]],
        child_rows: list[np.ndarray],
        child_keys: list[np.ndarray],
        child_bodies: dict[int, list[Any]],
    ) -> None:
        """The ray at chunk position ``k`` meets its object, by the object's own method."""
        out = self.out
        slot = int(slots[k])
        ray = self.table.ray(slot, rows[k])
        hit_obj = self.objs[int(obj[k])]
        # some objects remember their last intersection for the incident that follows it: the
        # chunk's search has met other rays since
        hit_obj.intersect(ray)
        result = hit_obj.incident(ray, slot, (float(hx[k]), float(hy[k])), merging.get(k, []))
        self.table.keep(slot, rows[k], ray)
        self.done += 1
        if result is not None:
            self.pending += len(result.new_rays)
        self.check(self.before + self.done, self.table.next_id + self.pending)
        if result is None:
            return
        if result.undefined:
            out.undefined += ray.bs + ray.bp
            if not out.undefined_objs:
                out.undefined_objs = [hit_obj.name or hit_obj.type]
        if result.absorbed:
            alive[k] = False
        if result.new_rays:
            for new in result.new_rays:
                if new.depth is None:
                    new.depth = ray.depth
            child_rows.append(
                np.array([row_of(r, rows[k, PARENT], rows[k, SOURCE]) for r in result.new_rays])
            )
            key = k * KEY_SPAN
            child_keys.append(key + np.arange(len(result.new_rays), dtype=float))
            if any(r.body is not None for r in result.new_rays):
                child_bodies[key] = [r.body for r in result.new_rays]
        out.truncation += result.truncation


KEY_SPAN = 1 << 20
"""Children of one ray sort together (a ray spawns fewer than this many)."""


def _nearest(
    objs: list[SceneObj], ray: Ray, found: list[tuple[int, Point]], min_sq: float
) -> tuple[SceneObj | None, int, Point | None, bool, list[SceneObj], list[SceneObj]]:
    """ray-optics' choice among the objects' hits (in scene order): the nearest beyond the minimum
    segment, coincident glass surfaces merged, coincident objects that cannot merge undefined."""
    hit_obj: SceneObj | None = None
    hit_index = -1
    hit: Point | None = None
    hit_len = math.inf
    undefined = False
    undefined_objs: list[SceneObj] = []
    merging: list[SceneObj] = []
    for i, p in found:
        obj = objs[i]
        p_len = dist_sq(ray.p1, p)
        close = hit is not None and dist_sq(p, hit) < min_sq
        if close and (obj.is_glass or (hit_obj is not None and hit_obj.is_glass)):
            assert hit_obj is not None
            if hit_obj.is_glass:
                if obj.is_glass:
                    merging.append(obj)
                else:
                    if not obj.merges_with_glass:
                        undefined, undefined_objs = True, [hit_obj, obj]
                    merging.append(hit_obj)
                    hit_obj, hit_index, hit, hit_len = obj, i, p, p_len
            else:
                if not hit_obj.merges_with_glass:
                    undefined, undefined_objs = True, [hit_obj, obj]
                merging.append(obj)
        elif close:
            undefined, undefined_objs = True, [hit_obj, obj]  # type: ignore[list-item]
        elif p_len < hit_len and p_len > min_sq:
            hit_obj, hit_index, hit, hit_len = obj, i, p, p_len
            undefined, undefined_objs, merging = False, [], []
    return hit_obj, hit_index, hit, undefined, undefined_objs, merging
