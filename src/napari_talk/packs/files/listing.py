"""Listing a workspace folder: name, relative path, size, modification time and kind of each entry.

The folder is walked by descriptors (:mod:`napari_talk.core.safety.tree`): symlinks are listed as
such and never followed, and a folder swapped for a symlink while it is listed is not walked into,
so a listing cannot wander out of the workspace (or loop); FIFOs, sockets and device files show as
``other``. Hidden names (starting with ".", like the pack's own ``.napari-talk`` records) are left
out, as ``ls`` does, unless the folder asked for is itself hidden.
"""

from __future__ import annotations

from contextlib import closing
from datetime import datetime, timezone
from typing import Any

from ...core.safety import tree


def _describe(entry: tree.Entry) -> dict[str, Any]:
    kind = entry.kind
    return {
        "name": entry.name,
        "path": entry.path,
        "size": entry.info.st_size if kind == "file" else None,
        "mod_time": datetime.fromtimestamp(entry.info.st_mtime, timezone.utc).isoformat(timespec="seconds"),
        "kind": kind,
    }


def list_entries(
    folder_fd: int, folder: str, recursive: bool, limit: int
) -> tuple[list[dict[str, Any]], bool]:
    """Entries of the folder ``folder_fd`` (named ``folder`` from the workspace root, ``""`` for the
    root), sorted by path; True when cut at ``limit``."""
    entries: list[dict[str, Any]] = []
    with closing(tree.walk(folder_fd, folder, recursive=recursive)) as walk:  # its descriptors closed now
        for entry in walk:
            if len(entries) == limit:
                entries.sort(key=lambda e: e["path"])
                return entries, True
            entries.append(_describe(entry))
    entries.sort(key=lambda e: e["path"])
    return entries, False
