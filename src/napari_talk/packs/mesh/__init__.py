"""The mesh pack: 3-D modelling by conversation on napari Surface layers (the CONJURE toolset's commands).

Primitives, segmentation, segment selection and isolation, PBR materials, glTF export, and
concept-to-model generation through a ComfyUI server. Domain modules are free of napari and Qt;
``handlers`` (imported on first use) drives the viewer through ``display``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...core.basics.viewer_protocols import Layer
from ...core.contract.pack import Context, Pack, Sections
from .commands import COMMANDS
from .grammar import RULES
from .settings import MeshSettings

if TYPE_CHECKING:
    from ...core.basics.commands import Command
    from ...core.safety.risk import Effect
    from ...core.safety.workspace import Workspace
    from .state import MeshPackState


class MeshPack(Pack["MeshPackState"]):
    def new_state(self, workspace: Workspace, settings: Sections) -> MeshPackState:
        from .state import MeshPackState  # numpy: not at the pack's import

        return MeshPackState.new(workspace)

    def describe(self, ctx: Context[MeshPackState]) -> list[str]:
        from .handlers import describe_context

        return describe_context(ctx)

    def effects(self, command: Command, ctx: Context[MeshPackState]) -> tuple[Effect, ...]:
        """A new model (spawned, imported, made from a concept) asks before it replaces one the
        person has worked on (see :mod:`.replacing`)."""
        from . import commands as cmd

        if isinstance(command, (cmd.SpawnPrimitive, cmd.ImportModel, cmd.SelectConcept)):
            from .replacing import replacing_model

            found = replacing_model(ctx.state.model, ctx.state.exported)
            return (*super().effects(command, ctx), *((found,) if found is not None else ()))
        return super().effects(command, ctx)

    def names(self, ctx: Context[MeshPackState]) -> dict[str, list[str]]:
        """The parts' names ("make the head gold"), while the model has named parts."""
        return {"segments": ctx.state.model.part_words()}

    def live(self, ctx: Context[MeshPackState]) -> bool:
        from .samples import sample_layer

        return ctx.state.model.mesh is not None or sample_layer(ctx.viewer) is not None

    def model_prompt(self, ctx: Context[MeshPackState], prompt: str) -> None:
        """Concepts and exports are made from the prompt a model keeps refining."""
        ctx.state.generative_prompt = prompt

    def layer_added(self, ctx: Context[MeshPackState], layer: Layer) -> None:
        """The mesh sample opens in 3-D, as the pack shows every model."""
        from .samples import SAMPLE_KEY

        if ctx.viewer is not None and SAMPLE_KEY in (getattr(layer, "metadata", None) or {}):
            ctx.viewer.dims.ndisplay = 3


PACK = MeshPack(
    "mesh",
    COMMANDS,
    RULES,
    handlers=f"{__name__}.handlers:HANDLERS",
    settings=MeshSettings,
    settings_title="Mesh import limits",
    nouns={"segments": "part"},
    named_fields=("segment_id", "option_id"),
    data_words=("mesh", "segment", "segments", "part", "parts"),
    order=4,
)
