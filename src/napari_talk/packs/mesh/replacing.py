"""What a new model would replace: the person's work on the model there is, asked about first.

The pack keeps one model (its segments, selection, materials, isolation, ``mesh/state.json`` and
the export are all of that one), so a new one takes its place. A model the person has worked on
(segmented into parts, painted, made from a concept) is replaced only once they agree; one that a
line makes again (a primitive, a file in the workspace, not yet painted or split) is replaced
without a word, as is one just exported (the export holds the work).
"""

from __future__ import annotations

import hashlib

from ...core.safety.risk import Effect
from .state import ModelState


def work_on(state: ModelState) -> str:
    """The person's work on the model, in words ("" when there is none to lose)."""
    mesh = state.mesh
    if mesh is None:
        return ""
    done = []
    if state.labels is not None and state.segment_count > 1:
        done.append(f"segmented into {state.segment_count} parts")
    if state.materials:
        done.append(f"painted with {len({m.name for m in state.materials.values()})} material(s)")
    if state.source.startswith("concept"):
        done.append(f"made from {state.source}")
    return f"the {mesh.name} ({', '.join(done)})" if done else ""


def replacing_model(state: ModelState, exported: ModelState | None = None) -> Effect | None:
    """The effect of putting a new model in this one's place, or None when nothing would be lost
    (no work on it, or it is the model as last ``exported``: the files hold it). Not named by the
    line ("add a sphere" says nothing of the body), so the person is asked; the agreement covers
    this state only (its history's length and the model)."""
    what = work_on(state)
    if not what or state is exported:
        return None
    digest = hashlib.sha256(f"{id(state.mesh)}:{len(state.history)}:{what}".encode()).hexdigest()[:16]
    return Effect.replace(f"{what}: the new model takes its place (undo brings it back)", digest, named=False)
