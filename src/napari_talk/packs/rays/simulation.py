"""What a trace produces: ray segments as parallel arrays, their lineage, and a summary.

A segment's id is its index in the full result; ``parent`` holds the id of the segment it came
from (-1 for a source ray). A subset (what a query returns) keeps the ids, so lineage lookups and
uuids stay the same. Uuid strings are made only when asked for (XML, agents): deterministic
per result, unique across results.
"""

from __future__ import annotations

import uuid as uuidlib
from dataclasses import dataclass, field, fields, replace
from functools import cached_property
from typing import Any

import numpy as np

INTERACTIONS = ("source", "reflect", "refract", "tir")
SOURCE, REFLECT, REFRACT, TIR = range(4)


@dataclass(frozen=True, eq=False)
class Segments:
    """Ray segments (a struct of arrays); index ``i`` of every array describes one segment."""

    ids: np.ndarray
    p1: np.ndarray
    p2: np.ndarray
    brightness_s: np.ndarray
    brightness_p: np.ndarray
    wavelength: np.ndarray
    """nm; NaN when the scene does not simulate colours."""
    parent: np.ndarray
    interaction: np.ndarray
    """Codes into :data:`INTERACTIONS`: how the segment was born."""
    depth: np.ndarray
    source: np.ndarray
    """The id of the object whose light the segment carries (a light source, or the module holding
    it): see :attr:`SimulationResult.objects`; -1: none."""
    end_glass: np.ndarray
    """The glass whose edge ends the segment, by its position among the scene's glasses; -1 when
    the ray escapes, -2 when it ends on another object (:attr:`end_object` says which)."""
    end_edge: np.ndarray
    """The edge's index in its glass; -1 when the segment does not end on a glass."""
    lost: np.ndarray
    """Energy that left the trace at this segment's end: children below the brightness threshold,
    or children the ray limit stopped."""
    weight: np.ndarray | None = None
    """The share of its brightness a segment takes from its parent: 1, or 1/amp for a faint
    partial reflection ray-optics keeps one in ``amp`` of, ``amp`` times brighter (None: all 1)."""
    end_object: np.ndarray | None = None
    """The id of the object the segment ends on (see :attr:`SimulationResult.objects`); -1 when
    the ray escapes (None: not known)."""
    run_id: uuidlib.UUID = field(default_factory=uuidlib.uuid4)

    def __len__(self) -> int:
        return len(self.ids)

    def take(self, which: np.ndarray | slice) -> Segments:
        """The segments selected by a boolean mask or an array of positions."""
        if isinstance(which, slice):
            arrays = {f.name: getattr(self, f.name)[which] for f in fields(self) if _array(self, f.name)}
            return replace(self, **arrays)
        which = np.asarray(which)
        # positions once, then np.take: a boolean mask applied to each of the arrays costs ~3x more
        rows = np.flatnonzero(which) if which.dtype == bool else which
        arrays = {
            f.name: np.take(getattr(self, f.name), rows, axis=0) for f in fields(self) if _array(self, f.name)
        }
        return replace(self, **arrays)

    def by_ids(self, ids: np.ndarray) -> Segments:
        """The segments with these ids (only valid on a full result, where id == position)."""
        return self.take(np.asarray(ids, dtype=np.int64))

    @property
    def total(self) -> np.ndarray:
        return self.brightness_s + self.brightness_p

    @property
    def degree_of_polarization(self) -> np.ndarray:
        """|p − s| / (p + s); 0 for a ray with no brightness."""
        total = self.total
        with np.errstate(invalid="ignore", divide="ignore"):
            dop = np.abs(self.brightness_p - self.brightness_s) / total
        return np.where(total > 1e-10, dop, 0.0)

    @property
    def polarization_ratio(self) -> np.ndarray:
        """p / s; inf when s is negligible."""
        with np.errstate(invalid="ignore", divide="ignore"):
            ratio = self.brightness_p / self.brightness_s
        return np.where(self.brightness_s > 1e-10, ratio, np.inf)

    @property
    def lengths(self) -> np.ndarray:
        return np.hypot(*(self.p2 - self.p1).T)

    @property
    def midpoints(self) -> np.ndarray:
        return (self.p1 + self.p2) / 2

    @property
    def escaped(self) -> np.ndarray:
        return self.end_glass == -1

    def interaction_names(self) -> list[str]:
        return [INTERACTIONS[code] for code in self.interaction]

    def uuid_of(self, segment_id: int) -> str:
        return str(uuidlib.uuid5(self.run_id, str(int(segment_id))))

    def uuids(self) -> list[str]:
        return [self.uuid_of(i) for i in self.ids]

    def records(self, limit: int | None = None) -> list[dict[str, Any]]:
        """JSON-serializable rows (the first ``limit``): what ``rays_to_xml`` writes, and agents read."""
        chosen = self if limit is None or limit >= len(self) else self.take(slice(0, limit))
        lengths, total = chosen.lengths, chosen.total
        ratio, dop = chosen.polarization_ratio, chosen.degree_of_polarization
        rows = []
        for i in range(len(chosen)):
            parent = int(chosen.parent[i])
            wavelength = float(chosen.wavelength[i])
            rows.append(
                {
                    "id": int(chosen.ids[i]),
                    "uuid": chosen.uuid_of(chosen.ids[i]),
                    "p1": [float(v) for v in chosen.p1[i]],
                    "p2": [float(v) for v in chosen.p2[i]],
                    "length": float(lengths[i]),
                    "brightness_s": float(chosen.brightness_s[i]),
                    "brightness_p": float(chosen.brightness_p[i]),
                    "brightness_total": float(total[i]),
                    "polarization_ratio": None if np.isinf(ratio[i]) else float(ratio[i]),
                    "degree_of_polarization": float(dop[i]),
                    "wavelength": None if np.isnan(wavelength) else wavelength,
                    "interaction": INTERACTIONS[chosen.interaction[i]],
                    "parent": parent,
                    "parent_uuid": chosen.uuid_of(parent) if parent >= 0 else None,
                    "generation": int(chosen.depth[i]),
                }
            )
        return rows


def _array(segments: Segments, name: str) -> bool:
    return name != "run_id" and getattr(segments, name) is not None


class RayLineage:
    """The tree of segments: parents, children, paths from a source, leaves."""

    def __init__(self, segments: Segments) -> None:
        if len(segments) and not np.array_equal(segments.ids, np.arange(len(segments))):
            raise ValueError("a lineage needs the full result's segments, not a subset")
        self.segments = segments

    @cached_property
    def child_count(self) -> np.ndarray:
        parents = self.segments.parent
        return np.bincount(parents[parents >= 0], minlength=len(self.segments))

    @cached_property
    def _children_index(self) -> tuple[np.ndarray, np.ndarray]:
        parents = self.segments.parent
        order = np.argsort(parents, kind="stable")
        starts = np.searchsorted(parents[order], np.arange(len(parents) + 1))
        return order, starts

    def get_children(self, segment_id: int) -> np.ndarray:
        order, starts = self._children_index
        return order[starts[segment_id] : starts[segment_id + 1]]

    def get_parent(self, segment_id: int) -> int | None:
        parent = int(self.segments.parent[segment_id])
        return None if parent < 0 else parent

    def get_full_path(self, segment_id: int) -> list[int]:
        """Segment ids from the source ray down to ``segment_id``."""
        path = [int(segment_id)]
        parents = self.segments.parent
        while parents[path[-1]] >= 0:
            path.append(int(parents[path[-1]]))
        return path[::-1]

    def leaves(self) -> np.ndarray:
        return np.flatnonzero(self.child_count == 0)

    def roots(self) -> np.ndarray:
        return np.flatnonzero(self.segments.parent < 0)


@dataclass(frozen=True, eq=False)
class SimulationResult:
    """Segments, their lineage and a JSON-serializable summary (counts, energies, warnings)."""

    name: str
    segments: Segments
    summary: dict[str, Any]
    readings: dict[Any, Any] = field(default_factory=dict)
    """What each detector of the scene measured (a ``DetectorReading``), by the scene's ``Detector``
    (detectors are values: a detector moved since is not found)."""
    objects: tuple[Any, ...] = ()
    """The traced scene's objects (``Scene.objects``): a segment names the object it ends on and
    the one whose light it carries by an id, the object's position here."""

    def emitted(self) -> list[tuple[Any, int]]:
        """The objects that emitted light, each with the number of rays it emitted, in order."""
        segments = self.segments
        roots = segments.source[segments.parent < 0]
        counts = np.bincount(roots[roots >= 0], minlength=len(self.objects))
        return [(item, int(count)) for item, count in zip(self.objects, counts, strict=False) if count]

    @cached_property
    def lineage(self) -> RayLineage:
        return RayLineage(self.segments)

    @property
    def warnings(self) -> list[str]:
        return list(self.summary.get("warnings", []))
