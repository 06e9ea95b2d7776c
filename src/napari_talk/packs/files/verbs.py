"""Handlers of the file manager's verbs: delete (to the trash), move and rename, copy, make a
folder, append, replace every occurrence, and count. Each goes through the workspace gate (the
core's file access) and records its undo as :class:`~napari_talk.core.running.history.Changes`.
"""

from __future__ import annotations

import posixpath
import stat
from collections.abc import Callable

from ...core.basics.result import Result
from ...core.contract.pack import Context
from ...core.running.history import Changes
from ...core.safety.moving import entry_kind, move
from ...core.safety.risk import Effect
from ...core.safety.workspace import Workspace, human_size
from . import commands as cmd
from .errors import FilesError
from .handlers import HANDLERS, _count, _previous, _read_text, _replace, _restorer
from .limits import COPY_MAX_BYTES, TEXT_MAX_BYTES
from .locks import path_lock
from .naming import find, forget_names, joined, target, tidy
from .state import FilesState
from .trash import put_back, to_trash


@HANDLERS.on(cmd.DeleteFile)
def delete_file(command: cmd.DeleteFile, ctx: Context[FilesState]) -> Result:
    ws = ctx.workspace
    relative = find(ctx, command.path)
    if relative == ".":
        raise FilesError("the workspace folder itself cannot be deleted", "IsAFolder")
    kind = entry_kind(ws, relative)
    what = f"the folder {relative} and everything in it" if kind == "folder" else relative
    state = (ws.digest(relative) or "") if kind == "file" else ""  # agreed to this content, not a later one
    ctx.consent.require(Effect.delete(what, state))
    trashed = to_trash(ws, relative)
    with Changes() as changes:
        changes.add(_forgetting(ctx, lambda: put_back(ws, trashed, relative)))
    forget_names(ctx)
    return Result.success(
        f"deleted {what} (it is in {trashed}; undo puts it back).",
        {"path": relative, "trash": trashed},
        undo=changes,
    )


def _destination(ctx: Context[FilesState], source: str, said: str) -> str:
    """Where ``source`` goes: into a folder of that name when there is one, or when the line said
    a folder (``drafts/``: "into drafts", "to the drafts folder"; made from the current folder);
    a bare new name (no ``/``) beside the source, keeping its extension when none is given
    ("rename chapter 2 to the ending" → ``ending.md``); else a path from the current folder."""
    into = said.strip().endswith(("/", "\\"))
    said = tidy(said).rstrip("/\\") or "."
    name = posixpath.basename(source)
    try:
        folder = find(ctx, said, "folder")
    except FilesError as exc:
        if exc.kind != "NotFound":
            raise
    else:
        info = ctx.workspace.stat(folder) if folder != "." else None
        if folder == "." or (info is not None and stat.S_ISDIR(info.st_mode)):
            return posixpath.normpath(posixpath.join(folder, name))
    spelled = said.replace("\\", "/")
    if into:
        return posixpath.join(joined(ctx.state.folder, spelled), name)
    if "/" in spelled:
        return joined(ctx.state.folder, spelled)
    extension = posixpath.splitext(name)[1]
    info = ctx.workspace.stat(source)
    if extension and not posixpath.splitext(spelled)[1] and info is not None and stat.S_ISREG(info.st_mode):
        spelled += extension
    return posixpath.normpath(posixpath.join(posixpath.dirname(source), joined(".", spelled)))


def _clear(ctx: Context[FilesState], destination: str, changes: Changes) -> None:
    """A file at the destination goes to the trash, after asking (undo brings it back)."""
    ws = ctx.workspace
    if not ws.exists(destination):
        return
    if entry_kind(ws, destination) == "folder":
        raise FilesError(f"there is a folder {destination} already; name another place", "Exists")
    ctx.consent.require(
        Effect.replace(f"{destination}, which exists", ws.digest(destination) or "", named=False)
    )
    trashed = to_trash(ws, destination)
    changes.add(_forgetting(ctx, lambda: put_back(ws, trashed, destination)))


@HANDLERS.on(cmd.MoveFile)
def move_file(command: cmd.MoveFile, ctx: Context[FilesState]) -> Result:
    ws = ctx.workspace
    source = find(ctx, command.source)
    entry_kind(ws, source)  # a symlink, a special or a hard-linked file is refused here, clearly
    destination = _destination(ctx, source, command.destination)
    if destination == source:
        raise FilesError(f"{source} is there already", "Exists")
    with Changes() as changes:
        _clear(ctx, destination, changes)
        move(ws, source, destination)
        changes.add(_forgetting(ctx, lambda: move(ws, destination, source)))
    forget_names(ctx)
    return Result.success(
        f"moved {source} to {destination}.", {"from": source, "to": destination}, undo=changes
    )


@HANDLERS.on(cmd.CopyFile)
def copy_file(command: cmd.CopyFile, ctx: Context[FilesState]) -> Result:
    ws = ctx.workspace
    source = find(ctx, command.source, "file")
    if entry_kind(ws, source) == "folder":
        raise FilesError(
            f"{source} is a folder: copying folders is not something I can do; copy its files one by one",
            "IsAFolder",
        )
    said = command.destination
    if said.strip().casefold() in ("", "a copy", "copy"):
        stem, extension = posixpath.splitext(posixpath.basename(source))
        said = f"{stem} copy{extension}"
    destination = _destination(ctx, source, said)
    if destination == source:
        raise FilesError(f"{source} cannot be copied onto itself; give the copy another name", "Exists")
    data = ws.read_bytes(source, limit=COPY_MAX_BYTES, what="copies")
    with path_lock(ws.resolve(destination)):
        previous = _previous(ctx, destination)
        if previous is not None:
            digest = ws.digest(destination) or ""
            ctx.consent.require(Effect.replace(f"{destination}, which exists", digest, named=False))
        ws.write_bytes(destination, data)
    undo = (
        _restorer(ws, destination, previous, data)
        if previous is None or isinstance(previous, bytes)
        else None
    )
    forget_names(ctx)
    return Result.success(
        f"copied {source} to {destination} ({human_size(len(data))}).",
        {"from": source, "to": destination, "size": len(data)},
        undo=undo,
        bytes_written=len(data),
    )


@HANDLERS.on(cmd.MakeFolder)
def make_folder(command: cmd.MakeFolder, ctx: Context[FilesState]) -> Result:
    ws = ctx.workspace
    relative = joined(ctx.state.folder, tidy(command.path))
    if ws.exists(relative):
        kind = entry_kind(ws, relative)
        raise FilesError(f"there is a {kind} {relative} already", "Exists")
    made = []
    parts = relative.split("/")
    for depth in range(1, len(parts) + 1):
        level = "/".join(parts[:depth])
        if not ws.exists(level):
            made.append(level)
    ws.mkdir(relative)
    with Changes() as changes:
        for level in made:
            changes.add(_forgetting(ctx, _folder_remover(ws, level)))
    forget_names(ctx)
    return Result.success(f"made the folder {relative}.", {"path": relative}, undo=changes)


def _forgetting(ctx: Context[FilesState], step: Callable[[], None]) -> Callable[[], None]:
    """An undo step that changes the tree: the names offered to the parser are looked up afresh."""

    def undo() -> None:
        step()
        forget_names(ctx)

    return undo


def _folder_remover(ws: Workspace, level: str) -> Callable[[], None]:
    """Undo of a folder made: removed while it is empty (a file put there since keeps it)."""
    return lambda: ws.remove_folder(level)


def _edit(
    ctx: Context[FilesState], relative: str, change: str, new_text: str, old: bytes | None
) -> Changes | None:
    new = new_text.encode("utf-8")
    if len(new) > TEXT_MAX_BYTES:
        raise FilesError(f"{change} would make {relative} {human_size(len(new))}, over the limit", "TooLarge")
    return _replace(ctx, relative, new, _previous(ctx, relative, old))


@HANDLERS.on(cmd.AppendFile)
def append_file(command: cmd.AppendFile, ctx: Context[FilesState]) -> Result:
    relative = target(ctx, command.path)
    with path_lock(ctx.workspace.resolve(relative)):
        exists = ctx.workspace.exists(relative)
        text = _read_text(ctx, relative) if exists else ""
        joiner = "\n" if text and not text.endswith("\n") else ""
        added = command.content if command.content.endswith("\n") else command.content + "\n"
        undo = _edit(ctx, relative, "the addition", text + joiner + added, text.encode() if exists else None)
    size = len((text + joiner + added).encode())
    forget_names(ctx)
    return Result.success(
        f"added {_count(len(added.encode()), 'byte')} to the end of {relative}"
        + ("." if exists else " (new file)."),
        {"path": relative, "size": size},
        undo=undo,
        bytes_written=size,
    )


@HANDLERS.on(cmd.ReplaceInFile)
def replace_in_file(command: cmd.ReplaceInFile, ctx: Context[FilesState]) -> Result:
    relative = find(ctx, command.path, "file")
    with path_lock(ctx.workspace.resolve(relative)):
        text = _read_text(ctx, relative)
        occurrences = text.count(command.search_text)
        if occurrences == 0:
            raise FilesError(f"Text not found: {command.search_text!r} is not in {relative}", "TextNotFound")
        new_text = text.replace(command.search_text, command.replace_text)
        undo = _edit(ctx, relative, "the replacement", new_text, text.encode("utf-8"))
    return Result.success(
        f"replaced {_count(occurrences, 'occurrence')} of {command.search_text!r} with"
        f" {command.replace_text!r} in {relative}.",
        {"path": relative, "size": len(new_text.encode())},
        undo=undo,
        occurrences=occurrences,
        replaced=occurrences,
    )
