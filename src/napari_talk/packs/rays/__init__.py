"""The rays pack: 2-D ray-optics scenes, a vectorized tracer, its analysis and agent tools.

Domain modules (no napari, no Qt): ``scene`` (data model), ``scene_json`` (ray-optics JSON v5),
``fresnel``, ``tracer``, ``simulation`` (segments, lineage), ``edges``, ``analysis`` (queries),
``lineage`` (paths, energy), ``xml``, ``agent`` (seed 001's context and ``_xml`` tools),
``samples`` and ``display`` (layer-data tuples). ``handlers`` joins them to a session and a viewer.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...core.pack import Context, Handlers, Pack
from .commands import COMMANDS
from .grammar import RULES
from .state import RaysPackState

if TYPE_CHECKING:
    from ...core.commands import Command
    from ...core.result import Result
    from ...core.workspace import Workspace


class RaysPack(Pack[RaysPackState]):
    def handlers(self) -> Handlers[RaysPackState]:
        from .handlers import HANDLERS

        return HANDLERS

    def new_state(self, workspace: Workspace) -> RaysPackState:
        return RaysPackState()

    def names(self, ctx: Context[RaysPackState]) -> dict[str, list[str]]:
        from .handlers import known_names

        return known_names(ctx)

    def describe(self, ctx: Context[RaysPackState]) -> list[str]:
        from .handlers import describe_context

        return describe_context(ctx)

    def live(self, ctx: Context[RaysPackState]) -> bool:
        return ctx.state.current is not None or bool(self.names(ctx).get("glasses"))

    def format_for_agent(self, command: Command, result: Result) -> str | None:
        from .xml import result_to_xml

        return result_to_xml(command.action, result.ok, result.data)


PACK = RaysPack("rays", COMMANDS, RULES, order=3)
