"""Materials on the model or a segment, from a description ("brushed steel", "wet asphalt")."""

from __future__ import annotations

from ....core.basics.result import CommandError, Result
from ....core.contract.pack import Context
from .. import commands as cmd
from .. import materials
from ..state import MeshPackState, ModelState
from .common import HANDLERS, commit, model_of, resolve


@HANDLERS.on(cmd.ApplyMaterial)
def apply_material(command: cmd.ApplyMaterial, ctx: Context[MeshPackState]) -> Result:
    _, state, _ = model_of(ctx)
    found = materials.match(command.material_description)
    if found is None:
        examples = ", ".join(m.name for m in materials.library()[::7])
        raise CommandError(
            f"No material in the library fits {command.material_description!r}. "
            f"Try a material name ({examples}, "
            '...) with colour or finish words: "dark", "shiny", "worn", "glowing blue".'
        )
    targets = resolve(ctx, state, command.segment_id, whole_if_none=True)
    assigned = {**state.materials, **dict.fromkeys(targets, found.material)}
    where = _where(state, targets)
    new = state.with_materials(assigned).logged(
        "apply_material", f"{found.material.name} on {where}", description=command.material_description
    )
    second = f"; runner-up: {found.runner_up}" if found.runner_up else ""
    message = (
        f"Applied {found.material.name} to {where} (best match for {command.material_description!r}{second})."
    )
    data = {
        "material": found.material.summary(),
        "library_name": found.library_name,
        "score": found.score,
        "runner_up": found.runner_up,
        "adjustments": list(found.adjustments),
        "segments": targets,
    }
    return commit(ctx, new, message, data)


def _where(state: ModelState, targets: list[int]) -> str:
    if state.labels is None or len(targets) == state.segment_count:
        return "the whole model"
    return (
        " and ".join(state.named(i) for i in targets)
        if len(targets) <= 2
        else (f"segments {', '.join(map(str, targets))}")
    )
