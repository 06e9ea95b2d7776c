"""The viewer pack: a napari viewer's camera, layers, panels, dims and overlays."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...core.contract.pack import Context, Pack
from . import commands as cmd
from .commands import COMMANDS
from .grammar import BUILTIN_PANELS, RULES

if TYPE_CHECKING:
    from ...core.basics.commands import Command
    from ...core.safety.risk import Effect


class ViewerPack(Pack[None]):
    def effects(self, command: Command, ctx: Context[None]) -> tuple[Effect, ...]:
        """A screenshot asks only when it would replace a file of the person's."""
        if isinstance(command, cmd.Screenshot):
            from .handlers import screenshot_path

            found = ctx.workspace.replacing(screenshot_path(command))
            return (found,) if found is not None else ()
        return super().effects(command, ctx)

    def names(self, ctx: Context[None]) -> dict[str, list[str]]:
        from .handlers import known_names

        return known_names(ctx)

    def describe(self, ctx: Context[None]) -> list[str]:
        from .handlers import describe_context

        return describe_context(ctx)

    def live(self, ctx: Context[None]) -> bool:
        """The viewer is in use whenever there is one."""
        return ctx.viewer is not None


PACK = ViewerPack(
    "viewer",
    COMMANDS,
    RULES,
    handlers=f"{__name__}.handlers:HANDLERS",  # the package binds every family's handlers to it
    context_defaults={"panels": BUILTIN_PANELS},
    order=1,
)
