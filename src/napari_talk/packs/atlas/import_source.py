"""What an import reads: one JSON Lines file, or a folder of them (a large catalogue kept in parts),
through the workspace's gate. A folder's ``.jsonl`` files are read in name order as one import: a
name several lines give, in one file or several, is imported once, as its last line."""

from __future__ import annotations

import os
import stat
from typing import TYPE_CHECKING

from ...core.basics.result import CommandError
from . import jsonl

if TYPE_CHECKING:
    from ...core.safety.workspace import Workspace

MAX_FILE_BYTES = 512 * 1024 * 1024
"""One file an import reads, at most."""
MAX_FOLDER_BYTES = 4 * 1024 * 1024 * 1024
"""All the files of a folder an import reads, at most."""
MAX_FOLDER_FILES = 10_000
SUFFIX = ".jsonl"


def read_source(workspace: Workspace, path: str) -> jsonl.ReadResult:
    """The records of ``path``: a JSON Lines file, or every ``.jsonl`` file directly in a folder.
    A skipped line is named by its file and number when the import reads a folder."""
    info = workspace.stat(path)
    if info is None:
        raise CommandError(f"no file {path!r} in the workspace")
    if not stat.S_ISDIR(info.st_mode):
        return jsonl.read_bytes(workspace.read_bytes(path, limit=MAX_FILE_BYTES, what="catalogue imports"))
    names = jsonl_files(workspace, path)
    if not names:
        raise CommandError(f"the folder {path} holds no {SUFFIX} file to import")
    total, lines = 0, []
    for name in names:
        relative = f"{path.rstrip('/')}/{name}"
        data = workspace.read_bytes(relative, limit=MAX_FILE_BYTES, what="catalogue imports")
        total += len(data)
        if total > MAX_FOLDER_BYTES:
            raise CommandError(
                f"the files of {path} pass {MAX_FOLDER_BYTES / 2**30:.0f} GiB, more than one import "
                "reads; import it in parts (a folder at a time)"
            )
        lines.append((name, data))
    return _read_parts(lines)


def jsonl_files(workspace: Workspace, folder: str) -> list[str]:
    """The names of the regular ``.jsonl`` files directly in ``folder``, sorted (links not followed)."""
    with workspace.folder(folder) as fd:
        found = sorted(
            name
            for name in os.listdir(fd)
            if name.lower().endswith(SUFFIX) and stat.S_ISREG(os.lstat(name, dir_fd=fd).st_mode)
        )
    if len(found) > MAX_FOLDER_FILES:
        raise CommandError(
            f"the folder {folder} holds {len(found):,} {SUFFIX} files, more than the "
            f"{MAX_FOLDER_FILES:,} one import reads"
        )
    return found


def _read_parts(parts: list[tuple[str, bytes]]) -> jsonl.ReadResult:
    """The files' records as one import: skipped lines named ``file line N``, a name given twice
    (in any of them) imported once, as its last line."""
    whole = jsonl.ReadResult()
    for name, data in parts:
        part = jsonl.read_bytes(data)
        whole.entities.extend(part.entities)
        whole.repeated += part.repeated
        for error in part.errors:
            if len(whole.errors) < jsonl.MAX_ERRORS_KEPT:
                whole.errors.append(f"{name} {error}")
        whole.skipped += part.skipped
    kept = jsonl.last_of_each(whole.entities)
    whole.repeated += len(whole.entities) - len(kept)
    whole.entities = kept
    return whole
