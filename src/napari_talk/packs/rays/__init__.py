"""The rays pack: 2-D ray-optics scenes traced by the ray-optics simulator, their analysis and
agent tools.

Domain modules (no napari, no Qt): ``scene`` (data model), ``file_object`` (objects kept as the
file gives them), ``scene_json`` (ray-optics JSON v5), ``engine`` (the scene traced by
``rayoptics``, the one engine), ``fresnel``, ``simulation`` (segments, lineage), ``edges``,
``analysis`` (queries), ``lineage`` (paths, energy), ``editing`` (objects by name, moved, turned,
added), ``writer`` (a scene saved as ray-optics JSON), ``xml``, ``agent`` (ray_tracing_shapely's ``_xml``
tools), ``samples`` and ``display`` (layer-data tuples). ``handlers/`` joins them to a session and
a viewer.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...core.basics.viewer_protocols import Layer
from ...core.contract.pack import Context, Pack, Sections
from .commands import COMMANDS
from .grammar import RULES
from .state import RaysPackState

if TYPE_CHECKING:
    from ...core.basics.commands import Command
    from ...core.basics.result import Result
    from ...core.safety.risk import Risk
    from ...core.safety.workspace import Workspace


class RaysPack(Pack[RaysPackState]):
    def new_state(self, workspace: Workspace, settings: Sections) -> RaysPackState:
        return RaysPackState()

    def names(self, ctx: Context[RaysPackState]) -> dict[str, list[str]]:
        from .handlers import known_names

        return known_names(ctx)

    def describe(self, ctx: Context[RaysPackState]) -> list[str]:
        from .handlers import describe_context

        return describe_context(ctx)

    def live(self, ctx: Context[RaysPackState]) -> bool:
        return ctx.state.current is not None or bool(self.names(ctx).get("scene_objects"))

    def layer_added(self, ctx: Context[RaysPackState], layer: Layer) -> None:
        """A scene's glasses (the Prism demo opened from File > Open Sample) are drawn +y up from
        the start, as the pack draws every scene, not only once the first rays line takes it up.
        On the GUI thread for every layer that comes: it imports nothing of the scene (see
        :mod:`.roles`); the warm-up imports that in its thread."""
        from .roles import layer_role, physics_up

        if ctx.viewer is not None and layer_role(getattr(layer, "metadata", None)) == "glasses":
            physics_up(ctx.viewer)

    def preparing(self, ctx: Context[RaysPackState]) -> tuple[str, str] | None:
        from .kernels import loaded

        if loaded():
            return None
        return (
            "Getting the ray tracer ready (the first time after an install: about 10 s)…",
            "The ray tracer is ready.",
        )

    def prepare(self, ctx: Context[RaysPackState]) -> None:
        """Load the tracer's compiled kernels (numba's disk cache: a second; compiling them, the first
        time after an install: about 10 s), so that no trace waits for them; a trace made meanwhile
        runs in plain Python, or in a job that waits (see :func:`.engine.trace`)."""
        from .kernels import load_kernels, loaded

        if not loaded():
            load_kernels()

    def risk(self, command: Command, ctx: Context[RaysPackState]) -> Risk:
        """Saving over an existing file replaces the person's data."""
        from .commands import SaveScene

        if isinstance(command, SaveScene):
            from .handlers.scene_io import target

            return "data" if ctx.workspace.exists(target(command.path)) else "view"
        return super().risk(command, ctx)

    def format_for_agent(self, command: Command, result: Result) -> str | None:
        from .xml import result_to_xml

        return result_to_xml(command.action, result.ok, result.data)


PACK = RaysPack(
    "rays",
    COMMANDS,
    RULES,
    handlers=f"{__name__}.handlers:HANDLERS",
    named_fields=("glass_name",),
    nouns={"glasses": "glass", "scene_objects": "object", "scene_object_words": "object"},
    slot_fillers={"scene_object_words": "scene_objects"},
    data_words=("scene", "trace", "ray", "rays", "glass", "glasses", "detector", "detectors"),
    cli=f"{__name__}.cli:add_rays_command",
    context_stand_ins={"scene_objects": "glasses"},
    order=3,
)
