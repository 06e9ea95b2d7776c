"""The simulation loop as ray-optics defines it.

Rays wait in one list. Passes run over the list in order; each live ray finds the nearest object
it meets (coincident glass surfaces are merged, a glass surface coinciding with an object that
cannot merge is undefined behaviour), gets handed to that object, and stays in its slot — moved
on — for the next pass; rays an object spawns are appended. A ray that meets nothing leaves.
A ray's slot index matters: faint partial reflections are kept one in ``amp`` by it. Each
interaction adds one to a ray's depth; past the scene's ``maxRayDepth`` the ray is dropped and
its brightness counted as truncated. A budget on processed segments stops a runaway scene.
"""

from __future__ import annotations

import math
from array import array
from dataclasses import dataclass, field

import numpy as np

from .base import Point, Ray, SceneObj, Settings, dist_sq
from .nearest import NearestIndex

DEFAULT_SEGMENT_BUDGET = 5_000_000
UNDEFINED_THRESHOLD = 0.001


class Recorder:
    """Every segment a simulation traces, in the order traced: where it starts, where it ends (NaN
    when it meets nothing), its brightness, wavelength, depth, the object it ends on (-1: none),
    the segment it continues (-1: a source's ray), the object that emitted it, and ``amp`` (a
    sampled faint reflection stands for 1/amp of its brightness)."""

    COLUMNS = 14

    def __init__(self) -> None:
        self.values = array("d")
        """The rows back to back, as doubles (a tenth of the memory of a tuple per row)."""
        self.count = 0

    def add(self, ray: Ray, hit: Point | None, obj: int, parent: int, source: int) -> int:
        (x1, y1), (x2, y2) = ray.p1, ray.p2
        hx, hy = hit if hit is not None else (math.nan, math.nan)
        wl = math.nan if ray.wl is None else float(ray.wl)
        self.values.extend(
            (x1, y1, x2, y2, hx, hy, ray.bs, ray.bp, wl, ray.depth or 0, obj, parent, source, ray.amp)
        )
        ray.amp = 1  # the ray's next segments are its own light, not a sample
        self.count += 1
        return self.count - 1

    def table(self) -> np.ndarray:
        """The rows as an (n, 14) array over the recorder's memory (no more rows can be added)."""
        return np.frombuffer(self.values, dtype=float).reshape(-1, self.COLUMNS)


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


def simulate(
    objs: list[SceneObj],
    settings: Settings,
    *,
    max_depth: float = math.inf,
    budget: int = DEFAULT_SEGMENT_BUDGET,
    record: Recorder | None = None,
    exhaustive: bool | None = None,
) -> Outcome:
    """Trace every source's rays through ``objs`` (the optical objects, modules expanded);
    ``record`` keeps every segment with its lineage. ``exhaustive`` True tests every object against
    every ray in Python (the slow search the vectorized one reproduces), False always searches
    vectorized, None chooses by the number of objects."""
    out = Outcome()
    settings.objs = objs
    pending: list[Ray | None] = []
    lineage: list[tuple[int, int]] = []
    """Per slot of ``pending``: the segment its ray continues (-1 for none) and its source."""
    for position, obj in enumerate(objs):
        started = obj.start()
        if not started:
            continue
        rays, scale = started
        for ray in rays:
            if ray.depth is None:
                ray.depth = 0
            pending.append(ray)
            lineage.append((-1, position))
        if scale:
            if out.brightness_scale == 0:
                out.brightness_scale = scale
            elif out.brightness_scale != scale:
                out.brightness_scale = -1
        out.emitted += len(rays)
        if len(pending) > budget:
            raise BudgetExceeded(
                f"the sources emit {len(pending):,} rays, more than the budget of {budget:,}"
            )

    min_sq = settings.min_len_sq
    index_ = NearestIndex(objs, math.sqrt(min_sq), exhaustive=exhaustive)
    batch: dict[int, tuple[list[int], list[float]]] = {}
    max_depth = 0 if max_depth < 0 else max_depth
    index = -1
    left = 0
    last_obj = -1
    processed = 0
    while True:
        if index >= len(pending) - 1:
            if left == 0:
                break
            left = 0
            last_obj = -1
            index = -1
            continue
        index += 1
        j = index
        slot = pending[j]
        if slot is None:
            continue
        ray = slot
        processed += 1
        if processed > budget:
            raise BudgetExceeded(
                f"the scene needs more than {budget:,} ray segments "
                "(a trapped ray, or too many rays); raise the budget to trace it"
            )
        bounds = batch.pop(j, None)
        if bounds is None:
            batch = _next_batch(index_, pending, j)
            bounds = batch.pop(j)
        found = index_.hits(ray, *bounds)
        hit_obj, hit_index, hit, undefined, undefined_objs, merging = _nearest(objs, ray, found, min_sq)
        if undefined:
            out.undefined += ray.bs + ray.bp
            if not out.undefined_objs:
                out.undefined_objs = [o.name or o.type for o in undefined_objs]
        segment = -1
        if record is not None:
            parent, source = lineage[j]
            segment = record.add(ray, hit, hit_index, parent, source)
            lineage[j] = (segment, source)
        if last_obj != hit_index:
            ray.gap = True
        ray.is_new = False
        last_obj = hit_index
        if hit_obj is None or hit is None:
            pending[j] = None
            continue
        ray.depth = (ray.depth or 0) + 1
        depth = ray.depth
        if depth > max_depth:
            out.truncation += ray.bs + ray.bp
            pending[j] = None
            continue
        result = hit_obj.incident(ray, j, hit, merging)
        if result is not None:
            if result.undefined:
                out.undefined += ray.bs + ray.bp
                if not out.undefined_objs:
                    out.undefined_objs = [hit_obj.name or hit_obj.type]
            if result.absorbed:
                pending[j] = None
            for new in result.new_rays:
                if new.depth is None:
                    new.depth = depth
                pending.append(new)
                lineage.append((segment, lineage[j][1]))
            out.truncation += result.truncation
        if pending[j] is not None:
            left += 1
    out.segments = processed
    return out


BATCH_RAYS = 512
"""Rays whose nearest-object bounds are computed together."""


def _next_batch(
    index: NearestIndex, pending: list[Ray | None], start: int
) -> dict[int, tuple[list[int], list[float]]]:
    """Bounds for the next live rays from slot ``start`` on: none of them changes before its turn."""
    slots: list[int] = []
    rays: list[Ray] = []
    for k in range(start, len(pending)):
        ray = pending[k]
        if ray is not None:
            slots.append(k)
            rays.append(ray)
            if len(rays) == BATCH_RAYS:
                break
    return dict(zip(slots, index.bounds(rays), strict=True))


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
