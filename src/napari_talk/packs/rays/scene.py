"""The data model of a 2-D ray-optics scene: named glass polygons and light sources.

Coordinates are the scene's own ``(x, y)``; light sources emit rays whose brightness is split
equally between the s and p polarizations. Everything here is immutable: an edited glass is a
new :class:`Glass`, an edited scene a new :class:`Scene`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Literal

import numpy as np

from .file_object import FileObject
from .outline import Outline
from .polygons import boxes_meeting, clean_polygon, interiors_meet

GREEN_NM = 540.0
"""The default wavelength of ray-optics light sources (only used when colours are simulated)."""

EdgeLabels = Literal["index", "cardinal"] | tuple[tuple[str, str], ...]


@dataclass(frozen=True, eq=False)
class Glass:
    """A glass object: a simple polygon with straight edges and a refractive index.

    ``cauchy_b`` (µm²) gives the dispersion n(λ) = ref_index + cauchy_b / λ², used only when the
    scene simulates colours, as in ray-optics. Edge ``i`` runs from vertex ``i`` to ``i + 1``.

    A curved glass (:meth:`from_outline`) keeps its :class:`Outline`; its vertices are the
    outline's tessellation, each arc a run of facets. Labels then name the outline's sides (an
    arc is one side), and each facet is labelled after its side (see ``edges``).
    """

    name: str
    vertices: np.ndarray
    ref_index: float = 1.5
    cauchy_b: float = 0.004
    labels: EdgeLabels = "index"
    """How edges (sides, for a curved glass) are labelled: by index ("0", "1", ...), by cardinal
    direction, or explicitly."""
    outline: Outline | None = None
    """The arcs and straight sides a curved glass was given; None for a polygon."""

    @classmethod
    def from_outline(
        cls,
        name: str,
        outline: Outline,
        ref_index: float = 1.5,
        cauchy_b: float = 0.004,
        labels: EdgeLabels = "index",
    ) -> Glass:
        """A glass shaped by an outline: its tessellation if it has arcs, else its polygon."""
        vertices = outline.tessellation[0]
        kept = outline if outline.curved else None
        return cls(name, vertices, ref_index, cauchy_b, labels, kept)

    def __post_init__(self) -> None:
        vertices = clean_polygon(self.name, self.vertices)
        vertices.flags.writeable = False
        object.__setattr__(self, "vertices", vertices)
        if self.outline is not None and len(vertices) != len(self.outline.tessellation[0]):
            raise ValueError(f"glass {self.name!r}: its outline has repeated points")
        if not (math.isfinite(self.ref_index) and self.ref_index > 0):
            raise ValueError(f"glass {self.name!r}: the refractive index must be > 0, not {self.ref_index}")
        if not math.isfinite(self.cauchy_b):
            raise ValueError(f"glass {self.name!r}: cauchy_b must be a finite number")
        if not isinstance(self.labels, str):
            labels = tuple((str(short), str(long)) for short, long in self.labels)
            if len(labels) != self.n_sides:
                sides = "edges" if self.outline is None else "sides"
                raise ValueError(f"glass {self.name!r}: {self.n_sides} {sides} but {len(labels)} labels")
            object.__setattr__(self, "labels", labels)
        elif self.labels not in ("index", "cardinal"):
            raise ValueError(f"glass {self.name!r}: labels must be 'index', 'cardinal' or a list")

    @property
    def n_edges(self) -> int:
        return len(self.vertices)

    @property
    def n_sides(self) -> int:
        """Edges of a polygon; straight sides and arcs of a curved glass."""
        return len(self.vertices) if self.outline is None else len(self.outline.sides)

    @property
    def starts(self) -> np.ndarray:
        return self.vertices

    @cached_property
    def ends(self) -> np.ndarray:
        return np.roll(self.vertices, -1, axis=0)

    @cached_property
    def signed_area(self) -> float:
        x, y = self.vertices.T
        return 0.5 * float(np.dot(x, np.roll(y, -1)) - np.dot(np.roll(x, -1), y))

    @cached_property
    def outward_normals(self) -> np.ndarray:
        """Unit normals of the edges pointing out of the glass, (n_edges, 2)."""
        d = self.ends - self.starts
        normals = np.stack([d[:, 1], -d[:, 0]], axis=1)  # right of the edge: outside when counter-clockwise
        if self.signed_area < 0:
            normals = -normals
        return normals / np.linalg.norm(normals, axis=1, keepdims=True)

    @cached_property
    def facet_centres(self) -> np.ndarray:
        """The centre of the circle each edge is a facet of, (n_edges, 2); NaN for straight edges.

        Tracers refract and reflect at a facet with the circle's normal where the ray meets it, so
        the facets stand in for the arc's position only (their normals would be off by up to half
        the angle a facet spans)."""
        centres = np.full((self.n_edges, 2), np.nan)
        if self.outline is not None:
            side_of = self.outline.tessellation[1]
            for index, side in enumerate(self.outline.sides):
                if side.curved:
                    centres[side_of == index] = side.circle[0]
        return centres

    @property
    def vertex_centroid(self) -> np.ndarray:
        return self.vertices.mean(axis=0)

    def index_at(self, wavelength_nm: np.ndarray | float) -> np.ndarray | float:
        """Refractive index at a wavelength (nm); NaN means no dispersion."""
        wavelength = np.asarray(wavelength_nm, dtype=float)
        n = self.ref_index + self.cauchy_b / (wavelength / 1000.0) ** 2
        return np.where(np.isnan(wavelength), self.ref_index, n)

    def moved_to(self, vertices: np.ndarray) -> Glass:
        """The same glass with new vertices (explicit labels are dropped if the edge count changes).

        A curved glass moved as a whole keeps its arcs; reshaped, it becomes the polygon given."""
        vertices = np.asarray(vertices, dtype=float)
        if self.outline is not None and vertices.shape == self.vertices.shape:
            shift = (vertices - self.vertices).mean(axis=0)
            tolerance = 1e-9 * max(float(np.ptp(self.vertices, axis=0).max()), 1.0)
            if np.abs(vertices - self.vertices - shift).max() <= tolerance:
                if not shift.any():
                    return self
                return Glass.from_outline(
                    self.name,
                    self.outline.translated(*map(float, shift)),
                    self.ref_index,
                    self.cauchy_b,
                    self.labels,
                )
        labels = self.labels
        if not isinstance(labels, str) and len(labels) != len(clean_polygon(self.name, vertices)):
            labels = "index"
        return replace(self, vertices=vertices, labels=labels, outline=None)


Point = tuple[float, float]


@dataclass(frozen=True)
class SingleRay:
    """One ray from ``p1`` towards ``p2``."""

    p1: Point
    p2: Point
    brightness: float = 1.0
    wavelength: float = GREEN_NM

    def emit(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        origin = np.array([self.p1], dtype=float)
        direction = np.subtract(self.p2, self.p1, dtype=float).reshape(1, 2)
        norm = np.linalg.norm(direction)
        if norm == 0:
            raise ValueError("a single ray needs two different points")
        return origin, direction / norm, np.array([self.brightness], dtype=float)


@dataclass(frozen=True)
class PointSource:
    """``n_rays`` rays in all directions, evenly spaced, each of ``brightness`` (as ray-optics: the
    first one along +y, then turning towards +x)."""

    x: float
    y: float
    n_rays: int = 36
    brightness: float = 1.0
    wavelength: float = GREEN_NM

    def emit(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        if self.n_rays < 1:
            raise ValueError("a point source needs at least one ray")
        angles = 2 * np.pi * np.arange(self.n_rays) / self.n_rays
        directions = np.stack([np.sin(angles), np.cos(angles)], axis=1)
        origins = np.broadcast_to(np.array([self.x, self.y], dtype=float), directions.shape).copy()
        return origins, directions, np.full(self.n_rays, float(self.brightness))


@dataclass(frozen=True)
class Beam:
    """``n_rays`` parallel rays from points of the segment ``p1``–``p2``, leaving it at a right
    angle (to the right of p1 → p2 in x-right, y-down screen terms, as ray-optics).

    The rays start half a spacing in from ``p1`` and ``ray_spacing`` apart (ray-optics' layout,
    where the count can be 0 for a short beam); without a spacing they divide the segment into
    ``n_rays`` equal parts, one ray at the middle of each."""

    p1: Point
    p2: Point
    n_rays: int = 10
    brightness: float = 1.0
    wavelength: float = GREEN_NM
    ray_spacing: float | None = None

    def emit(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        if self.n_rays < 0 or (self.n_rays == 0 and self.ray_spacing is None):
            raise ValueError("a beam needs at least one ray")
        if self.ray_spacing is not None and not (math.isfinite(self.ray_spacing) and self.ray_spacing > 0):
            raise ValueError("a beam's ray spacing must be > 0")
        p1, p2 = np.asarray(self.p1, dtype=float), np.asarray(self.p2, dtype=float)
        along = p2 - p1
        length = np.linalg.norm(along)
        if length == 0:
            raise ValueError("a beam needs two different end points")
        spacing = length / self.n_rays if self.ray_spacing is None else self.ray_spacing
        positions = (np.arange(self.n_rays) + 0.5) * (spacing / length)
        origins = p1 + positions[:, None] * along
        direction = np.array([along[1], -along[0]]) / length
        return origins, np.tile(direction, (self.n_rays, 1)), np.full(self.n_rays, float(self.brightness))


@dataclass(frozen=True)
class AngleSource:
    """ray-optics' AngleSource: rays from ``p1`` in a fan of ``emis_angle`` degrees about the
    direction towards ``p2`` (centred on it when ``symmetric``, else starting from it), one every
    ``n_rays``-th of a turn, as a point source of that count spaces them."""

    p1: Point
    p2: Point
    emis_angle: float = 36.001
    symmetric: bool = True
    n_rays: int = 50
    """Rays a full turn would hold (ray-optics: 500 × its density); the fan holds its share."""
    brightness: float = 1.0
    wavelength: float = GREEN_NM

    def emit(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        if self.n_rays < 1:
            raise ValueError("an angle source needs at least one ray a turn")
        x1, y1 = map(float, self.p1)
        x2, y2 = map(float, self.p2)
        if (x1, y1) == (x2, y2):
            raise ValueError("an angle source needs a direction: two different points")
        step = 2 * math.pi / self.n_rays
        spread = math.radians(self.emis_angle)
        first, last = (-spread / 2, spread / 2 - 1e-5) if self.symmetric else (0.0, spread - 1e-5)
        offsets = first + step * np.arange(max(0, math.ceil((last - first) / step)))
        offsets = offsets[offsets < last]
        angles = math.atan2(y2 - y1, x2 - x1) + offsets
        directions = np.stack([np.cos(angles), np.sin(angles)], axis=1)
        origins = np.tile([x1, y1], (len(angles), 1)).astype(float)
        return origins, directions, np.full(len(angles), float(self.brightness))


LightSource = SingleRay | PointSource | Beam | AngleSource


@dataclass(frozen=True)
class Mirror:
    """A flat mirror from ``p1`` to ``p2``, reflecting on both sides: a ray meeting it (its ends
    included) is reflected with all its energy (angle of incidence = angle of reflection)."""

    p1: Point
    p2: Point

    def __post_init__(self) -> None:
        _check_segment("a mirror", self.p1, self.p2)


@dataclass(frozen=True)
class IdealLens:
    """An ideal thin lens from ``p1`` to ``p2`` with a focal length (> 0 converging, < 0
    diverging): a ray crossing it at height h from its centre, with slope m to its axis, leaves
    with slope m − h / f and all its energy, so every ray from a point meets at its image."""

    p1: Point
    p2: Point
    focal_length: float = 100.0

    def __post_init__(self) -> None:
        _check_segment("an ideal lens", self.p1, self.p2)
        if not (math.isfinite(self.focal_length) and self.focal_length != 0):
            raise ValueError(f"an ideal lens needs a finite, non-zero focal length, not {self.focal_length}")


Element = Mirror | IdealLens
"""Thin optical elements: segments rays meet from either side."""


@dataclass(frozen=True)
class Detector:
    """ray-optics' Detector: a line from ``p1`` to ``p2`` that light crosses unchanged, measuring
    the power crossing it in bins of ``bin_size`` (its irradiance map); one-sided unless
    ``two_sided``. Tracers do not see it: its reading comes from the traced segments."""

    p1: Point
    p2: Point
    bin_size: float = 1.0
    two_sided: bool = True
    irrad_map: bool = True
    """Whether the file asks for its irradiance map (ray-optics' ``irradMap``, written back as read);
    the pack measures every detector's."""

    def __post_init__(self) -> None:
        _check_segment("a detector", self.p1, self.p2)
        if not (math.isfinite(self.bin_size) and self.bin_size > 0):
            raise ValueError(f"a detector's bin size must be > 0, not {self.bin_size}")


def _check_segment(what: str, p1: Point, p2: Point) -> None:
    if not all(math.isfinite(float(v)) for v in (*p1, *p2)):
        raise ValueError(f"{what} needs finite end points")
    if tuple(map(float, p1)) == tuple(map(float, p2)):
        raise ValueError(f"{what} needs two different end points")


@dataclass(frozen=True, eq=False)
class Scene:
    """Glasses and light sources; glass names are unique."""

    glasses: tuple[Glass, ...] = ()
    sources: tuple[LightSource, ...] = ()
    name: str = "scene"
    simulate_colors: bool = False
    """Use each source's wavelength and the glasses' Cauchy dispersion (ray-optics' simulateColors)."""
    warnings: tuple[str, ...] = field(default=(), compare=False)
    """What loading left out (unsupported objects), shown with the trace summary."""
    elements: tuple[Element, ...] = ()
    """Mirrors and ideal lenses."""
    detectors: tuple[Detector, ...] = ()
    """Lines that measure the light crossing them."""
    others: tuple[FileObject, ...] = ()
    """Objects of every other kind, kept as the scene file gives them (the simulator traces them)."""
    settings: str = "{}"
    """The file's scene-wide settings other than its objects (JSON), written back as read."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "detectors", tuple(self.detectors))
        object.__setattr__(self, "others", tuple(self.others))
        object.__setattr__(self, "glasses", tuple(self.glasses))
        object.__setattr__(self, "sources", tuple(self.sources))
        object.__setattr__(self, "elements", tuple(self.elements))
        seen: set[str] = set()
        for glass in self.glasses:
            if glass.name in seen:
                raise ValueError(f"two glasses are named {glass.name!r}; glass names must be unique")
            seen.add(glass.name)
        for i, j in boxes_meeting([glass.vertices for glass in self.glasses]):
            first, second = self.glasses[i], self.glasses[j]
            if interiors_meet(first.vertices, second.vertices):
                raise ValueError(
                    f"glasses {first.name!r} and {second.name!r} overlap (one inside the other, or "
                    "crossing): light is traced as if air were outside every glass, so overlapping "
                    "glasses would give wrong results; let them touch along an edge instead"
                )

    @property
    def names(self) -> list[str]:
        return [glass.name for glass in self.glasses]

    @property
    def objects(self) -> tuple[Glass | LightSource | Element | Detector | FileObject, ...]:
        """Every object, glasses first, then light sources, elements, detectors and the others: a
        trace names them by their position here (see ``SimulationResult.objects``)."""
        return (*self.glasses, *self.sources, *self.elements, *self.detectors, *self.others)

    def with_glasses(self, glasses: tuple[Glass, ...]) -> Scene:
        return replace(self, glasses=tuple(glasses))

    def bounds(self) -> tuple[np.ndarray, np.ndarray]:
        """(min xy, max xy) over glass vertices, source positions and element end points."""
        points = [glass.vertices for glass in self.glasses]
        for source in self.sources:
            if isinstance(source, AngleSource):
                points.append(np.array([source.p1], dtype=float))
            elif isinstance(source, PointSource):
                points.append(np.array([[source.x, source.y]]))
            else:
                points.append(np.array([source.p1, source.p2], dtype=float))
        points += [np.array([element.p1, element.p2], dtype=float) for element in self.elements]
        points += [np.array([d.p1, d.p2], dtype=float) for d in self.detectors]
        points += [np.array(o.points, dtype=float) for o in self.others if o.points and not o.decoration]
        if not points:
            return np.zeros(2), np.ones(2)
        stacked = np.concatenate(points)
        return stacked.min(axis=0), stacked.max(axis=0)

    @property
    def scale(self) -> float:
        """The diagonal of :meth:`bounds`, at least 1: sets tolerances and how far escaping rays go."""
        low, high = self.bounds()
        return max(float(np.hypot(*(high - low))), 1.0)


def get_object_by_name(scene: Scene, name: str) -> Glass:
    """The glass called exactly ``name``; a ValueError lists the names there are."""
    matches = [glass for glass in scene.glasses if glass.name == name]
    if not matches:
        available = scene.names
        raise ValueError(f"No object named '{name}'. Named objects: {available if available else '(none)'}")
    return matches[0]
