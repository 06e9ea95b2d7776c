"""The workspace folder: where commands read and write files, and nothing gets out of it.

Every path a command names is relative to the workspace root, and every file any pack reads or
writes goes through one :class:`Workspace` (the gate). Its jobs live beside it, one a module:

- :mod:`.spelling` refuses hostile spellings early with a clear message (:func:`check_spelling`),
  :mod:`.printable` names that would show other than they are;
- :mod:`.descriptors` walks a path one folder at a time from a descriptor of the root, refusing
  symlinks at every step (``O_NOFOLLOW``), so a folder swapped for a symlink between a check and a
  use fails closed instead of leading outside; listings and searches start there too
  (:meth:`Workspace.place`, then :mod:`.tree`);
- :mod:`.reading` bounds reads by size before a byte is read, and reads a file with more than one
  hard link only when every one of its names is inside the workspace;
- :mod:`.writing` writes atomically (a temporary file renamed over the target) and sweeps the
  temporary files a crash left; it writes to no hard-linked file (an append would change the file
  outside);
- :mod:`.authorship` remembers what napari-talk wrote by its digest (:class:`Written`), so undoing a
  write (:meth:`Workspace.take_back`) touches the file only while it still holds exactly that, and
  :meth:`Workspace.replacing` tells a command, at the act, when it would replace a file napari-talk
  did not write (the person's), so the person is asked first;
- :mod:`.pinned` names a file by path for SQLite, pinned to a folder descriptor;
- :mod:`.paths` gives a checked path for what must be named by path (:func:`resolve`), deciding
  containment on the resolved path, never on string prefixes. What is read, written, listed or
  searched is never reached by such a path.

The names commands and tests import from here (the errors, :func:`resolve`, :func:`check_spelling`,
:func:`human_size`...) are re-exported below.

Platform: POSIX, Linux the target (``O_NOFOLLOW``, ``O_DIRECTORY``, ``dir_fd=``, ``os.scandir`` of a
descriptor; see :mod:`.tree`).
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterable, Iterator
from pathlib import Path

from ..errors import CommandError
from . import descriptors, reading, writing
from .authorship import Authorship, Written, digest_of
from .descriptors import Place
from .paths import default_workspace, refuse_special, relative_to_root, resolve, special_kind, workspace_root
from .pinned import PinnedFile, own_status
from .refusals import SecurityError, WorkspaceError, human_size, not_found
from .risk import Effect
from .spelling import MAX_PATH_CHARS, check_spelling

__all__ = [
    "MAX_PATH_CHARS",
    "PinnedFile",
    "Place",
    "SecurityError",
    "Workspace",
    "WorkspaceError",
    "Written",
    "check_spelling",
    "default_workspace",
    "human_size",
    "refuse_special",
    "relative_to_root",
    "resolve",
    "special_kind",
    "workspace_root",
]


class Workspace:
    """The gate every pack's file access goes through; ``relative`` paths only."""

    def __init__(self, root: Path | str) -> None:
        self._given = Path(root).expanduser()
        self._sweeper = writing.TempSweeper()
        self._authorship = Authorship()

    def __repr__(self) -> str:
        return f"Workspace({str(self._given)!r})"

    def __fspath__(self) -> str:
        return str(self.root)

    @property
    def root(self) -> Path:
        """The resolved root, created on first use."""
        return workspace_root(self._given)

    # paths, for what must be named by path

    def resolve(self, relative: str) -> Path:
        return resolve(self._given, relative)

    def relative(self, path: Path | str) -> str:
        """A path inside the workspace as the relative path a command would name it by."""
        return relative_to_root(self.root, Path(path).resolve())

    # descriptors

    def folder(self, relative: str, *, create: bool = False) -> contextlib.AbstractContextManager[int]:
        """A descriptor of a folder inside the workspace, reached without following a symlink."""
        return descriptors.folder(self.root, relative, create=create)

    def place(self, relative: str) -> contextlib.AbstractContextManager[Place]:
        """Where a listing or a search of ``relative`` starts (:func:`.descriptors.place`)."""
        return descriptors.place(self.root, relative)

    def _key(self, relative: str) -> str:
        return "/".join(descriptors.real_parts(self.root, relative))

    @contextlib.contextmanager
    def _parent(self, relative: str, *, create: bool = False) -> Iterator[tuple[int, list[str], str]]:
        """The descriptor of the folder ``relative`` is in, that folder's parts, and its name."""
        folder, name = descriptors.split(self.root, relative)
        with self.folder("/".join(folder) or ".", create=create) as dir_fd:
            yield dir_fd, folder, name

    # reading

    def read_bytes(self, relative: str, *, limit: int, what: str = "files") -> bytes:
        """The whole file, refused by its size (read on the open descriptor) when over ``limit``."""
        return reading.read_bytes(self.root, relative, limit=limit, what=what)

    def read_text(self, relative: str, *, limit: int, what: str = "text files") -> str:
        data = self.read_bytes(relative, limit=limit, what=what)
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise WorkspaceError(f"{relative} is not UTF-8 text (byte {exc.start})", "BinaryFile") from None

    def digest(self, relative: str) -> str | None:
        """The SHA-256 of the file's content, read in pieces; None when there is no such file."""
        return reading.digest(self.root, relative)

    def exists(self, relative: str) -> bool:
        """Whether there is an entry of that name; hostile paths and symlinks on the way are refused."""
        return not descriptors.real_parts(self.root, relative) or self.stat(relative) is not None

    def stat(self, relative: str) -> os.stat_result | None:
        """The entry's own status (a symlink is not followed), or None when there is none."""
        try:
            with self._parent(relative) as (fd, _, name):
                return os.lstat(name, dir_fd=fd)
        except WorkspaceError as exc:
            if exc.kind == "NotFound":
                return None
            raise
        except FileNotFoundError:
            return None

    # what napari-talk wrote, and taking it back

    def replacing(self, relative: str, *, named: bool = True) -> Effect | None:
        """What writing over or removing ``relative`` now would replace of the person's: nothing
        when there is no such file or it holds what napari-talk last wrote to it; else the file,
        named, with its digest (an agreement covers this content, not a later one)."""
        now = self.digest(relative)
        if now is None:
            return None
        return self._authorship.replacing(relative, self._key(relative), now, named=named)

    def written(self, relative: str, data: bytes | None = None) -> Written:
        """What napari-talk just wrote to ``relative``: ``data``, or the file as it is now."""
        digest = digest_of(data) if data is not None else self.digest(relative)
        if digest is None:
            raise not_found(relative)
        return Written(self._key(relative), digest)

    def check_written(self, *written: Written) -> None:
        """Refuse, saying why, unless every file still holds what napari-talk wrote to it."""
        for one in written:
            now = self.digest(one.relative)
            if now != one.digest:
                state = "is gone" if now is None else "was changed"
                raise WorkspaceError(
                    f"{one.relative} {state} since napari-talk wrote it, so undo leaves it as it is "
                    "(your change is kept; undo it in your editor, or put back what napari-talk wrote)",
                    "ChangedSince",
                )

    def take_back(self, written: Written, previous: bytes | None = None) -> None:
        """Undo a write: ``previous`` put back, or the file removed when there was none before;
        only while the file still holds what napari-talk wrote (else refused, the file kept)."""
        self.check_written(written)
        if previous is None:
            self.remove(written.relative)
        else:
            self.write_bytes(written.relative, previous)
            self._authorship.put_back(self._key(written.relative), digest_of(previous))

    def take_back_all(self, written: Iterable[Written]) -> None:
        """Remove files napari-talk made, all or none: refused before any goes if one changed."""
        written = list(written)
        self.check_written(*written)
        for one in written:
            self.remove(one.relative)

    # writing

    def mkdir(self, relative: str) -> str:
        """Make a folder (and its parents); its relative path."""
        with self.folder(relative, create=True):
            pass
        return self._key(relative) or "."

    def write_bytes(self, relative: str, data: bytes, *, overwrite: bool = True) -> int:
        """Replace (or create) the file atomically; folders are made as needed. Bytes written."""
        with self._parent(relative, create=True) as (dir_fd, folder, name):
            self._sweeper.sweep(dir_fd, "/".join(folder))
            writing.replace_atomically(dir_fd, name, data, relative, overwrite=overwrite)
        self._authorship.wrote("/".join([*folder, name]), digest_of(data))
        return len(data)

    def write_text(self, relative: str, text: str, *, overwrite: bool = True) -> int:
        return self.write_bytes(relative, text.encode("utf-8"), overwrite=overwrite)

    def append(self, relative: str, data: bytes) -> None:
        """One ``write`` at the end of the file (O_APPEND): concurrent writers never interleave."""
        with self._parent(relative, create=True) as (dir_fd, _, name):
            writing.append(dir_fd, name, data, relative)

    def remove(self, relative: str, *, missing_ok: bool = True) -> None:
        try:
            with self._parent(relative) as (dir_fd, folder, name):
                os.unlink(name, dir_fd=dir_fd)
            self._authorship.removed("/".join([*folder, name]))
        except (FileNotFoundError, WorkspaceError) as exc:
            if not missing_ok or (isinstance(exc, WorkspaceError) and exc.kind != "NotFound"):
                raise

    def remove_folder(self, relative: str) -> None:
        """Remove a folder if it is empty (what an undo emptied); a folder with files stays."""
        folder, name = descriptors.split(self.root, relative)
        with contextlib.suppress(OSError, CommandError), self.folder("/".join(folder) or ".") as dir_fd:
            os.rmdir(name, dir_fd=dir_fd)

    # SQLite, which opens files by name

    def sqlite_path(self, relative: str) -> PinnedFile:
        """A path SQLite may open for ``relative`` (it opens files by name, and its journal beside).

        The folders are walked without following symlinks, and the database is named through the
        pinned folder descriptor (``/proc/self/fd``) where the system has one, so a folder swapped
        meanwhile cannot redirect it; :meth:`PinnedFile.verify`, run once SQLite has opened the
        file, refuses a database that is a symlink or was replaced meanwhile.
        """
        folder, name = descriptors.split(self.root, relative)
        dir_fd = descriptors.walk_to(self.root, folder, relative, create=True)
        pinned = Path(f"/proc/self/fd/{dir_fd}")
        base = pinned if pinned.is_dir() else self.root.joinpath(*folder)
        return PinnedFile(base / name, dir_fd, name, relative, own_status(dir_fd, name, relative))
