"""file_stats: lines, words and characters of a text file, or of every text file in a folder."""

from __future__ import annotations

import stat
from typing import Any

from ...core.basics.result import Result
from ...core.contract.pack import Context
from ...core.safety.workspace import WorkspaceError
from . import commands as cmd
from .handlers import HANDLERS, _read_text
from .limits import LIST_MAX_ENTRIES, STATS_MAX_FILES
from .listing import list_entries
from .naming import find
from .state import FilesState


def counts(text: str) -> dict[str, int]:
    """As ``wc`` counts, but characters, not bytes; a last line without a newline still counts."""
    lines = text.count("\n") + (1 if text and not text.endswith("\n") else 0)
    return {"lines": lines, "words": len(text.split()), "characters": len(text)}


def _said(found: dict[str, int]) -> str:
    return f"{found['lines']:,} lines, {found['words']:,} words, {found['characters']:,} characters"


@HANDLERS.on(cmd.FileStats)
def file_stats(command: cmd.FileStats, ctx: Context[FilesState]) -> Result:
    relative = find(ctx, command.path)
    info = ctx.workspace.stat(relative) if relative != "." else None
    if info is not None and not stat.S_ISDIR(info.st_mode):
        found = counts(_read_text(ctx, relative))
        return _counted(f"{relative}: {_said(found)}.", {"path": relative, **found}, found)
    return _folder_stats(ctx, relative)


def _folder_stats(ctx: Context[FilesState], relative: str) -> Result:
    with ctx.workspace.place(relative) as place:  # walked by descriptors, as list_files walks
        entries, _ = list_entries(place.dir_fd, place.folder, True, LIST_MAX_ENTRIES)
    files = [e for e in entries if e["kind"] == "file"]
    per_file: list[dict[str, Any]] = []
    skipped = 0
    for entry in files[:STATS_MAX_FILES]:
        try:
            per_file.append({"path": entry["path"], **counts(_read_text(ctx, entry["path"]))})
        except WorkspaceError:  # binary, too large, hard-linked: not a text to count
            skipped += 1
    total = {key: sum(f[key] for f in per_file) for key in ("lines", "words", "characters")}
    where = "the workspace" if relative == "." else relative
    head = f"{where}: {_said(total)} in {len(per_file):,} text files"
    if skipped:
        head += f" ({skipped:,} not text, skipped)"
    if len(files) > STATS_MAX_FILES:
        head += f" (counted the first {STATS_MAX_FILES:,} of {len(files):,})"
    lines = [f"  {f['path']}: {_said(f)}" for f in per_file[:50]]
    return _counted("\n".join([head + ("." if not lines else ":"), *lines]), per_file, total)


def _counted(message: str, data: Any, found: dict[str, int]) -> Result:
    return Result.success(
        message, data, lines=found["lines"], words=found["words"], characters=found["characters"]
    )
