"""The files pack: a sandboxed workspace folder (read, write, edit, list, search, delegate), and a
writer's file manager on it (delete to a trash, move, copy, folders, append, replace all, counts)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...core.contract.pack import Context, Pack, Sections
from . import commands as cmd
from .commands import COMMANDS
from .grammar import RULES
from .state import FilesState

if TYPE_CHECKING:
    from ...core.basics.commands import Command
    from ...core.basics.result import Result
    from ...core.safety.risk import Effect
    from ...core.safety.workspace import Workspace


JUDGED_AT_THE_ACT = (cmd.WriteFile, cmd.EditFile, cmd.AppendFile, cmd.ReplaceInFile, cmd.DeleteFile)


class FilesPack(Pack[FilesState]):
    spelling_kinds = frozenset({"files", "folders"})

    def new_state(self, workspace: Workspace, settings: Sections) -> FilesState:
        return FilesState()

    def effects(self, command: Command, ctx: Context[FilesState]) -> tuple[Effect, ...]:
        """Writes and edits are judged at the act, under the file's lock: they ask only when the
        file they replace is the person's (napari-talk did not write it, or it changed since); a
        delete asks at the act too, naming what it deletes."""
        if isinstance(
            command, cmd.WriteFile | cmd.EditFile | cmd.AppendFile | cmd.ReplaceInFile | cmd.DeleteFile
        ):
            return ()
        return super().effects(command, ctx)

    def names(self, ctx: Context[FilesState]) -> dict[str, list[str]]:
        """The workspace's files and folders as people name them, for the parser."""
        from .naming import spoken_names

        return spoken_names(ctx)

    def describe(self, ctx: Context[FilesState]) -> list[str]:
        from .handlers import describe_context

        return describe_context(ctx)

    def format_for_agent(self, command: Command, result: Result) -> str | None:
        from .handlers import format_for_agent

        return format_for_agent(command, result)


PACK = FilesPack(
    "files",
    COMMANDS,
    RULES,
    handlers=f"{__name__}.handlers:HANDLERS",
    handler_modules=tuple(f"{__name__}.{module}" for module in ("counting", "places", "verbs")),
    named_fields=("query",),
    nouns={"files": "file"},
    order=2,
)
