"""Listing a workspace folder: name, relative path, size, modification time and kind of each entry.

Symlinks are listed as such and never followed, so a listing cannot wander out of the workspace
(or loop); FIFOs, sockets and device files show as ``other``. Hidden names (starting with ".",
like the pack's own ``.napari-talk`` records) are left out, as ``ls`` does, unless the folder asked
for is itself hidden.
"""

from __future__ import annotations

import os
from datetime import datetime, timezone
from pathlib import Path
from typing import Any


def _kind(entry: os.DirEntry) -> str:
    if entry.is_symlink():
        return "symlink"
    if entry.is_dir(follow_symlinks=False):
        return "directory"
    if entry.is_file(follow_symlinks=False):
        return "file"
    return "other"


def _describe(entry: os.DirEntry, root: Path) -> dict[str, Any]:
    kind = _kind(entry)
    info = entry.stat(follow_symlinks=False)
    return {
        "name": entry.name,
        "path": Path(entry.path).relative_to(root).as_posix(),
        "size": info.st_size if kind == "file" else None,
        "mod_time": datetime.fromtimestamp(info.st_mtime, timezone.utc).isoformat(timespec="seconds"),
        "kind": kind,
    }


def list_entries(root: Path, folder: Path, recursive: bool, limit: int) -> tuple[list[dict[str, Any]], bool]:
    """Entries of ``folder`` (resolved, inside ``root``), sorted by path; True when cut at ``limit``."""
    entries: list[dict[str, Any]] = []
    pending = [folder]
    while pending:
        current = pending.pop()
        try:
            with os.scandir(current) as found:
                children = sorted(found, key=lambda e: e.name)
        except OSError:
            continue  # removed meanwhile, or unreadable: list what can be listed
        for entry in children:
            if entry.name.startswith("."):
                continue
            try:
                described = _describe(entry, root)
            except OSError:
                continue
            if len(entries) == limit:
                entries.sort(key=lambda e: e["path"])
                return entries, True
            entries.append(described)
            if recursive and described["kind"] == "directory":
                pending.append(Path(entry.path))
    entries.sort(key=lambda e: e["path"])
    return entries, False
