"""The current folder (change_folder, current_folder), and the one-line answer to a request on
files the pack cannot carry out (cannot_do_with_files)."""

from __future__ import annotations

import posixpath

from ...core.basics.result import Result
from ...core.contract.pack import Context
from . import commands as cmd
from .errors import FilesError
from .handlers import HANDLERS
from .naming import find
from .state import FilesState

UP = frozenset(
    {"up", "back up", "up one", "up a level", "up one level", "the parent", "parent", "..", "back"}
)
TOP = frozenset({"top", "the top", "root", "the root", "home", "the workspace", "workspace", "/", "~"})


def _where(folder: str) -> str:
    return "the workspace" if folder == "." else folder


@HANDLERS.on(cmd.ChangeFolder)
def change_folder(command: cmd.ChangeFolder, ctx: Context[FilesState]) -> Result:
    said = " ".join(command.folder.split()).casefold()
    if said in TOP:
        folder = "."
    elif said in UP:
        if ctx.state.folder == ".":
            raise FilesError("already at the top of the workspace; there is no folder above it", "NotFound")
        folder = posixpath.dirname(ctx.state.folder) or "."
    else:
        folder = find(ctx, command.folder, "folder")
    if folder != ".":
        info = ctx.workspace.stat(folder)
        if info is None:
            raise FilesError(f"{folder} does not exist in the workspace", "NotFound")
        with ctx.workspace.folder(folder):  # a folder the gate reaches, not a file or a link out
            pass
    ctx.state.folder = folder
    return Result.success(
        f"now in {_where(folder)}: paths you type start here.", {"folder": folder}, folder=folder
    )


@HANDLERS.on(cmd.CurrentFolder)
def current_folder(command: cmd.CurrentFolder, ctx: Context[FilesState]) -> Result:
    folder = ctx.state.folder
    return Result.success(
        f"you are in {_where(folder)} (of the workspace {ctx.workspace.root}).",
        {"folder": folder},
        folder=folder,
    )


NEAREST = {
    "zip": "copy {target} to backup",
    "compress": "copy {target} to backup",
    "back up": "copy {target} to backup",
    "backup": "copy {target} to backup",
    "archive": "move {target} to archive",
    "print": "read {target}",
    "email": "read {target}",
    "mail": "read {target}",
    "send": "read {target}",
    "share": "read {target}",
    "upload": "read {target}",
    "publish": "read {target}",
    "convert": "read {target}",
    "export": "copy {target} to export",
    "translate": "read {target}",
    "spellcheck": "replace all 'teh' with 'the' in {target}",
    "spell check": "replace all 'teh' with 'the' in {target}",
    "sort": "read {target}",
    "merge": "append 'text' to {target}",
    "encrypt": "move {target} to private",
    "lock": "move {target} to private",
    "undelete": "undo",
    "restore": "undo",
    "empty": "list files in .trash",
}


def nearest(verb: str, target: str) -> str:
    said = " ".join(verb.split()).casefold()
    return NEAREST.get(said, "list files").format(target=target or "it")


@HANDLERS.on(cmd.CannotDoWithFiles)
def cannot_do_with_files(command: cmd.CannotDoWithFiles, ctx: Context[FilesState]) -> Result:
    try:
        named = find(ctx, command.target) if command.target else ""
    except FilesError:  # not a name of the workspace: said as typed
        named = command.target
    what = f"{command.verb} {named}".strip()
    near = nearest(command.verb, named)
    return Result.error(
        f"{what}: that is not something I can do. The nearest I can: “{near}”.",
        error="Unsupported",
    )
