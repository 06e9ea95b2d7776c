"""Handlers of the files pack: each runs one command on the ctx's workspace folder.

``data`` is what the seed returns (the content, the entries, the matches, the confirmation);
``meta`` has ``execution_time`` and, for writes, ``bytes_written``. A refusal or failure becomes an
error Result whose ``data`` is the message and whose ``meta["error"]`` names its kind.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ...core.basics.jobs import Job, Progress
from ...core.basics.result import Result
from ...core.contract.pack import Context, Handlers
from ...core.running.history import Changes
from ...core.safety import tree
from ...core.safety.workspace import Workspace, WorkspaceError, human_size, relative_to_root
from . import commands as cmd
from .envelope import envelope
from .errors import FilesError
from .limits import (
    LIST_MAX_ENTRIES,
    REGEX_TIMEOUT_S,
    SEARCH_FILE_MAX_BYTES,
    SHOWN_CHARS,
    TEXT_MAX_BYTES,
    UNDO_MAX_FILE_BYTES,
)
from .listing import list_entries
from .locks import path_lock
from .naming import find, forget_names, target
from .roles import ROLES, role_name
from .search import SearchTimeout, compile_finder, search, search_isolated
from .state import FilesState
from .tasks import TaskLog
from .textfile import as_text

HANDLERS = Handlers[FilesState]()


def _root(ctx: Context[FilesState]) -> Path:
    return ctx.workspace.root


def _existing(ctx: Context[FilesState], relative: str, want: str) -> Path:
    path = ctx.workspace.resolve(relative)
    if not path.exists():
        raise FilesError(f"{relative} does not exist in the workspace", "NotFound")
    if want == "folder" and not path.is_dir():
        raise FilesError(f"{relative} is a file, not a folder; read it with: read {relative}", "NotAFolder")
    if want == "file" and path.is_dir():
        raise FilesError(f"{relative} is a folder; list it with: list files in {relative}", "IsAFolder")
    return path


def _writable(ctx: Context[FilesState], relative: str) -> Path:
    path = ctx.workspace.resolve(relative)
    if path.is_dir():
        raise FilesError(f"{relative} is a folder; give a file path", "IsAFolder")
    return path


def _read_text(ctx: Context[FilesState], relative: str) -> str:
    return as_text(ctx.workspace.read_bytes(relative, limit=TEXT_MAX_BYTES, what="text files"), relative)


Previous = bytes | None | bool
"""What undo restores: the earlier content, None (there was no file: remove it), False (no undo)."""


def _previous(ctx: Context[FilesState], relative: str, data: bytes | None = None) -> Previous:
    if data is None:
        if not ctx.workspace.exists(relative):
            return None
        try:
            data = ctx.workspace.read_bytes(relative, limit=UNDO_MAX_FILE_BYTES)
        except WorkspaceError:
            return False
    return data


def _restorer(workspace: Workspace, relative: str, previous: bytes | None, written: bytes) -> Changes:
    """Put the earlier content back, but only over what this session wrote: a file someone
    changed since is left as it is, and the undo refused (it stays in the history). The earlier
    content's bytes count in the history's memory budget, which lets the oldest change go (and
    says so) when they would pass it."""
    ours = workspace.written(relative, written)

    def undo() -> None:
        with path_lock(workspace.resolve(relative)):  # resolved again: the tree may have changed since
            workspace.check_written(ours)
            workspace.take_back(ours, previous)

    changes = Changes()
    changes.add(undo, size=len(previous or b""))
    return changes


def _replace(ctx: Context[FilesState], relative: str, new: bytes, previous: Previous) -> Changes | None:
    ctx.consent.require(ctx.workspace.replacing(relative))
    # the undo is made first: made after, its lookup of the path could fail (a folder swapped for
    # a symlink meanwhile) and report refused a write that happened
    undo = (
        None if previous is False or previous is True else _restorer(ctx.workspace, relative, previous, new)
    )
    ctx.workspace.write_bytes(relative, new)
    return undo


_PLURALS = {"match": "matches", "entry": "entries"}


def _count(n: int, word: str) -> str:
    return f"{n:,} {word if n == 1 else _PLURALS.get(word, word + 's')}"


def _where(relative: str) -> str:
    return "the workspace" if relative == "." else relative


def _shown(text: str) -> str:
    if len(text) <= SHOWN_CHARS:
        return text
    return text[:SHOWN_CHARS] + f"\n… ({len(text) - SHOWN_CHARS:,} more characters in the result's data)"


@HANDLERS.on(cmd.ReadFile)
def read_file(command: cmd.ReadFile, ctx: Context[FilesState]) -> Result:
    root = _root(ctx)
    relative = find(ctx, command.path, "file")
    path = _existing(ctx, relative, "file")
    text = _read_text(ctx, relative)
    relative, size = relative_to_root(root, path), len(text.encode("utf-8"))
    return Result.success(f"{relative} ({human_size(size)}):\n{_shown(text)}", text, path=relative, size=size)


@HANDLERS.on(cmd.WriteFile)
def write_file(command: cmd.WriteFile, ctx: Context[FilesState]) -> Result:
    data = command.content.encode("utf-8")
    if len(data) > TEXT_MAX_BYTES:
        raise FilesError(
            f"the content is {human_size(len(data))}, over the limit of {human_size(TEXT_MAX_BYTES)}",
            "TooLarge",
        )
    root = _root(ctx)
    written = target(ctx, command.path)
    path = _writable(ctx, written)
    with path_lock(path):
        previous = _previous(ctx, written)
        undo = _replace(ctx, written, data, previous)
    forget_names(ctx)
    relative = relative_to_root(root, path)
    created = previous is None
    note = " (new file)" if created else "" if undo else " (no undo: the old file was too large to keep)"
    return Result.success(
        f"wrote {human_size(len(data))} to {relative}{note}.",
        {"path": relative, "size": len(data)},
        undo=undo,
        bytes_written=len(data),
        created=created,
    )


@HANDLERS.on(cmd.EditFile)
def edit_file(command: cmd.EditFile, ctx: Context[FilesState]) -> Result:
    root = _root(ctx)
    edited = find(ctx, command.path, "file")
    path = _existing(ctx, edited, "file")
    with path_lock(path):
        text = _read_text(ctx, edited)
        occurrences = text.count(command.search_text)
        if occurrences == 0:
            raise FilesError(f"Text not found: {command.search_text!r} is not in {edited}", "TextNotFound")
        new = text.replace(command.search_text, command.replace_text, 1).encode("utf-8")
        if len(new) > TEXT_MAX_BYTES:
            raise FilesError(f"the edited file would be {human_size(len(new))}, over the limit", "TooLarge")
        previous = _previous(ctx, edited, text.encode("utf-8"))
        undo = _replace(ctx, edited, new, previous)
    relative = relative_to_root(root, path)
    which = "the only occurrence" if occurrences == 1 else f"the first of {occurrences} occurrences"
    return Result.success(
        f"replaced {which} of {command.search_text!r} in {relative}.",
        {"path": relative, "size": len(new)},
        undo=undo,
        bytes_written=len(new),
        occurrences=occurrences,
        replaced=1,
    )


def _entry_line(entry: dict[str, Any]) -> str:
    if entry["kind"] == "directory":
        return f"  {entry['path']}/"
    size = f"{entry['size']:,} B" if entry["size"] is not None else entry["kind"]
    return f"  {entry['path']}  {size}  {entry['mod_time']}"


@HANDLERS.on(cmd.ListFiles)
def list_files(command: cmd.ListFiles, ctx: Context[FilesState]) -> Result:
    directory = find(ctx, command.directory, "folder")
    with ctx.workspace.place(directory) as place:
        if place.only is not None:
            raise FilesError(
                f"{directory} is a file, not a folder; read it with: read {directory}", "NotAFolder"
            )
        entries, truncated = list_entries(place.dir_fd, place.folder, command.recursive, LIST_MAX_ENTRIES)
    shown = place.path
    head = f"{_where(shown)}: {_count(len(entries), 'entry')}" + (
        " (stopped at the limit)" if truncated else ""
    )
    lines = [_entry_line(e) for e in entries[:200]]
    if len(entries) > 200:
        lines.append(f"  … and {len(entries) - 200} more in the result's data")
    return Result.success(
        "\n".join([head + (":" if entries else "."), *lines]),
        entries,
        directory=shown,
        recursive=command.recursive,
        count=len(entries),
        truncated=truncated,
    )


@HANDLERS.on(cmd.SearchCode)
def search_code(command: cmd.SearchCode, ctx: Context[FilesState]) -> Job:
    directory = find(ctx, command.directory)
    _existing(ctx, directory, "any")  # for a clear message now; the search is judged below
    workspace = ctx.workspace
    try:
        compile_finder(command.query, command.regex, command.case_sensitive)
    except ValueError as exc:
        raise FilesError(str(exc), "InvalidRegex") from None
    request: dict[str, Any] = {
        "query": command.query,
        "regex": command.regex,
        "case_sensitive": command.case_sensitive,
        "max_results": command.max_results,
        "max_file_bytes": SEARCH_FILE_MAX_BYTES,
    }

    def work(progress: Progress) -> dict[str, Any]:
        with workspace.place(directory) as place:  # on the worker thread, at the act
            where: dict[str, Any] = {"folder_fd": place.dir_fd, "folder": place.folder, "only": place.only}
            outcome = _isolated({**where, **request}) if command.regex else search(**where, **request)
        return {**outcome, "directory": place.path}

    def _isolated(request: dict[str, Any]) -> dict[str, Any]:
        try:
            return search_isolated(request, REGEX_TIMEOUT_S)
        except SearchTimeout:
            raise FilesError(
                f"the regular expression {command.query!r} took longer than {REGEX_TIMEOUT_S:g} s and was"
                " stopped (nested repeats like (a+)+ can take forever); simplify it or search a smaller"
                " folder",
                "Timeout",
            ) from None

    def finish(outcome: dict[str, Any]) -> Result:
        matches = outcome.pop("matches")
        files = len({m["path"] for m in matches})
        head = f"{_count(len(matches), 'match')} for {command.query!r} in {_count(files, 'file')}"
        if outcome["truncated"]:
            head += f" (stopped at {command.max_results})"
        lines = [f"  {m['path']}:{m['line']}: {m['text'][:160]}" for m in matches[:50]]
        if len(matches) > 50:
            lines.append(f"  … and {len(matches) - 50} more in the result's data")
        return Result.success(
            "\n".join([head + (":" if matches else "."), *lines]),
            matches,
            query=command.query,
            regex=command.regex,
            case_sensitive=command.case_sensitive,
            count=len(matches),
            **outcome,
        )

    return Job(f"searching for {command.query!r}", work, finish)


@HANDLERS.on(cmd.AssignTask)
def assign_task(command: cmd.AssignTask, ctx: Context[FilesState]) -> Result:
    role = role_name(command.target_agent)
    root = _root(ctx)
    target = relative_to_root(root, ctx.workspace.resolve(command.target_file))
    log = TaskLog(ctx.workspace)
    task = log.assign(role, command.task_description, target)
    data = {**task, "allowed_tools": sorted(ROLES[role])}
    with Changes() as changes:
        changes.add(lambda: log.withdraw(task["id"]))
    return Result.success(
        f"task {task['id']} assigned to the {role}: {command.task_description} ({target}).",
        data,
        undo=changes,
        task_id=task["id"],
    )


@HANDLERS.on(cmd.ListTasks)
def list_tasks(command: cmd.ListTasks, ctx: Context[FilesState]) -> Result:
    role = role_name(command.target_agent) if command.target_agent else None
    tasks = TaskLog(ctx.workspace).tasks(role)
    whose = f"the {role}'s" if role else "all"
    if not tasks:
        return Result.success(f"no tasks ({whose}).", [], count=0)
    lines = [
        f"  {t['id']}  {t['target_agent']}: {t['task_description']} ({t['target_file']}) — {t['status']}"
        for t in tasks
    ]
    return Result.success(
        "\n".join([f"{_count(len(tasks), 'task')} ({whose}):", *lines]), tasks, count=len(tasks)
    )


def describe_context(ctx: Context[FilesState]) -> list[str]:
    """What an LLM should know: where paths start, and the workspace's top-level names."""
    with ctx.workspace.place(".") as place:
        names = sorted(
            e.name + ("/" if e.kind == "directory" else "") for e in tree.walk(place.dir_fd, recursive=False)
        )
    shown = ", ".join(names[:30]) + (f", … ({len(names)} in all)" if len(names) > 30 else "")
    lines = [f"Workspace files (paths are relative to it): {shown or 'empty'}"]
    if ctx.state.folder != ".":
        lines.append(f"Current folder (typed paths start there): {ctx.state.folder}")
    return lines


def format_for_agent(command: Any, result: Result) -> str:
    """Agents get the seed's envelope, ``{"status", "data", "meta"}``, as JSON."""
    return json.dumps(envelope(result), ensure_ascii=False, default=str)
