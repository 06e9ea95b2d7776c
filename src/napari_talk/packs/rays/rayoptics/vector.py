"""The common cases of a simulation pass, for a chunk of rays at once, by compiled kernels
(:mod:`.kernel_hits`, :mod:`.kernel_glass`) that do the objects' own arithmetic, so the outcome is
the one ray-by-ray tracing gives.

Nearest hit: the exact hit of every glass edge, circle glass, blocker, mirror and two-sided
detector a ray's line meets (through a grid or boxes of primitives). A ray whose nearest hit is
unambiguous — no other hit within a few minimum segments of it, not by its start, and every other
object's lower bound beyond it — needs none of the simulator's merging rules; the others are
resolved ray by ray. Physics: refraction with Fresnel partial reflection at outline glasses
(``Glass``, ``SphericalLens``) and circle glasses, including the inside/outside test with its two
random draws per ray; every other kind, and every ambiguous case, is handed back to be done ray
by ray. The kernels are imported when a stage is first built (numba's import and cached code
load take a moment a scene of few rays, traced ray by ray, does not pay).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .base import Ray, SceneObj, Settings
from .grid import Grid
from .layout import (
    ARC,
    CIRCLE,
    COLUMNS,
    SEGMENT,
    STRAIGHT,
    X1,
    X2,
    Y1,
    Y2,
)
from .nearest import GROUP_SIZE, NearestIndex, morton
from .scene_objs.base_glass import classify_with
from .scene_objs.blocker.blocker import Blocker
from .scene_objs.glass.circle_glass import CircleGlass
from .scene_objs.glass.glass import OutlineGlass
from .scene_objs.mirror.mirror import Mirror
from .scene_objs.other.detector import Detector

CLEAR_SEGMENTS = 4.0
"""Hits this many minimum segments apart cannot be merged or coincident."""
START_SEGMENTS = 8.0
"""A nearest hit this close to the ray's start is left to the ray-by-ray search."""
GRID_PRIMITIVES = 64
"""Scenes with at least this many primitives are searched through a grid (:mod:`.grid`)."""


class _Absent(SceneObj):
    """Stands in for an object another index covers."""

    def __init__(self) -> None:
        self.settings, self.name, self.props = Settings(), "", {}


def _exact_kind(obj: SceneObj, settings: Settings) -> str | None:
    cls = type(obj)
    if isinstance(obj, OutlineGlass) and cls.intersect is OutlineGlass.intersect:
        return None if obj.props.get("notDone") else "outline"
    if isinstance(obj, CircleGlass) and cls.intersect is CircleGlass.intersect:
        return "circle"
    filtered = settings.simulate_colors and obj.props.get("filter") and obj.props.get("wavelength")
    if cls in (Blocker, Mirror) and not filtered:
        return "segment"
    if cls is Detector and obj.props.get("twoSided"):
        return "segment"
    return None


def _vector_physics(obj: SceneObj) -> bool:
    """The object refracts by the methods :meth:`VectorStage.meet` reproduces (compiled)."""
    cls: Any = type(obj)
    for base in (OutlineGlass, CircleGlass):
        if isinstance(obj, base):
            return all(
                getattr(cls, name) is getattr(base, name) for name in ("incident", "refract", "ref_index_at")
            )
    return False


class VectorStage:
    """Tables of the objects a chunk of rays is traced through at once."""

    def __init__(self, objs: list[SceneObj], settings: Settings, min_len: float) -> None:
        self.objs, self.settings, self.min_len = objs, settings, min_len
        self.min_sq = settings.min_len_sq
        rows: list[list[float]] = []
        kinds: list[int] = []
        owner: list[int] = []
        order: list[int] = []
        other: list[SceneObj] = []
        self.physics = np.zeros(len(objs), dtype=bool)
        self.outline = np.zeros(len(objs), dtype=bool)
        self.circle = np.zeros(len(objs), dtype=bool)
        self.index = np.zeros(len(objs))
        self.cauchy = np.zeros(len(objs))
        self.partial = np.zeros(len(objs), dtype=bool)
        self.centre = np.zeros((len(objs), 3))
        edge_rows: list[list[float]] = []
        edge_arc: list[bool] = []
        self.edge_start = np.zeros(len(objs), dtype=np.int64)
        self.edge_count = np.zeros(len(objs), dtype=np.int64)
        self.edges: dict[int, list[Any]] = {}
        nan = math.nan
        for i, obj in enumerate(objs):
            kind = _exact_kind(obj, settings)
            if kind is None:
                other.append(obj)
                continue
            other.append(_Absent())
            if kind == "outline":
                self.edges[i] = obj.edges
                self.edge_start[i], self.edge_count[i] = len(edge_rows), len(obj.edges)
                for k, edge in enumerate(obj.edges):
                    (ax, ay), (bx, by) = edge.a, edge.b
                    if edge.center is None:
                        row = [ax, ay, bx, by, nan, nan, nan, nan, nan]
                        kinds.append(STRAIGHT)
                    else:
                        (mx, my), (cx, cy) = edge.mid, edge.center
                        row = [ax, ay, bx, by, mx, my, cx, cy, edge.r_sq]
                        kinds.append(ARC)
                    rows.append(row)
                    edge_rows.append(row)
                    edge_arc.append(edge.center is not None)
                    owner.append(i)
                    order.append(k)
                self.outline[i] = True
            elif kind == "circle":
                (cx, cy), (px, py) = obj.p1, obj.p2
                r_sq = (cx - px) * (cx - px) + (cy - py) * (cy - py)
                rows.append([nan] * 6 + [cx, cy, r_sq])
                kinds.append(CIRCLE)
                owner.append(i)
                order.append(0)
                self.circle[i] = True
                self.centre[i] = (cx, cy, r_sq)
            else:
                (ax, ay), (bx, by) = obj.p1, obj.p2
                rows.append([ax, ay, bx, by] + [nan] * 5)
                kinds.append(SEGMENT)
                owner.append(i)
                order.append(0)
            if _vector_physics(obj):
                self.physics[i] = True
                self.index[i] = obj.refIndex
                self.cauchy[i] = obj.cauchyB
                self.partial[i] = bool(obj.partialReflect)
        self.edge_table = np.array(edge_rows, dtype=float).reshape(-1, 9)
        self.edge_arc = np.array(edge_arc, dtype=bool)
        table = np.array(rows, dtype=float).reshape(-1, 9)
        kind_arr = np.array(kinds, dtype=np.int64)
        round_ = (kind_arr == ARC) | (kind_arr == CIRCLE)
        radius = np.sqrt(np.abs(table[:, 8]))
        low = np.where(
            round_[:, None], table[:, 6:8] - radius[:, None], np.minimum(table[:, 0:2], table[:, 2:4])
        )
        high = np.where(
            round_[:, None], table[:, 6:8] + radius[:, None], np.maximum(table[:, 0:2], table[:, 2:4])
        )
        finite = np.abs(np.r_[low.ravel(), high.ravel(), 1.0])
        extent = float(finite[np.isfinite(finite)].max())
        perm = np.argsort(morton((low + high) / 2, extent), kind="stable")
        self.table, self.kind = table[perm], kind_arr[perm]
        self.owner = np.array(owner, dtype=np.int64)[perm]
        self.order = np.array(order, dtype=np.int64)[perm]
        low, high = low[perm], high[perm]
        self.group_start = np.arange(0, len(perm), GROUP_SIZE, dtype=np.int64)
        self.group_size = np.minimum(GROUP_SIZE, len(perm) - self.group_start)
        pad = 1e-7 * extent + min_len
        self.box_low, self.box_high = low[:0], high[:0]
        if len(perm):
            with np.errstate(invalid="ignore"):
                self.box_low = np.minimum.reduceat(low, self.group_start, axis=0) - pad
                self.box_high = np.maximum.reduceat(high, self.group_start, axis=0) + pad
            whole = ~(np.isfinite(self.box_low).all(axis=1) & np.isfinite(self.box_high).all(axis=1))
            self.box_low[whole], self.box_high[whole] = -np.inf, np.inf
        self.boxes = (self.box_low, self.box_high, self.group_start, self.group_size)
        self.grid: Grid | None = None
        if len(perm) >= GRID_PRIMITIVES and np.isfinite(low).all() and np.isfinite(high).all():
            grid = Grid(low, high, pad)
            self.grid = grid if grid.worth else None
        self.grid_tables = _grid_tables(self.grid)
        self.other = NearestIndex(other, min_len, exhaustive=False)
        self.other_always = bool(self.other.always or self.other.boxed)
        self.extent = extent
        self.reach = CLEAR_SEGMENTS * min_len + 1e-9 * extent
        """Hits this much farther than a ray's nearest cannot change its outcome (rounding aside)."""
        self.glass = (
            self.outline.astype(float),
            self.index,
            self.cauchy,
            self.partial.astype(float),
            self.centre,
        )
        self.edge_tables = (self.edge_start, self.edge_count, self.edge_table, self.edge_arc)
        self.limits = np.array([
            self.min_sq,
            CLEAR_SEGMENTS * min_len,
            settings.brightness_floor,
            1e-6 if settings.color_mode != "default" else 0.0,
            float(settings.simulate_colors),
            2.0,  # the Fresnel coefficients' exponent, given at run time (see kernel_glass)
        ])  # fmt: skip

    # -- nearest hit ---------------------------------------------------------------------------

    def nearest(self, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Per ray: the object it meets first (-1: none), where, and whether that is settled here."""
        from .kernel_hits import nearest

        m = len(rows)
        if self.other_always or not m:
            return np.full(m, -1, dtype=np.int64), np.full(m, np.nan), np.full(m, np.nan), np.zeros(m, bool)
        bound = self.other.min_bound(rows[:, X1 : Y2 + 1]) if self.other.primitives else np.full(m, np.inf)
        found = np.empty(m, dtype=np.int64), np.empty(m), np.empty(m), np.empty(m, dtype=bool)
        ml = self.min_len
        nearest(rows, self.table, self.kind, self.owner, self.order, self.boxes, self.grid_tables,
                self.grid is not None, self.min_sq, self.reach, CLEAR_SEGMENTS * ml, START_SEGMENTS * ml,
                bound, found)  # fmt: skip
        return found

    # -- physics -------------------------------------------------------------------------------

    def meet(
        self,
        rows: np.ndarray,
        slots: np.ndarray,
        obj: np.ndarray,
        hit: tuple[np.ndarray, np.ndarray],
        vector: np.ndarray,
        alive: np.ndarray,
        single: np.ndarray,
        do_single: Callable[[int], None],
    ) -> Met:
        """The chunk's rays meet their glasses in slot order: ``vector`` ones here (``rows`` moved
        on and ``alive`` cleared in place), the live rays of objects flagged ``single`` by
        ``do_single(k)`` at their turn (they may draw random numbers). Returns the reflected rays."""
        from .kernel_glass import AT, BYTES, CLASSIFY, DONE, FIRST_UNDEFINED, TEST_X, TEST_Y, refract_run

        m = len(rows)
        met = Met(np.empty((m, COLUMNS)), np.empty(m, dtype=np.int64))
        state = np.zeros(7)
        state[FIRST_UNDEFINED] = -1
        given = np.array([-1.0, 0.0, 0.0, 0.0])
        rng = self.settings.rng
        wanted = 16 * int(np.count_nonzero(vector & self.outline[np.maximum(obj, 0)])) + 64
        buffer = rng.window(wanted)
        k = 0
        while True:
            state[AT] = rng.at
            status, k = refract_run(k, rows, slots, obj, hit[0], hit[1], vector, alive, single, self.glass,
                                    self.edge_tables, given, buffer, self.limits, met.children, met.child_of,
                                    state)  # fmt: skip
            rng.at = int(state[AT])
            met.note(state, self.objs)
            if status == DONE:
                met.children, met.child_of = met.children[: met.count], met.child_of[: met.count]
                return met
            if status == CLASSIFY:
                o = int(obj[k])
                ray = Ray((rows[k, X1], rows[k, Y1]), (rows[k, X2], rows[k, Y2]))
                _, normal, kind = classify_with(
                    self.edges[o], self.min_sq, ray, (state[TEST_X], state[TEST_Y])
                )
                given[:] = (k, kind, normal[0], normal[1])
            elif status == BYTES:
                buffer = rng.window(len(buffer) - rng.at + 1024)
            else:
                do_single(k)
                k += 1
                buffer = rng.window(wanted)


@dataclass
class Met:
    """What a chunk's rays left at the glasses they met: reflected rays (``children``, each from
    the chunk's ray ``child_of``), brightness truncated and undefined, and where rays first met
    undefined behaviour."""

    children: np.ndarray
    child_of: np.ndarray
    count: int = 0
    truncation: float = 0.0
    undefined: float = 0.0
    undefined_objs: list[str] = field(default_factory=list)

    def note(self, state: np.ndarray, objs: list[SceneObj]) -> None:
        from .kernel_glass import CHILDREN, FIRST_UNDEFINED, TRUNCATION, UNDEFINED

        self.count = int(state[CHILDREN])
        self.truncation += float(state[TRUNCATION])
        self.undefined += float(state[UNDEFINED])
        state[TRUNCATION] = state[UNDEFINED] = 0.0
        first = int(state[FIRST_UNDEFINED])
        if first >= 0 and not self.undefined_objs:
            self.undefined_objs = [objs[first].name or objs[first].type]


def _grid_tables(grid: Grid | None) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The grid as the kernel reads it: origin, far corner and shape; cell size; cell starts; items."""
    if grid is None:
        return np.zeros(6), np.ones(2), np.zeros(1, dtype=np.int64), np.zeros(0, dtype=np.int64)
    frame = np.array([*grid.origin, *grid.top, *grid.shape], dtype=float)
    return frame, np.asarray(grid.cell, dtype=float), grid.start, grid.items
