"""What the mesh pack knows about the session's model, as immutable snapshots.

Every command that changes something builds a new :class:`ModelState` from the old one; undo puts
the old one back, whole. The selection is also written to ``mesh/state.json`` in the workspace
(the seed's ``state.json``), and read back from there when another program (a gesture tracker)
has changed it since.
"""

from __future__ import annotations

import json
import time
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

import numpy as np

from ...core.basics.result import CommandError
from .materials import Material
from .mesh import TriMesh

if TYPE_CHECKING:
    from ...core.safety.workspace import Workspace

STATE_FILE = "mesh/state.json"
HISTORY_LIMIT = 200


@dataclass(frozen=True)
class Concept:
    """One concept image from ComfyUI, kept in the workspace."""

    option: int
    path: Path
    """Where the PNG is (absolute, inside the workspace)."""
    server_name: str = ""
    prompt: str = ""


@dataclass(frozen=True, eq=False)
class ModelState:
    mesh: TriMesh | None = None
    source: str = ""
    """How the model came to be: "primitive Sphere", "file chair.glb", "concept 2 (ComfyUI)"."""
    labels: np.ndarray | None = None
    """Per face: its segment index from 0 (segment id 1); None until segmented."""
    names: tuple[str, ...] = ()
    """Per segment (index = id - 1): what the shape says it is ("head", "left arm"), or ""."""
    materials: Mapping[int, Material] = field(default_factory=lambda: MappingProxyType({}))
    """Segment id → material."""
    selected: int | None = None
    isolated: int | None = None
    concepts: tuple[Concept, ...] = ()
    history: tuple[dict[str, Any], ...] = ()
    """The actions that made this state, oldest first: what export writes as the history."""

    @property
    def segment_count(self) -> int:
        if self.mesh is None:
            return 0
        return int(self.labels.max()) + 1 if self.labels is not None and len(self.labels) else 1

    def face_labels(self) -> np.ndarray:
        """Per face, its segment index; the whole model is segment 1 before segmentation."""
        if self.mesh is None:
            return np.zeros(0, dtype=np.int64)
        if self.labels is None:
            return np.zeros(self.mesh.n_faces, dtype=np.int64)
        return self.labels

    def segment_mask(self, segment_id: int) -> np.ndarray:
        return self.face_labels() == segment_id - 1

    def name_of(self, segment_id: int) -> str:
        return self.names[segment_id - 1] if 0 < segment_id <= len(self.names) else ""

    def named(self, segment_id: int) -> str:
        """ "segment 3 (left arm)", or "segment 3" for a part without a name."""
        name = self.name_of(segment_id)
        return f"segment {segment_id} ({name})" if name else f"segment {segment_id}"

    def part_words(self) -> list[str]:
        """What the parts may be called: their names, and a kind said alone ("leg") or for all of
        that kind ("legs") where several parts share it."""
        names = [n for n in self.names if n]
        kinds: dict[str, int] = {}
        for name in names:
            kind = name.rsplit(" ", 1)[-1]
            kinds[kind] = kinds.get(kind, 0) + 1
        shared = [k for k, count in kinds.items() if count > 1 and k not in names]
        return [*names, *shared, *(f"{k}s" for k in shared)]

    def segments_called(self, text: str) -> tuple[list[int], bool]:
        """The segments ``text`` names ("the head", "left arm", "the legs", "leg"), and whether the
        name means all of them (a plural) rather than one of them (a kind said alone: ambiguous
        when more than one part is of that kind)."""
        folded = " ".join(text.casefold().replace("_", " ").split())
        for prefix in ("the ", "segment ", "part "):
            folded = folded.removeprefix(prefix)
        exact = [i + 1 for i, name in enumerate(self.names) if name and name == folded]
        if exact:
            return exact, False
        plural = folded.endswith("s") and len(folded) > 1
        kind = folded[:-1] if plural else folded
        of_kind = [i + 1 for i, name in enumerate(self.names) if name and name.rsplit(" ", 1)[-1] == kind]
        return of_kind, plural

    def with_materials(self, materials: Mapping[int, Material]) -> ModelState:
        return replace(self, materials=MappingProxyType(dict(materials)))

    def logged(self, action: str, summary: str, **details: Any) -> ModelState:
        entry = {"action": action, "summary": summary, "time": time.strftime("%Y-%m-%dT%H:%M:%S"), **details}
        return replace(self, history=(*self.history, entry)[-HISTORY_LIMIT:])

    def segments(self) -> list[dict[str, Any]]:
        """Per segment: id, name ("" where the shape gives none), faces, share of the area, material name."""
        if self.mesh is None:
            return []
        labels = self.face_labels()
        count = self.segment_count
        faces = np.bincount(labels, minlength=count)
        area = np.bincount(labels, weights=self.mesh.face_areas, minlength=count)
        total = float(area.sum()) or 1.0
        return [
            {
                "id": i + 1,
                "name": self.name_of(i + 1),
                "faces": int(faces[i]),
                "area_share": round(float(area[i]) / total, 4),
                "material": self.materials[i + 1].name if i + 1 in self.materials else None,
            }
            for i in range(count)
        ]


def carry_materials(old: ModelState, new_labels: np.ndarray) -> dict[int, Material]:
    """Materials for a new segmentation: each new segment takes the material covering most of
    its area under the old one (a material on the whole model stays on every part)."""
    if not old.materials or old.mesh is None:
        return {}
    old_labels = old.face_labels()
    areas = old.mesh.face_areas
    carried: dict[int, Material] = {}
    for segment in range(int(new_labels.max()) + 1):
        mask = new_labels == segment
        covered = np.bincount(old_labels[mask], weights=areas[mask], minlength=old.segment_count)
        best = int(np.argmax(covered)) + 1
        if best in old.materials:
            carried[segment + 1] = old.materials[best]
    return carried


STATE_MAX_BYTES = 1024 * 1024


class StateFile:
    """``mesh/state.json`` in the workspace: written on every change, read when changed by others."""

    def __init__(self, workspace: Workspace) -> None:
        self.workspace = workspace
        self._written_ns: int | None = None

    def write(self, state: ModelState) -> None:
        mesh = state.mesh
        document = {
            "model": mesh.name if mesh is not None else None,
            "source": state.source,
            "faces": mesh.n_faces if mesh is not None else 0,
            "segmented": state.labels is not None,
            "segment_count": state.segment_count,
            "segment_names": {str(i + 1): name for i, name in enumerate(state.names) if name},
            "selected_segment": state.selected,
            "isolated_segment": state.isolated,
            "materials": {str(k): v.name for k, v in sorted(state.materials.items())},
            "concepts": [self._relative(c.path) for c in state.concepts],
            "updated": time.strftime("%Y-%m-%dT%H:%M:%S"),
        }
        self.workspace.write_text(STATE_FILE, json.dumps(document, indent=2))
        found = self.workspace.stat(STATE_FILE)
        self._written_ns = found.st_mtime_ns if found is not None else None

    def _relative(self, path: Path) -> str:
        try:
            return self.workspace.relative(path)
        except ValueError:
            return str(path)

    def external_selection(self, state: ModelState) -> int | None:
        """The selected segment another program wrote since our last write, if valid; else None."""
        try:
            found = self.workspace.stat(STATE_FILE)
        except CommandError:
            return None
        if found is None or self._written_ns is None or found.st_mtime_ns == self._written_ns:
            return None  # not ours to read yet, or unchanged since we wrote it
        try:
            text = self.workspace.read_text(STATE_FILE, limit=STATE_MAX_BYTES)
            value = json.loads(text).get("selected_segment")
        except (CommandError, ValueError, AttributeError):
            return None
        if isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= state.segment_count:
            return value
        return None


@dataclass
class MeshPackState:
    """Everything the pack keeps for one session: the model, its state file, the display's
    bookkeeping."""

    model: ModelState
    file: StateFile
    view: dict[str, Any] = field(default_factory=dict)
    """The display's bookkeeping (its layers, the click callback)."""
    exported: ModelState | None = None
    """The model as it was last exported: replacing it loses nothing the files do not hold."""
    generative_prompt: str | None = None
    """The prompt a model keeps refining for generative tools (its reply's ``user_prompt``)."""

    @classmethod
    def new(cls, workspace: Workspace) -> MeshPackState:
        return cls(ModelState(), StateFile(workspace))
