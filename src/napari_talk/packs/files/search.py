"""Searching the text of a folder's files for a literal string or a regular expression.

Standard library only (and the core's descriptor walker, :mod:`napari_talk.core.safety.tree`): this
file also runs on its own (``python -I search.py``) as the child process that matches a regular
expression, so a pathological pattern is killed after a timeout.
Python's ``re`` holds the GIL while it backtracks, so a thread could neither be stopped nor keep
the GUI alive. Literal queries cannot backtrack and run in-process.

The folder is walked by descriptors, following no symlink: one swapped in for a folder or a file
while the search runs is skipped, never followed out of the workspace.

Matches are ``{"path", "line", "text"}``, one per matching line. Symlinks, hidden names (starting
with ".": the pack's own records and temporary files), special files, binary files (a NUL byte in
the first 8 KiB) and files over the size limit are skipped; the outcome counts what was skipped.
"""

from __future__ import annotations

import json
import math
import os
import re
import signal
import subprocess
import sys
from collections.abc import Callable, Generator, Iterator
from contextlib import closing
from typing import Any

if __package__:
    from ...core.safety import tree
else:  # the isolated child (``python -I search.py``): the same walker, loaded from its file
    import importlib.util

    _TREE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "core", "safety", "tree.py")
    _spec = importlib.util.spec_from_file_location("napari_talk_tree", _TREE)
    assert _spec is not None and _spec.loader is not None
    tree = importlib.util.module_from_spec(_spec)
    sys.modules[_spec.name] = tree
    _spec.loader.exec_module(tree)

BINARY_PROBE = 8192
LINE_CHARS = 400

Finder = Callable[[bytes], Iterator[tuple[int, str]]]


class SearchTimeout(Exception):
    pass


def compile_finder(query: str, regex: bool, case_sensitive: bool) -> Finder:
    """The function yielding ``(line number, line text)`` of each matching line of a file's bytes.

    Raises ``ValueError`` with a readable message for an invalid regular expression.
    """
    if not query:
        raise ValueError("the query is empty")
    if regex:
        flags = re.MULTILINE | (0 if case_sensitive else re.IGNORECASE)
        try:
            return _text_finder(re.compile(query, flags))
        except re.error as exc:
            where = f" at position {exc.pos}" if exc.pos is not None else ""
            raise ValueError(f"invalid regular expression {query!r}: {exc.msg}{where}") from None
    if case_sensitive:
        return _bytes_finder(query.encode("utf-8"), fold=False)
    if query.isascii():
        needle = query.encode("ascii")
        return _bytes_finder(needle.lower(), fold=needle.lower() != needle.upper())
    return _text_finder(re.compile(re.escape(query), re.IGNORECASE))


def _cut(line: str, at: int) -> str:
    line = line.rstrip("\r")
    if len(line) <= LINE_CHARS:
        return line
    start = max(0, min(at - LINE_CHARS // 4, len(line) - LINE_CHARS))
    return line[start : start + LINE_CHARS]


def _bytes_finder(needle: bytes, fold: bool) -> Finder:
    def find(data: bytes) -> Iterator[tuple[int, str]]:
        haystack = data.lower() if fold else data
        pos = haystack.find(needle)
        line, counted = 1, 0
        while pos >= 0:
            line += data.count(b"\n", counted, pos)
            start = data.rfind(b"\n", 0, pos) + 1
            end = data.find(b"\n", pos)
            end = len(data) if end < 0 else end
            text = data[start:end].decode("utf-8", "replace")
            yield line, _cut(text, len(data[start:pos].decode("utf-8", "replace")))
            counted = end
            pos = haystack.find(needle, end + 1)

    return find


def _text_finder(pattern: re.Pattern[str]) -> Finder:
    def find(data: bytes) -> Iterator[tuple[int, str]]:
        text = data.decode("utf-8", "replace")
        found = pattern.search(text)
        line, counted = 1, 0
        while found is not None:
            pos = found.start()
            line += text.count("\n", counted, pos)
            start = text.rfind("\n", 0, pos) + 1
            end = text.find("\n", pos)
            end = len(text) if end < 0 else end
            yield line, _cut(text[start:end], pos - start)
            if end >= len(text):
                return
            counted = end
            found = pattern.search(text, end + 1)

    return find


def _files(folder_fd: int, folder: str, only: str | None) -> Generator[tuple[str, str, int], None, None]:
    """``(path, name, folder descriptor)`` of each regular file under the folder, in path order,
    walked by descriptors following no symlink; just ``only`` when a file was named."""
    if only is not None:
        yield (f"{folder}/{only}" if folder else only), only, folder_fd
        return
    with closing(tree.walk(folder_fd, folder)) as walk:
        for entry in walk:
            if entry.kind == "file":
                yield entry.path, entry.name, entry.dir_fd


def search(
    folder_fd: int,
    folder: str,
    query: str,
    only: str | None = None,
    regex: bool = False,
    case_sensitive: bool = False,
    max_results: int = 200,
    max_file_bytes: int = 8 * 1024 * 1024,
) -> dict[str, Any]:
    """Search the files under the folder ``folder_fd`` (named ``folder`` from the workspace root,
    ``""`` for the root), or only its file ``only``; paths in the matches are from the root."""
    find = compile_finder(query, regex, case_sensitive)
    matches: list[dict[str, Any]] = []
    skipped = {"binary": 0, "too_large": 0, "unreadable": 0, "hard_linked": 0}
    files = searched = 0
    truncated = False
    with closing(_files(folder_fd, folder, only)) as found:  # stopped early: descriptors closed now
        for relative, name, dir_fd in found:
            data = tree.read_regular(name, dir_fd, max_file_bytes)
            if isinstance(data, str):
                skipped[data] += 1
                continue
            if b"\x00" in data[:BINARY_PROBE]:
                skipped["binary"] += 1
                continue
            files += 1
            searched += len(data)
            for line, text in find(data):
                if len(matches) == max_results:
                    truncated = True
                    break
                matches.append({"path": relative, "line": line, "text": text})
            if truncated:
                break
    return {
        "matches": matches,
        "truncated": truncated,
        "files_searched": files,
        "bytes_searched": searched,
        "skipped": skipped,
    }


def search_isolated(request: dict[str, Any], timeout: float) -> dict[str, Any]:
    """:func:`search` in a child process, killed after ``timeout`` seconds. The child inherits the
    folder's descriptor (same number), so it walks the very folder the parent opened."""
    try:
        done = subprocess.run(
            [sys.executable, "-I", os.path.abspath(__file__), str(timeout)],
            input=json.dumps(request),
            capture_output=True,
            text=True,
            encoding="utf-8",
            timeout=timeout,
            pass_fds=(request["folder_fd"],),
        )
    except subprocess.TimeoutExpired:
        raise SearchTimeout(timeout) from None
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["no message"])[-1]
        raise RuntimeError(f"the search process failed: {last}")
    return json.loads(done.stdout)


def _serve(timeout: float) -> None:
    """The child's side. Its own alarm ends it at the timeout too: the parent that would kill it
    may be gone by then (``napari-talk mcp`` exits when its client goes, its calls abandoned).
    SIGALRM's default action stops the process even while ``re`` holds the GIL."""
    if hasattr(signal, "alarm"):
        signal.alarm(math.ceil(timeout) + 1)
    request = json.load(sys.stdin)
    json.dump(search(**request), sys.stdout)


if __name__ == "__main__":
    _serve(float(sys.argv[1]))
