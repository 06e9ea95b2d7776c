"""The vectorized non-sequential tracer.

Rays are traced a generation at a time: every ray of a generation is intersected with every glass
edge in one set of array operations, the nearest hit of each ray is kept, Fresnel coefficients
are computed for all hits at once, and the reflected and refracted children (built with masks)
form the next generation. No Python code runs per ray.

At a hit the medium on each side comes from the edge's outward normal: a ray leaving a glass goes
into air, or into a second glass whose edge coincides with the hit (glasses sharing an edge).
Glasses are assumed not to overlap otherwise.

Grazing rays: a ray running along an edge's line does not meet that edge, and a ray through a
vertex is judged by the glass's corner there (the wedge between the vertex's two edges). Going
from outside the wedge to inside it, the ray enters through the vertex edge it meets more head-on
(the more negative d·n); from inside to outside it leaves through the edge it meets more head-on
(the larger d·n); a tie goes to the edge that ends at the vertex. Outside (or on the boundary) on
both sides, or inside on both (grazing a concave corner from within), it passes the vertex
untouched. "Along an edge" and "at a vertex" mean within :data:`PARALLEL_TOLERANCE` and
:data:`VERTEX_TOLERANCE`.
"""

from __future__ import annotations

import time
import uuid
from dataclasses import dataclass

import numpy as np

from .fresnel import fresnel_power
from .scene import IdealLens, Mirror, Scene
from .simulation import REFLECT, REFRACT, SOURCE, TIR, Segments, SimulationResult

DEFAULT_MIN_BRIGHTNESS = 0.01
"""Children dimmer than this are not traced (ray-optics' default); their energy is counted as
truncated."""
DEFAULT_MAX_SEGMENTS = 2_000_000
DEFAULT_MAX_DEPTH = 1000
"""Generations at most: a ray trapped by total internal reflection would otherwise never end."""
VERTEX_TOLERANCE = 1e-10
"""How close to an end of an edge (as a fraction of its length) a hit counts as at the vertex; the
slack also keeps a ray through a vertex from slipping between two edges."""
PARALLEL_TOLERANCE = 1e-10
"""A ray whose angle to an edge has a sine below this runs along the edge's line: it does not meet
the edge (only, perhaps, the vertices at its ends)."""


ON_ELEMENT = -2
CELL_BUDGET = 1_000_000
"""Rays × edges cells one generation step works on at once: a generation larger than this is traced
in chunks of rays, so memory stays bounded (about 100 bytes a cell) whatever the scene's size."""
"""``glass`` of the edges that are mirrors or ideal lenses (and ``end_glass`` of segments ending on
one, ``end_edge`` then being the element's index in the scene)."""


@dataclass(frozen=True)
class _Edges:
    """Every glass edge, then every mirror and ideal lens, as flat arrays."""

    ax: np.ndarray
    ay: np.ndarray
    ex: np.ndarray
    ey: np.ndarray
    normal: np.ndarray
    glass: np.ndarray
    """The glass of each edge; :data:`ON_ELEMENT` for a mirror or a lens."""
    local: np.ndarray
    """The edge's index in its glass, or the element's in the scene."""
    ref_index: np.ndarray
    cauchy_b: np.ndarray
    previous: np.ndarray
    """The edge of the same glass ending where each edge starts (an element: itself)."""
    following: np.ndarray
    """The edge of the same glass starting where each edge ends (an element: itself)."""
    convex: np.ndarray
    """Whether the glass's corner at each edge's start is convex (or straight)."""
    mirror: np.ndarray
    focal_length: np.ndarray
    """Of each ideal lens; NaN for other edges."""
    centre: np.ndarray
    """Of the circle each arc facet stands for; NaN for straight edges and elements."""

    @classmethod
    def of(cls, scene: Scene) -> _Edges:
        glasses, elements = scene.glasses, scene.elements
        starts = [g.starts for g in glasses] + [np.array([el.p1], float) for el in elements]
        ends = [g.ends for g in glasses] + [np.array([el.p2], float) for el in elements]
        a = np.concatenate(starts) if starts else np.zeros((0, 2))
        e = (np.concatenate(ends) if ends else np.zeros((0, 2))) - a
        counts = np.array([g.n_edges for g in glasses] + [1] * len(elements), dtype=int)
        group = np.repeat(np.arange(len(counts)), counts)
        index = np.arange(len(group))
        local = index - np.repeat(np.cumsum(counts) - counts, counts)
        previous = index - local + (local - 1) % counts[group]
        following = index - local + (local + 1) % counts[group]
        on_element = group >= len(glasses)
        normal = np.stack([e[:, 1], -e[:, 0]], axis=1) / np.hypot(e[:, 0], e[:, 1])[:, None]
        if glasses:
            normal[~on_element] = np.concatenate([g.outward_normals for g in glasses])
        # convex where the edge turns away from the previous edge's outside
        convex = np.einsum("ij,ij->i", e, normal[previous]) <= 0
        kinds = [isinstance(el, Mirror) for el in elements]
        focal = [el.focal_length if isinstance(el, IdealLens) else np.nan for el in elements]
        n_glass_edges = len(group) - len(elements)
        return cls(
            ax=a[:, 0].copy(),
            ay=a[:, 1].copy(),
            ex=e[:, 0].copy(),
            ey=e[:, 1].copy(),
            normal=normal,
            glass=np.where(on_element, ON_ELEMENT, group),
            local=np.where(on_element, group - len(glasses), local),
            ref_index=np.array([g.ref_index for g in glasses], dtype=float),
            cauchy_b=np.array([g.cauchy_b for g in glasses], dtype=float),
            previous=previous,
            following=following,
            convex=convex | on_element,
            mirror=np.concatenate([np.zeros(n_glass_edges, bool), np.array(kinds, bool)]),
            focal_length=np.concatenate([np.full(n_glass_edges, np.nan), np.array(focal, float)]),
            centre=np.concatenate([g.facet_centres for g in glasses] + [np.full((len(elements), 2), np.nan)]),
        )

    def surface_normal(self, e: np.ndarray, point: np.ndarray, direction: np.ndarray) -> np.ndarray:
        """The outward normal of the glass at ``point`` on edge ``e``: the edge's, or on an arc
        facet the circle's there (the facet's where the ray meets the two on different sides,
        so a ray grazing an arc is judged as the facet's crossing rules judged it)."""
        normal = self.normal[e].copy()
        curved = np.flatnonzero(~np.isnan(self.centre[e, 0]))
        if len(curved):
            facet = normal[curved]
            radial = point[curved] - self.centre[e[curved]]
            radial /= np.linalg.norm(radial, axis=1, keepdims=True)
            radial *= np.sign(np.einsum("ij,ij->i", radial, facet))[:, None]
            d = direction[curved]
            same = (np.einsum("ij,ij->i", d, radial) > 0) == (np.einsum("ij,ij->i", d, facet) > 0)
            normal[curved[same]] = radial[same]
        return normal

    def index(self, glass: np.ndarray, wavelength: np.ndarray) -> np.ndarray:
        """Refractive index of ``glass`` at ``wavelength`` (nm, NaN: no dispersion)."""
        n = self.ref_index[glass]
        dispersed = ~np.isnan(wavelength)
        if dispersed.any():
            n = n.copy()
            n[dispersed] += self.cauchy_b[glass[dispersed]] / (wavelength[dispersed] / 1000.0) ** 2
        return n


@dataclass
class _Rays:
    """One generation of rays waiting to be traced."""

    origin: np.ndarray
    direction: np.ndarray
    s: np.ndarray
    p: np.ndarray
    wavelength: np.ndarray
    parent: np.ndarray
    interaction: np.ndarray
    depth: np.ndarray
    source: np.ndarray
    last_edge: np.ndarray

    def __len__(self) -> int:
        return len(self.s)

    def take(self, which: np.ndarray | slice) -> _Rays:
        return _Rays(**{name: value[which] for name, value in vars(self).items()})

    @staticmethod
    def join(parts: list[_Rays]) -> _Rays:
        return _Rays(**{name: np.concatenate([getattr(p, name) for p in parts]) for name in vars(parts[0])})


def _emit(scene: Scene) -> _Rays:
    parts = []
    for index, source in enumerate(scene.sources):
        origin, direction, brightness = source.emit()
        n = len(brightness)
        wavelength = np.full(n, float(source.wavelength) if scene.simulate_colors else np.nan)
        parts.append(
            _Rays(
                origin=origin,
                direction=direction,
                s=brightness / 2,
                p=brightness / 2,
                wavelength=wavelength,
                parent=np.full(n, -1, dtype=np.int64),
                interaction=np.full(n, SOURCE, dtype=np.int8),
                depth=np.zeros(n, dtype=np.int32),
                source=np.full(n, index, dtype=np.int32),
                last_edge=np.full(n, -1, dtype=np.int64),
            )
        )
    if not parts:
        return _Rays(
            *(np.zeros((0, 2)),) * 2,
            *(np.zeros(0),) * 3,
            np.zeros(0, np.int64),
            np.zeros(0, np.int8),
            np.zeros(0, np.int32),
            np.zeros(0, np.int32),
            np.zeros(0, np.int64),
        )
    return _Rays.join(parts)


def _distances(rays: _Rays, edges: _Edges, eps: float) -> np.ndarray:
    """Distance along each ray to each edge, inf where it misses: (rays, edges)."""
    ox, oy = rays.origin[:, 0:1], rays.origin[:, 1:2]
    dx, dy = rays.direction[:, 0:1], rays.direction[:, 1:2]
    qx = edges.ax - ox
    qy = edges.ay - oy
    den = dx * edges.ey
    den -= dy * edges.ex
    along = np.abs(den) <= PARALLEL_TOLERANCE * np.hypot(edges.ex, edges.ey)
    with np.errstate(divide="ignore", invalid="ignore"):
        np.reciprocal(den, out=den)
        t = qx * edges.ey
        t -= qy * edges.ex
        t *= den
        u = qx * dy
        u -= qy * dx
        u *= den
    hit = (t > eps) & (u >= -VERTEX_TOLERANCE) & (u <= 1 + VERTEX_TOLERANCE) & ~along
    t[~hit] = np.inf
    follows = np.flatnonzero(rays.last_edge >= 0)
    t[follows, rays.last_edge[follows]] = np.inf  # a ray leaving an edge cannot hit it again
    return t


def _edge_parameter(origin: np.ndarray, direction: np.ndarray, e: np.ndarray, edges: _Edges) -> np.ndarray:
    """Where along edge ``e`` (0 at its start, 1 at its end) each ray meets its line."""
    qx, qy = edges.ax[e] - origin[:, 0], edges.ay[e] - origin[:, 1]
    dx, dy = direction[:, 0], direction[:, 1]
    return (qx * dy - qy * dx) / (dx * edges.ey[e] - dy * edges.ex[e])


def _crossing(
    origin: np.ndarray, direction: np.ndarray, e: np.ndarray, edges: _Edges
) -> tuple[np.ndarray, np.ndarray]:
    """How each ray meets the glass of edge ``e`` where it meets the edge: +1 entering, -1 leaving,
    0 passing by (a vertex touched from outside, or a concave corner grazed from inside), and
    the edge it crosses (at a vertex, the one of its two edges the ray meets more head-on)."""
    u = _edge_parameter(origin, direction, e, edges)
    at_start = u <= VERTEX_TOLERANCE
    at_end = u >= 1 - VERTEX_TOLERANCE
    e_in = np.where(at_start, edges.previous[e], e)  # the edge ending at the vertex
    e_out = np.where(at_end, edges.following[e], e)  # the edge starting there
    a = np.einsum("ij,ij->i", direction, edges.normal[e_in])
    b = np.einsum("ij,ij->i", direction, edges.normal[e_out])
    convex = edges.convex[e_out]
    tol = PARALLEL_TOLERANCE
    after = np.where(convex, (a < -tol) & (b < -tol), (a < -tol) | (b < -tol))  # just past: inside
    before = np.where(convex, (a > tol) & (b > tol), (a > tol) | (b > tol))  # just before: inside
    kind = after.astype(np.int8) - before.astype(np.int8)
    chosen = np.where(np.where(kind > 0, a <= b, a >= b), e_in, e_out)  # a tie: the edge ending there
    # inside an edge (not at a vertex) e_in = e_out = e and a = b: the sign of d·n decides
    return kind, chosen


def _nearest(t: np.ndarray, rays: _Rays, edges: _Edges) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each ray's nearest crossing: (edge, distance, +1 entering / -1 leaving, 0 for none).

    Vertices the ray only touches are struck out of ``t`` (both their edges) and the search goes
    on past them, so ``t`` afterwards holds only the edges a ray may really meet."""
    rows = np.arange(len(t))
    e_hit = np.argmin(t, axis=1)
    t_hit = t[rows, e_hit]
    kind = np.zeros(len(t), np.int8)
    pending = np.flatnonzero(np.isfinite(t_hit))
    while len(pending):
        e = e_hit[pending]
        found, chosen = _crossing(rays.origin[pending], rays.direction[pending], e, edges)
        kind[pending] = found
        e_hit[pending] = np.where(found != 0, chosen, e)
        passed = pending[found == 0]
        if not len(passed):
            break
        e = e_hit[passed]
        u = _edge_parameter(rays.origin[passed], rays.direction[passed], e, edges)
        t[passed, e] = np.inf
        t[passed, np.where(u <= VERTEX_TOLERANCE, edges.previous[e], e)] = np.inf
        t[passed, np.where(u >= 1 - VERTEX_TOLERANCE, edges.following[e], e)] = np.inf
        e_hit[passed] = np.argmin(t[passed], axis=1)
        t_hit[passed] = t[passed, e_hit[passed]]
        pending = passed[np.isfinite(t_hit[passed])]
    return e_hit, t_hit, kind


def trace(
    scene: Scene,
    *,
    min_brightness: float = DEFAULT_MIN_BRIGHTNESS,
    max_segments: int = DEFAULT_MAX_SEGMENTS,
    max_depth: int = DEFAULT_MAX_DEPTH,
    escape_length: float | None = None,
) -> SimulationResult:
    """Trace every source ray of ``scene`` and all its descendants down to ``min_brightness``.

    ``max_segments`` and ``max_depth`` bound the work; what they stop is reported in the
    summary's warnings and counted as truncated energy. Rays that hit nothing end
    ``escape_length`` away (the scene's diagonal by default).
    """
    if min_brightness < 0 or max_segments < 0 or max_depth < 1:
        raise ValueError("min_brightness and max_segments must be >= 0 and max_depth >= 1")
    started = time.perf_counter()
    edges = _Edges.of(scene)
    scale = scene.scale
    eps = 1e-9 * scale
    escape = float(escape_length) if escape_length is not None else scale
    rays = _emit(scene)
    source_energy = float((rays.s + rays.p).sum())
    chunks: list[dict[str, np.ndarray]] = []
    stopped: list[tuple[np.ndarray, np.ndarray]] = []  # (parent ids, energy) of rays never traced
    warnings = list(scene.warnings)
    count = depth = 0
    while len(rays):
        room = max_segments - count
        too_deep = depth >= max_depth
        if too_deep or room < len(rays):
            cut = rays.take(slice(0 if too_deep else room, None))
            stopped.append((cut.parent, cut.s + cut.p))
            reason = (
                f"the depth limit ({max_depth})" if too_deep else f"the ray limit ({max_segments} segments)"
            )
            warnings.append(f"{len(cut)} rays were not traced: {reason} was reached")
            rays = rays.take(slice(0, 0 if too_deep else room))
            if not len(rays):
                break
        chunk, rays = _generation(rays, edges, count, eps, escape, min_brightness, len(scene.glasses) > 1)
        chunks.append(chunk)
        count += len(chunk["parent"])
        depth += 1
    segments = Segments.concatenate(chunks or [_empty_chunk()], run_id=uuid.uuid4())
    below_threshold = float(segments.lost.sum())
    unfinished = 0.0
    for parents, energy in stopped:
        unfinished += float(energy.sum())
        traced = parents >= 0
        np.add.at(segments.lost, parents[traced], energy[traced])
    summary = _summary(scene, segments, source_energy, below_threshold, unfinished, warnings, depth)
    summary["settings"] = {
        "min_brightness": min_brightness,
        "max_segments": max_segments,
        "max_depth": max_depth,
    }
    summary["trace_seconds"] = round(time.perf_counter() - started, 6)
    return SimulationResult(scene.name, segments, summary)


def _generation(
    rays: _Rays, edges: _Edges, first_id: int, eps: float, escape: float, min_brightness: float, several: bool
) -> tuple[dict[str, np.ndarray], _Rays]:
    """Trace one generation: its segments, and the rays it hands on (in chunks of rays when the
    rays × edges work would pass :data:`CELL_BUDGET`)."""
    m = len(rays)
    step = max(1, CELL_BUDGET // max(1, len(edges.glass)))
    if m > step:
        parts = [
            _generation(rays.take(slice(i, i + step)), edges, first_id + i, eps, escape, min_brightness,
                        several)
            for i in range(0, m, step)
        ]  # fmt: skip
        chunk = {key: np.concatenate([c[key] for c, _ in parts]) for key in parts[0][0]}
        handed = [r for _, r in parts if len(r)]
        return chunk, (_Rays.join(handed) if handed else rays.take(slice(0, 0)))
    return _generation_chunk(rays, edges, first_id, eps, escape, min_brightness, several)


def _generation_chunk(
    rays: _Rays, edges: _Edges, first_id: int, eps: float, escape: float, min_brightness: float, several: bool
) -> tuple[dict[str, np.ndarray], _Rays]:
    m = len(rays)
    rows = np.arange(m)
    if len(edges.glass):
        t = _distances(rays, edges, eps)
        e_hit, t_hit, _ = _nearest(t, rays, edges)
        hit = np.isfinite(t_hit)
    else:
        t, e_hit, t_hit, hit = None, np.zeros(m, int), np.full(m, np.inf), np.zeros(m, bool)
    length = np.where(hit, t_hit, escape)
    end = rays.origin + rays.direction * length[:, None]
    ids = first_id + rows
    end_glass = np.where(hit, edges.glass[e_hit] if len(edges.glass) else -1, -1).astype(np.int32)
    end_edge = np.where(hit, edges.local[e_hit] if len(edges.glass) else -1, -1).astype(np.int32)
    lost = np.zeros(m)
    chunk = {
        "p1": rays.origin,
        "p2": end,
        "brightness_s": rays.s,
        "brightness_p": rays.p,
        "wavelength": rays.wavelength,
        "parent": rays.parent,
        "interaction": rays.interaction,
        "depth": rays.depth,
        "source": rays.source,
        "end_glass": end_glass,
        "end_edge": end_edge,
        "lost": lost,
    }
    h = np.flatnonzero(hit)
    if not len(h):
        return chunk, rays.take(slice(0, 0))
    on_element = edges.glass[e_hit[h]] == ON_ELEMENT
    children: list[_Rays] = []
    for rows_here, handler in ((h[~on_element], _at_glass), (h[on_element], _at_element)):
        if len(rows_here):
            born, lost[rows_here] = handler(
                rays.take(rows_here), e_hit[rows_here], end[rows_here], ids[rows_here], edges, min_brightness,
                None if t is None or not several else (t[rows_here], t_hit[rows_here], eps),
            )  # fmt: skip
            children += born
    return chunk, _Rays.join(children)


def _children(
    rays: _Rays, point: np.ndarray, direction: np.ndarray, s: np.ndarray, p: np.ndarray, kind: np.ndarray,
    parent: np.ndarray, e: np.ndarray,
) -> _Rays:  # fmt: skip
    return _Rays(
        origin=point,
        direction=direction,
        s=s,
        p=p,
        wavelength=rays.wavelength,
        parent=parent,
        interaction=kind.astype(np.int8),
        depth=rays.depth + 1,
        source=rays.source,
        last_edge=e,
    )


def _at_glass(
    rays: _Rays,
    e: np.ndarray,
    point: np.ndarray,
    parent: np.ndarray,
    edges: _Edges,
    min_brightness: float,
    coincident: tuple[np.ndarray, np.ndarray, float] | None,
) -> tuple[list[_Rays], np.ndarray]:
    """Fresnel reflection and refraction at glass edges: the children kept, and the energy of
    those below the threshold. ``coincident`` (distances to every edge, to the hit, and the
    tolerance) is given when other glasses may meet the ray at the same point."""
    d = rays.direction
    wavelength = rays.wavelength
    g = edges.glass[e]
    normal = edges.surface_normal(e, point, d)
    along = np.einsum("ij,ij->i", d, normal)
    leaving = along > 0
    n_glass = edges.index(g, wavelength)
    n_beyond = np.ones(len(e))
    if coincident is not None:
        n_beyond = _other_side(*coincident[:2], g, point, d, leaving, edges, wavelength, coincident[2])
    n1 = np.where(leaving, n_glass, n_beyond)
    n2 = np.where(leaving, n_beyond, n_glass)

    cos_i = np.abs(along)
    facing = np.where(leaving, -1.0, 1.0)[:, None] * normal  # unit normal against the ray
    r_s, r_p, cos_t, tir = fresnel_power(n1, n2, cos_i)
    s, p = rays.s, rays.p

    reflect_dir = d + (2 * cos_i)[:, None] * facing
    eta = n1 / n2
    refract_dir = eta[:, None] * d + (eta * cos_i - cos_t)[:, None] * facing
    reflect_dir /= np.linalg.norm(reflect_dir, axis=1, keepdims=True)
    with np.errstate(invalid="ignore", divide="ignore"):
        refract_dir /= np.linalg.norm(refract_dir, axis=1, keepdims=True)

    rs, rp = s * r_s, p * r_p
    ts, tp = s - rs, p - rp  # T = 1 − R: energy is conserved at the interface
    keep_reflect = rs + rp >= min_brightness
    keep_refract = ~tir & (ts + tp >= min_brightness)
    lost = np.where(keep_reflect, 0.0, rs + rp) + np.where(tir | keep_refract, 0.0, ts + tp)
    reflected = _children(rays, point, reflect_dir, rs, rp, np.where(tir, TIR, REFLECT), parent, e)
    refracted = _children(rays, point, refract_dir, ts, tp, np.full(len(e), REFRACT), parent, e)
    return [reflected.take(keep_reflect), refracted.take(keep_refract)], lost


def _at_element(
    rays: _Rays,
    e: np.ndarray,
    point: np.ndarray,
    parent: np.ndarray,
    edges: _Edges,
    min_brightness: float,
    coincident: tuple[np.ndarray, np.ndarray, float] | None,
) -> tuple[list[_Rays], np.ndarray]:
    """Mirrors reflect all the energy (a ``reflect`` child); ideal lenses pass all of it, bent by
    the thin-lens rule (a ``refract`` child)."""
    d = rays.direction
    normal = edges.normal[e]
    along = np.einsum("ij,ij->i", d, normal)
    mirror = edges.mirror[e]
    direction = d - (2 * along)[:, None] * normal
    lens = np.flatnonzero(~mirror)
    if len(lens):
        direction[lens] = _through_lens(d[lens], point[lens], e[lens], along[lens], edges)
    keep = rays.s + rays.p >= min_brightness
    kind = np.where(mirror, REFLECT, REFRACT)
    child = _children(rays, point, direction, rays.s, rays.p, kind, parent, e)
    return [child.take(keep)], np.where(keep, 0.0, rays.s + rays.p)


def _through_lens(
    d: np.ndarray, point: np.ndarray, e: np.ndarray, along: np.ndarray, edges: _Edges
) -> np.ndarray:
    """Directions after ideal lenses: with the axis along the ray's way through the lens, the
    slope to the axis m becomes m − h / f, h the height of the crossing above the lens's centre."""
    tangent = np.stack([edges.ex[e], edges.ey[e]], axis=1)
    length = np.linalg.norm(tangent, axis=1)
    tangent /= length[:, None]
    centre = np.stack([edges.ax[e], edges.ay[e]], axis=1) + tangent * (length / 2)[:, None]
    height = np.einsum("ij,ij->i", point - centre, tangent)
    axis = np.sign(along)[:, None] * edges.normal[e]
    slope = np.einsum("ij,ij->i", d, tangent) / np.abs(along) - height / edges.focal_length[e]
    out = axis + slope[:, None] * tangent
    return out / np.linalg.norm(out, axis=1, keepdims=True)


def _other_side(
    t: np.ndarray,
    t_hit: np.ndarray,
    g: np.ndarray,
    point: np.ndarray,
    d: np.ndarray,
    leaving: np.ndarray,
    edges: _Edges,
    wavelength: np.ndarray,
    eps: float,
) -> np.ndarray:
    """Index of the medium across the hit edge: a second glass whose edge the ray meets at the same
    point (entering it as it leaves the first, or leaving it as it enters), else air (1)."""
    other = (edges.glass[None, :] != g[:, None]) & (edges.glass[None, :] != ON_ELEMENT)
    rows, e2 = np.nonzero((t <= (t_hit + eps)[:, None]) & other)
    n = np.ones(len(t_hit))
    if len(rows):
        kind, _ = _crossing(point[rows], d[rows], e2, edges)
        opposite = np.where(leaving[rows], kind > 0, kind < 0)
        rows, e2 = rows[opposite], e2[opposite]
        n[rows] = edges.index(edges.glass[e2], wavelength[rows])
    return n


def _empty_chunk() -> dict[str, np.ndarray]:
    return {
        "p1": np.zeros((0, 2)),
        "p2": np.zeros((0, 2)),
        "brightness_s": np.zeros(0),
        "brightness_p": np.zeros(0),
        "wavelength": np.zeros(0),
        "parent": np.zeros(0, np.int64),
        "interaction": np.zeros(0, np.int8),
        "depth": np.zeros(0, np.int32),
        "source": np.zeros(0, np.int32),
        "end_glass": np.zeros(0, np.int32),
        "end_edge": np.zeros(0, np.int32),
        "lost": np.zeros(0),
    }


def _summary(
    scene: Scene,
    segments: Segments,
    source_energy: float,
    below_threshold: float,
    unfinished: float,
    warnings: list[str],
    generations: int,
) -> dict:
    escaped = float(segments.total[segments.escaped].sum())
    truncated = below_threshold + unfinished
    counts = np.bincount(segments.interaction, minlength=4)
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
        "generations": generations,
        "source_energy": source_energy,
        "escaped_energy": escaped,
        "truncated_energy": truncated,
        "below_threshold_energy": below_threshold,
        "unfinished_energy": unfinished,
        "balance_error": source_energy - escaped - truncated,
        "warnings": warnings,
    }
