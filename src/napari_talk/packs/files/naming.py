"""Names as people say them: a path from the current folder, or what a file is called.

"the plan" is ``notes/plan.md`` when that is the only file whose stem is ``plan``; "chapter 1" is
``ch01.md`` (or a file whose title is "Chapter 1"); "chapters" is the folder ``sample/chapters``.
A name that fits more than one entry is asked about in one line, never guessed; one that fits
none is the usual ``NotFound``. A path the person spells out (``notes/a.md``, ``../x``) is taken
as a path from the current folder, and then from the workspace root; the gate judges it.
"""

from __future__ import annotations

import posixpath
import re
import time
from contextlib import closing
from typing import Literal

from ...core.basics.result import CommandError
from ...core.contract.pack import Context
from ...core.rules.tokens import WORD_VALUES
from ...core.safety import tree
from ...core.safety.workspace import check_spelling
from .errors import FilesError
from .state import FilesState

Want = Literal["file", "folder", "any"]

NAME_SCAN_ENTRIES = 2000
"""Entries of the workspace looked through for a name (hidden ones and symlinks never are)."""
TITLE_FILES = 200
"""Titles (a first line "# Chapter 1") are looked up when a workspace has at most this many text
files (a name that is no path, stem or file name; in the handler, once)."""
NAMES_FRESH_S = 2.0
"""How long the names offered to the parser are kept: a file another program makes is read by its
name at most this much later (the handler always looks afresh)."""
OFFERED_TITLE_FILES = 50
"""The parser is offered titles when there are at most this many text files (read on every line)."""
TITLE_MAX_BYTES = 64 * 1024
TITLED = (".md", ".markdown", ".txt", ".rst")
HERE = frozenset(
    {".", "here", "this folder", "this directory", "current folder", "the current folder", "where i am"}
)
_ARTICLE = re.compile(r"^(?:the|my|our|a|an) ", re.IGNORECASE)
_KIND_WORD = re.compile(r" (?:file|folder|directory|dir|document|note|notes file)$", re.IGNORECASE)
_EXTENSION = re.compile(r"\.[A-Za-z0-9_-]{1,10}$")
_NUMBER = re.compile(r"\d+")
_CHAPTER = re.compile(r"\b(?:chapter|chap|chpt|ch)\b\.?", re.IGNORECASE)
_SMALL_NUMBERS = {word: n for word, n in WORD_VALUES.items() if " " not in word and n < 100}
_NUMBER_WORD = re.compile(rf"\b(?:{'|'.join(sorted(_SMALL_NUMBERS, key=len, reverse=True))})\b")


def spoken(name: str) -> str:
    """The key two spellings of one name share: "Chapter 1", "ch01.md" and "ch-1" are ``ch1``."""
    text = _EXTENSION.sub("", name.strip()).casefold()
    text = _ARTICLE.sub("", text)
    text = _CHAPTER.sub("ch", text)
    text = _NUMBER_WORD.sub(lambda m: str(_SMALL_NUMBERS[m.group()]), text)  # "chapter one"
    text = re.sub(r"[\W_]+", "", text)
    return _NUMBER.sub(lambda m: str(int(m.group())), text)


def tidy(said: str) -> str:
    """What was typed, without quotes, an article or a trailing "file"/"folder"."""
    said = said.strip().strip("'\"").strip()
    if not _EXTENSION.search(said) and "/" not in said:
        said = _KIND_WORD.sub("", _ARTICLE.sub("", said))
    return said or "."


def joined(folder: str, said: str) -> str:
    """``said`` from ``folder``, spelled out lexically (the gate refuses what climbs out)."""
    spelled = check_spelling(said).as_posix()
    return (
        posixpath.normpath(posixpath.join(folder, spelled)) if folder != "." else posixpath.normpath(spelled)
    )


def is_here(said: str) -> bool:
    return " ".join(said.split()).casefold().strip("'\"?") in HERE


def find(ctx: Context[FilesState], said: str, want: Want = "any") -> str:
    """The workspace path (from the root) of the existing entry ``said`` names."""
    folder = ctx.state.folder
    if is_here(said):
        return folder
    said = tidy(said)
    for candidate in dict.fromkeys((joined(folder, said), joined(".", said))):
        if ctx.workspace.exists(candidate):
            return candidate
    if "/" in said.replace("\\", "/") or said.startswith("."):
        raise FilesError(f"{said} does not exist in the workspace", "NotFound")
    found = _by_name(ctx, said, want)
    if not found:
        raise FilesError(f"{said} does not exist in the workspace", "NotFound")
    return one_of(found, folder, said)


def target(ctx: Context[FilesState], said: str) -> str:
    """The path a command writes to: a path or a file name with an extension, as spelled, from the
    current folder; a bare name ("the plan") is an existing file, found by :func:`find`."""
    said = tidy(said)
    if "/" in said.replace("\\", "/") or _EXTENSION.search(said):
        return joined(ctx.state.folder, said)
    return find(ctx, said, "file")


def one_of(found: list[str], folder: str, said: str) -> str:
    """The one entry meant; those under the current folder first; else the person is asked."""
    if len(found) > 1 and folder != ".":
        near = [path for path in found if path.startswith(folder + "/")]
        found = near or found
    if len(found) == 1:
        return found[0]
    shown = sorted(found)[:5]
    listed = ", ".join(shown[:-1]) + f" or {shown[-1]}"
    more = f" ({len(found)} in all)" if len(found) > len(shown) else ""
    raise FilesError(f"which one: {listed}{more}?", "Ambiguous")


def _by_name(ctx: Context[FilesState], said: str, want: Want) -> list[str]:
    key = spoken(said)
    if not key:
        return []
    entries = _entries(ctx)
    fits = [
        e["path"]
        for e in entries
        if _wanted(e["kind"], want) and key in (spoken(e["name"]), e["name"].casefold())
    ]
    if fits or want == "folder":
        return fits
    return [path for path, title in titles(ctx, entries) if spoken(title) == key]


def _wanted(kind: str, want: Want) -> bool:
    if kind not in ("file", "directory"):
        return False
    return want == "any" or (kind == "file") == (want == "file")


def _entries(ctx: Context[FilesState]) -> list[dict]:
    """The tree's files and folders by name and kind, walked as listings walk (by descriptors,
    following no symlink, so a folder swapped for a link to outside offers no outside name);
    hidden names are not looked through."""
    entries: list[dict] = []
    with ctx.workspace.place(".") as place, closing(tree.walk(place.dir_fd, place.folder)) as walk:
        for entry in walk:
            if len(entries) == NAME_SCAN_ENTRIES:
                break
            if entry.kind in ("file", "directory"):
                entries.append({"name": entry.name, "path": entry.path, "kind": entry.kind})
    return entries


def titles(ctx: Context[FilesState], entries: list[dict], limit: int = TITLE_FILES) -> list[tuple[str, str]]:
    """(path, title) of small text files that open with a heading ("# Chapter 1"), when there
    are at most ``limit`` text files (a larger one is left out)."""
    found = []
    texts = [e for e in entries if e["kind"] == "file" and e["name"].casefold().endswith(TITLED)]
    if len(texts) > limit:
        return []  # too many to open on every line: their names and stems still find them
    for entry in texts:
        try:
            head = ctx.workspace.read_bytes(entry["path"], limit=TITLE_MAX_BYTES)[:200]
        except (OSError, CommandError):  # too large, hard-linked, gone meanwhile: no title to offer
            continue
        first = head.split(b"\n", 1)[0].decode("utf-8", "replace").strip()
        if first.startswith("#"):
            found.append((entry["path"], first.lstrip("#").strip()))
    return found


NOT_WRITING = (
    ".tif", ".tiff", ".png", ".jpg", ".jpeg", ".gif", ".bmp", ".webp", ".npy", ".npz", ".h5", ".hdf5",
    ".zarr", ".glb", ".gltf", ".stl", ".ply", ".obj", ".off", ".pdf", ".zip", ".gz", ".czi", ".nd2",
)  # fmt: skip
"""Pictures, volumes, meshes and archives: offered to the parser by file name and path, never by
stem alone. "show me the lantern" is not a request to read verdant-lantern.tif as text."""


def forget_names(ctx: Context[FilesState]) -> None:
    """The tree changed (a file made, moved or deleted): offer the parser its names afresh."""
    ctx.state.names = None


def spoken_names(ctx: Context[FilesState]) -> dict[str, list[str]]:
    """What the parser may read as a file or folder of this workspace: names, stems, paths,
    titles, and "chapter N" for ``chNN`` files (the handler resolves them again). Kept for
    :data:`NAMES_FRESH_S`, or until the pack changes the tree: the dock asks before and after
    every line."""
    now = time.monotonic()
    if ctx.state.names is not None and now - ctx.state.names[0] < NAMES_FRESH_S:
        return ctx.state.names[1]
    names = _spoken_names(ctx)
    ctx.state.names = (now, names)
    return names


def _spoken_names(ctx: Context[FilesState]) -> dict[str, list[str]]:
    entries = _entries(ctx)
    files: set[str] = set()
    folders: set[str] = set()
    for entry in entries:
        if entry["kind"] == "directory":
            folders |= {entry["name"], entry["path"]}
        elif entry["kind"] == "file":
            stem = _EXTENSION.sub("", entry["name"])
            files |= {entry["name"], entry["path"]}
            if len(stem) > 1 and not entry["name"].casefold().endswith(NOT_WRITING):  # not "a"
                files.add(stem)
            key = spoken(stem)
            if re.fullmatch(r"ch\d+", key):
                files.add(f"chapter {key[2:]}")
                files |= {f"chapter {w}" for w, n in _SMALL_NUMBERS.items() if n == int(key[2:])}
    files |= {title for _, title in titles(ctx, entries, OFFERED_TITLE_FILES) if 0 < len(title) <= 80}
    return {"files": sorted(files), "folders": sorted(folders)}
