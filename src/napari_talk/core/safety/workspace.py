"""The workspace folder: where commands read and write files, and nothing gets out of it.

Every path a command names is relative to the workspace root, and every file any pack reads or
writes goes through one :class:`Workspace` (the gate). It refuses hostile spellings early with a
clear message (:func:`check_spelling`), then walks the path one folder at a time from a descriptor
of the root, refusing symlinks at every step (``O_NOFOLLOW``), so a folder swapped for a symlink
between a check and a use fails closed instead of leading outside; listings and searches walk the
same way (:meth:`Workspace.place`, then :mod:`.tree`). Reads are bounded by size
before a byte is read; writes are atomic (a temporary file renamed over the target), and
temporary files left by a crash are swept. What napari-talk writes is remembered by its digest
(:class:`Written`), and undoing a write (:meth:`Workspace.take_back`) touches the file only while it
still holds exactly that: a file the person changed since is kept, and the undo refused; and
:meth:`Workspace.replacing` tells a command, at the act, when it would replace a file napari-talk did
not write (the person's), so the person is asked first.

A file with more than one hard link is another file's content under a second name, possibly
outside the workspace: the gate writes to none (an append would change the file outside), and reads
one only when every one of its names is inside the workspace.

:func:`resolve` gives a checked path for what must be named by path (listing, a library that
only takes paths); it decides containment on the resolved path, never on string prefixes. What is
read, written, listed or searched is never reached by such a path.

Platform: POSIX, Linux the target (``O_NOFOLLOW``, ``O_DIRECTORY``, ``dir_fd=``, ``os.scandir`` of a
descriptor; see :mod:`.tree`).
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import os
import re
import secrets
import stat
import threading
import time
import unicodedata
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path, PurePosixPath, PureWindowsPath

from ..errors import CommandError
from . import tree
from .risk import Effect

MAX_PATH_CHARS = 4096
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
_DRIVE = re.compile(r"^[A-Za-z]:")
_WINDOWS_DEVICES = frozenset(
    {"con", "prn", "aux", "nul", "conin$", "conout$"}
    | {f"{port}{n}" for port in ("com", "lpt") for n in (*"123456789", "¹", "²", "³")}
)


class SecurityError(CommandError):
    """A path that would leave the workspace, or names something that is not a file or folder."""

    kind = "SecurityError"


def default_workspace() -> Path:
    """``$NAPARI_TALK_WORKSPACE``, else ``~/napari-talk``."""
    return Path(os.environ.get("NAPARI_TALK_WORKSPACE") or Path.home() / "napari-talk").expanduser()


def workspace_root(root: Path | str) -> Path:
    """The resolved root, created on first use."""
    path = Path(root).expanduser()
    path.mkdir(parents=True, exist_ok=True)
    resolved = path.resolve(strict=True)
    if not resolved.is_dir():
        raise SecurityError(f"the workspace {resolved} is not a folder")
    return resolved


def _refuse(relative: str, why: str) -> SecurityError:
    return SecurityError(f"security error: {relative!r} refused: {why}")


def check_spelling(relative: str) -> PurePosixPath:
    """The path as POSIX parts, refusing what no workspace path may look like.

    Backslashes are read as separators (a Windows user's ``notes\\a.txt``), so ``..\\..\\x`` is
    judged like ``../../x``. This is for clear messages; :func:`resolve` decides containment.
    """
    if not isinstance(relative, str):
        raise SecurityError(f"security error: a path must be text, not {type(relative).__name__}")
    if "\x00" in relative:
        raise _refuse(relative, "the path contains a NUL byte")
    if _CONTROL.search(relative):
        raise _refuse(relative, "the path contains a control character")
    hidden = _unprintable(relative)
    if hidden:
        raise _refuse(relative, f"the path contains {hidden}: names must be printable")
    if len(relative) > MAX_PATH_CHARS:
        raise _refuse(relative[:40] + "…", f"the path is longer than {MAX_PATH_CHARS} characters")
    spelled = relative.replace("\\", "/")
    windows = PureWindowsPath(relative)
    if spelled.startswith("/") or windows.drive or windows.root or _DRIVE.match(spelled):
        raise _refuse(relative, "absolute paths, drive letters and UNC paths are not allowed; give a path "
                      "inside the workspace")  # fmt: skip
    depth = 0
    for part in spelled.split("/"):
        if part in ("", "."):
            continue
        if part == "..":
            depth -= 1
            if depth < 0:
                raise _refuse(relative, "'..' climbs outside the workspace")
            continue
        depth += 1
        if not part.strip(". "):
            raise _refuse(relative, f"{part!r} is not a usable name (only dots and spaces)")
        if _DRIVE.match(part):
            raise _refuse(relative, f"{part!r} looks like a drive letter")
        if part.split(".")[0].rstrip(" ").casefold() in _WINDOWS_DEVICES:
            raise _refuse(relative, f"{part!r} is a device name on Windows")
    return PurePosixPath(spelled or ".")


_UNPRINTABLE = frozenset({"Cc", "Cf", "Zl", "Zp", "Cs"})
"""Unicode categories no name may hold: controls (C0 and C1), format characters (bidi overrides,
zero-width spaces and joiners, the byte-order mark), line and paragraph separators, lone surrogates.
Each would make a name show other than it is: text reversed, split over lines, or two names alike."""


def _unprintable(text: str) -> str:
    """The first character of ``text`` that is not printable, described ("U+202E RIGHT-TO-LEFT
    OVERRIDE"), or "" when every one is."""
    if text.isprintable():
        return ""
    for char in text:
        if unicodedata.category(char) in _UNPRINTABLE:
            name = unicodedata.name(char, "")
            return f"an invisible or control character (U+{ord(char):04X}{' ' + name if name else ''})"
    return ""


def resolve(root: Path | str, relative: str) -> Path:
    """The resolved path of ``relative`` under ``root``; refuses anything that would leave it.

    The target need not exist. If it does, it must be a regular file or a folder.
    """
    spelled = check_spelling(relative)
    base = workspace_root(root)
    try:
        target = (base / spelled).resolve()
    except (OSError, RuntimeError) as exc:  # a symlink loop, or one swapped in or out meanwhile
        why = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc
        raise _refuse(relative, f"it cannot be resolved ({why})") from None
    if not target.is_relative_to(base):
        raise _refuse(relative, "it resolves outside the workspace (through a symlink?)")
    refuse_special(target, relative)
    return target


def refuse_special(path: Path, relative: str) -> None:
    """Refuse device files, FIFOs and sockets: reading one can block or never end."""
    try:
        mode = os.lstat(path).st_mode
    except (FileNotFoundError, NotADirectoryError):
        return
    except OSError as exc:
        raise _refuse(relative, f"it cannot be examined ({exc.strerror})") from None
    if stat.S_ISREG(mode) or stat.S_ISDIR(mode):
        return
    kind = special_kind(mode)
    raise _refuse(relative, f"it is a {kind}, not a regular file or folder")


def special_kind(mode: int) -> str:
    if stat.S_ISFIFO(mode):
        return "FIFO"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "device file"
    if stat.S_ISSOCK(mode):
        return "socket"
    if stat.S_ISLNK(mode):
        return "symlink"
    return "special file"


def relative_to_root(root: Path, path: Path) -> str:
    """``path`` (resolved, inside ``root``) as the POSIX path a command would name it by."""
    relative = path.relative_to(root).as_posix()
    return relative if relative else "."


# -- the gate -------------------------------------------------------------------------------------

_O = tree.NO_FOLLOW
_ROOT_FLAGS = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | os.O_CLOEXEC
"""The root itself may be reached through symlinks (the person chose it); nothing below it is."""
_TEMP_SUFFIX = ".napari-talk.tmp"
STALE_TEMP_SECONDS = 60.0
MAX_LINK_HOPS = 40
CHUNK = 1 << 20
HARD_LINK_SCAN_ENTRIES = 20_000
"""Entries of the workspace looked through for a hard-linked file's other names before a read of
it is refused (its names could not all be found inside)."""


class WorkspaceError(CommandError):
    """A file the person named cannot be read or written as asked (not a security matter)."""

    def __init__(self, message: str, kind: str = "WorkspaceError") -> None:
        super().__init__(message)
        self.kind = kind


def human_size(size: int) -> str:
    """``1,048,576 bytes (1 MiB)``: exact for agents, readable for people."""
    for unit, scale in (("GiB", 1024**3), ("MiB", 1024**2), ("KiB", 1024)):
        if size >= scale:
            return f"{size:,} bytes ({size / scale:.3g} {unit})"
    return f"{size:,} bytes"


@dataclass(frozen=True)
class Written:
    """What napari-talk wrote to a workspace file: the file and its content's digest. An undo
    touches the file only while it still holds exactly that (:meth:`Workspace.check_written`)."""

    relative: str
    digest: str


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


class Workspace:
    """The gate every pack's file access goes through; ``relative`` paths only."""

    def __init__(self, root: Path | str) -> None:
        self._given = Path(root).expanduser()
        self._swept: set[str] = set()
        self._lock = threading.Lock()
        self._ours: dict[str, str] = {}
        """What napari-talk last wrote to each file (its digest), as this session knows."""
        self._put_back: dict[str, str] = {}
        """What an undo last put back in each file: the person's, replaced again only by a redo."""

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

    def _parts(self, relative: str) -> list[str]:
        """The path's parts with every symlink inside the workspace replaced by where it leads.

        A link is read and its target judged lexically against the root (the parts before it are
        real folders), so a link leading out is refused; the parts are then opened without
        following any link, so a link swapped in meanwhile fails closed.
        """
        pending = _lexical(check_spelling(relative).as_posix().split("/"), relative)
        real: list[str] = []
        hops = 0
        fd = os.open(self.root, _ROOT_FLAGS)
        try:
            while pending:
                part = pending.pop(0)
                try:
                    mode = os.lstat(part, dir_fd=fd).st_mode
                except (FileNotFoundError, NotADirectoryError):
                    return [*real, part, *pending]
                if stat.S_ISLNK(mode):
                    hops += 1
                    if hops > MAX_LINK_HOPS:
                        raise _refuse(relative, "too many symlinks (a loop?)")
                    try:
                        target = os.readlink(part, dir_fd=fd)
                    except OSError:  # no longer a symlink: swapped meanwhile
                        raise _changed(relative, part) from None
                    if target.startswith("/"):
                        inside = Path(target)
                        if not inside.is_relative_to(self.root):
                            raise _refuse(relative, "it resolves outside the workspace (through a symlink)")
                        spelled = inside.relative_to(self.root).parts
                    else:
                        spelled = (*real, *target.split("/"))
                    pending = _lexical([*spelled, *pending], relative)
                    real = []
                    os.close(fd)
                    fd = os.open(self.root, _ROOT_FLAGS)
                    continue
                real.append(part)
                if pending and stat.S_ISDIR(mode):
                    try:
                        step = tree.open_folder(part, fd)
                    except OSError as exc:  # swapped for a symlink (or removed) since its lstat
                        raise self._refusal(fd, part, relative, exc) from None
                    os.close(fd)
                    fd = step
                elif pending:
                    return [*real, *pending]
        finally:
            os.close(fd)
        return real

    @contextlib.contextmanager
    def folder(self, relative: str, *, create: bool = False) -> Iterator[int]:
        """A descriptor of a folder inside the workspace, reached without following a symlink."""
        fd = self._walk(self._parts(relative), relative, create)
        try:
            yield fd
        finally:
            os.close(fd)

    @contextlib.contextmanager
    def place(self, relative: str) -> Iterator[Place]:
        """Where a listing or a search of ``relative`` starts, reached following no symlink: the
        folder's descriptor for :mod:`.tree` to walk. A file is a place too (its folder, and its
        name in ``only``); a missing path is NotFound, and a special file is refused."""
        parts = self._parts(relative)
        path = "/".join(parts) or "."
        if not parts:
            with self.folder(".") as fd:
                yield Place(fd, path, "", None)
            return
        folder = "/".join(parts[:-1])
        name = parts[-1]
        dir_fd = self._walk(parts[:-1], relative, create=False)
        try:
            try:
                mode = os.lstat(name, dir_fd=dir_fd).st_mode
            except (FileNotFoundError, NotADirectoryError):
                raise WorkspaceError(f"{relative} does not exist in the workspace", "NotFound") from None
            if stat.S_ISREG(mode):
                yield Place(dir_fd, path, folder, name)
                return
            if not stat.S_ISDIR(mode):
                raise _refuse(relative, f"it is a {special_kind(mode)}, not a regular file or folder")
            try:
                fd = tree.open_folder(name, dir_fd)
            except OSError as exc:  # swapped for a symlink since its lstat
                raise self._refusal(dir_fd, name, relative, exc) from None
        finally:
            os.close(dir_fd)
        try:
            yield Place(fd, path, path, None)
        finally:
            os.close(fd)

    def _walk(self, parts: list[str], relative: str, create: bool) -> int:
        fd = os.open(self.root, _ROOT_FLAGS)
        try:
            for part in parts:
                try:
                    step = tree.open_folder(part, fd)
                except FileNotFoundError:
                    if not create:
                        raise WorkspaceError(
                            f"{relative} does not exist in the workspace", "NotFound"
                        ) from None
                    with contextlib.suppress(FileExistsError):
                        os.mkdir(part, 0o777, dir_fd=fd)
                    step = tree.open_folder(part, fd)
                except (NotADirectoryError, OSError) as exc:
                    raise self._refusal(fd, part, relative, exc) from None
                os.close(fd)
                fd = step
        except BaseException:
            os.close(fd)
            raise
        return fd

    @staticmethod
    def _refusal(fd: int, part: str, relative: str, exc: OSError) -> CommandError:
        try:
            mode = os.lstat(part, dir_fd=fd).st_mode
        except OSError:
            return WorkspaceError(f"{relative}: {exc.strerror or exc}", type(exc).__name__)
        if stat.S_ISLNK(mode):
            return _refuse(relative, f"{part!r} is a symlink; the workspace follows none")
        if exc.errno in (errno.ELOOP, errno.ENOTDIR) and stat.S_ISDIR(mode):  # a symlink at the open
            return _changed(relative, part)
        if not stat.S_ISDIR(mode):
            return WorkspaceError(f"{relative}: {part!r} is a file, not a folder", "NotAFolder")
        return WorkspaceError(f"{relative}: {exc.strerror or exc}", type(exc).__name__)

    def _split(self, relative: str) -> tuple[list[str], str]:
        parts = self._parts(relative)
        if not parts:
            raise WorkspaceError(
                f"{relative!r} is the workspace folder itself; give a file path", "IsAFolder"
            )
        return parts[:-1], parts[-1]

    # reading

    def _open_file(self, relative: str) -> tuple[int, os.stat_result]:
        """A descriptor of a regular file, and its status; refused when it is anything else."""
        folder, name = self._split(relative)
        dir_fd = self._walk(folder, relative, create=False)
        try:
            try:
                fd, info = tree.open_file(name, dir_fd)
            except FileNotFoundError:
                raise WorkspaceError(f"{relative} does not exist in the workspace", "NotFound") from None
            except OSError as exc:
                raise self._refusal(dir_fd, name, relative, exc) from None
        finally:
            os.close(dir_fd)
        try:
            if stat.S_ISDIR(info.st_mode):
                raise WorkspaceError(f"{relative} is a folder, not a file", "IsAFolder")
            if not stat.S_ISREG(info.st_mode):
                raise _refuse(relative, f"it is a {special_kind(info.st_mode)}, not a regular file")
            if info.st_nlink > 1 and not self._links_inside(info):
                raise _hard_linked(relative, info.st_nlink, "read")
        except BaseException:
            os.close(fd)
            raise
        return fd, info

    def _links_inside(self, info: os.stat_result) -> bool:
        """Whether every name of this hard-linked file is inside the workspace (looked for in at
        most :data:`HARD_LINK_SCAN_ENTRIES` entries, walked following no symlink; not found is not
        inside)."""
        found = 0
        root_fd = os.open(self.root, _ROOT_FLAGS)
        try:
            with contextlib.closing(tree.walk(root_fd, hidden=True)) as walk:  # its descriptors closed now
                for seen, entry in enumerate(walk, 1):
                    if seen > HARD_LINK_SCAN_ENTRIES:
                        return False
                    if (entry.info.st_dev, entry.info.st_ino) == (info.st_dev, info.st_ino):
                        found += 1
                        if found >= info.st_nlink:
                            return True
        finally:
            os.close(root_fd)
        return False

    def read_bytes(self, relative: str, *, limit: int, what: str = "files") -> bytes:
        """The whole file, refused by its size (read on the open descriptor) when over ``limit``."""
        fd, info = self._open_file(relative)
        try:
            if info.st_size > limit:
                raise _too_large(relative, info.st_size, limit, what)
            chunks, total = [], 0
            while chunk := os.read(fd, max(info.st_size + 1 - total, 1 << 16)):
                chunks.append(chunk)
                total += len(chunk)
                if total > limit:
                    raise _too_large(relative, total, limit, what)
            return b"".join(chunks)
        finally:
            os.close(fd)

    def read_text(self, relative: str, *, limit: int, what: str = "text files") -> str:
        data = self.read_bytes(relative, limit=limit, what=what)
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise WorkspaceError(f"{relative} is not UTF-8 text (byte {exc.start})", "BinaryFile") from None

    def digest(self, relative: str) -> str | None:
        """The SHA-256 of the file's content, read in pieces; None when there is no such file."""
        try:
            fd, _ = self._open_file(relative)
        except WorkspaceError as exc:
            if exc.kind == "NotFound":
                return None
            raise
        try:
            found = hashlib.sha256()
            while chunk := os.read(fd, 1 << 20):
                found.update(chunk)
            return found.hexdigest()
        finally:
            os.close(fd)

    # what napari-talk wrote, and taking it back

    def _key(self, relative: str) -> str:
        return "/".join(self._parts(relative))

    def replacing(self, relative: str, *, named: bool = True) -> Effect | None:
        """What writing over or removing ``relative`` now would replace of the person's: nothing
        when there is no such file or it holds what napari-talk last wrote to it; else the file,
        named, with its digest (an agreement covers this content, not a later one)."""
        now = self.digest(relative)
        if now is None:
            return None
        key = self._key(relative)
        ours = self._ours.get(key)
        if ours == now:
            return None
        why = "which napari-talk did not write" if ours is None else "changed since napari-talk wrote it"
        # content an undo put back was agreed to be replaced by the change a redo repeats: no digest,
        # so the person's own redo is not asked about it (a model's or an agent's change still is)
        state = "" if self._put_back.get(key) == now else now
        return Effect.replace(f"{relative}, {why}", state, named=named)

    def written(self, relative: str, data: bytes | None = None) -> Written:
        """What napari-talk just wrote to ``relative``: ``data``, or the file as it is now."""
        digest = _digest(data) if data is not None else self.digest(relative)
        if digest is None:
            raise WorkspaceError(f"{relative} does not exist in the workspace", "NotFound")
        return Written("/".join(self._parts(relative)), digest)

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
            key = self._key(written.relative)
            self._ours.pop(key, None)  # what was there before may be the person's
            self._put_back[key] = _digest(previous)

    def take_back_all(self, written: Iterable[Written]) -> None:
        """Remove files napari-talk made, all or none: refused before any goes if one changed."""
        written = list(written)
        self.check_written(*written)
        for one in written:
            self.remove(one.relative)

    def remove_folder(self, relative: str) -> None:
        """Remove a folder if it is empty (what an undo emptied); a folder with files stays."""
        folder, name = self._split(relative)
        with contextlib.suppress(OSError, CommandError), self.folder("/".join(folder) or ".") as dir_fd:
            os.rmdir(name, dir_fd=dir_fd)

    def exists(self, relative: str) -> bool:
        """Whether there is an entry of that name; hostile paths and symlinks on the way are refused."""
        return not self._parts(relative) or self.stat(relative) is not None

    def stat(self, relative: str) -> os.stat_result | None:
        """The entry's own status (a symlink is not followed), or None when there is none."""
        folder, name = self._split(relative)
        try:
            with self.folder("/".join(folder) or ".") as fd:
                return os.lstat(name, dir_fd=fd)
        except WorkspaceError as exc:
            if exc.kind == "NotFound":
                return None
            raise
        except FileNotFoundError:
            return None

    # writing

    def mkdir(self, relative: str) -> str:
        """Make a folder (and its parents); its relative path."""
        with self.folder(relative, create=True):
            pass
        return "/".join(self._parts(relative)) or "."

    def write_bytes(self, relative: str, data: bytes, *, overwrite: bool = True) -> int:
        """Replace (or create) the file atomically; folders are made as needed. Bytes written."""
        folder, name = self._split(relative)
        with self.folder("/".join(folder) or ".", create=True) as dir_fd:
            self._sweep(dir_fd, "/".join(folder))
            try:
                existing = os.lstat(name, dir_fd=dir_fd)
                mode: int | None = stat.S_IMODE(existing.st_mode)
                if stat.S_ISLNK(existing.st_mode):
                    raise _refuse(relative, "it is a symlink; the workspace follows none")
                if stat.S_ISDIR(existing.st_mode):
                    raise WorkspaceError(f"{relative} is a folder; give a file path", "IsAFolder")
                if not stat.S_ISREG(existing.st_mode):
                    raise _refuse(relative, f"it is a {special_kind(existing.st_mode)}, not a regular file")
                if existing.st_nlink > 1:
                    raise _hard_linked(relative, existing.st_nlink, "write to")
                if not overwrite:
                    raise WorkspaceError(f"{relative} exists already", "Exists")
            except FileNotFoundError:
                mode = None
            temp, fd = _temp_file(dir_fd, name)
            try:
                view = memoryview(data)
                written = 0
                while written < len(view):
                    written += os.write(fd, view[written : written + CHUNK])
                if mode is not None:
                    os.fchmod(fd, mode)
                os.fsync(fd)
                os.close(fd)
                fd = -1
                os.replace(temp, name, src_dir_fd=dir_fd, dst_dir_fd=dir_fd)
            except BaseException:
                if fd != -1:
                    os.close(fd)
                with contextlib.suppress(OSError):
                    os.unlink(temp, dir_fd=dir_fd)
                raise
            with contextlib.suppress(OSError):
                os.fsync(dir_fd)
        self._ours["/".join([*folder, name])] = _digest(data)
        return len(data)

    def write_text(self, relative: str, text: str, *, overwrite: bool = True) -> int:
        return self.write_bytes(relative, text.encode("utf-8"), overwrite=overwrite)

    def append(self, relative: str, data: bytes) -> None:
        """One ``write`` at the end of the file (O_APPEND): concurrent writers never interleave."""
        folder, name = self._split(relative)
        with self.folder("/".join(folder) or ".", create=True) as dir_fd:
            flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | _O
            try:
                fd = os.open(name, flags, 0o644, dir_fd=dir_fd)
            except OSError as exc:
                raise self._refusal(dir_fd, name, relative, exc) from None
            try:
                info = os.fstat(fd)
                if not stat.S_ISREG(info.st_mode):
                    raise _refuse(relative, "it is not a regular file")
                if info.st_nlink > 1:
                    raise _hard_linked(relative, info.st_nlink, "append to")
                os.write(fd, data)
                os.fsync(fd)
            finally:
                os.close(fd)

    def remove(self, relative: str, *, missing_ok: bool = True) -> None:
        folder, name = self._split(relative)
        try:
            with self.folder("/".join(folder) or ".") as dir_fd:
                os.unlink(name, dir_fd=dir_fd)
            self._ours.pop("/".join([*folder, name]), None)
        except (FileNotFoundError, WorkspaceError) as exc:
            if not missing_ok or (isinstance(exc, WorkspaceError) and exc.kind != "NotFound"):
                raise

    def _sweep(self, dir_fd: int, folder: str) -> None:
        """Remove temporary files a crash left in this folder (once per folder and session)."""
        with self._lock:
            if folder in self._swept:
                return
            self._swept.add(folder)
        now = time.time()
        with contextlib.suppress(OSError), os.scandir(dir_fd) as entries:
            for entry in entries:
                if not (entry.name.startswith(".") and entry.name.endswith(_TEMP_SUFFIX)):
                    continue
                with contextlib.suppress(OSError):
                    if now - entry.stat(follow_symlinks=False).st_mtime > STALE_TEMP_SECONDS:
                        os.unlink(entry.name, dir_fd=dir_fd)

    # SQLite, which opens files by name

    def sqlite_path(self, relative: str) -> PinnedFile:
        """A path SQLite may open for ``relative`` (it opens files by name, and its journal beside).

        The folders are walked without following symlinks, and the database is named through the
        pinned folder descriptor (``/proc/self/fd``) where the system has one, so a folder swapped
        meanwhile cannot redirect it; :meth:`PinnedFile.verify`, run once SQLite has opened the
        file, refuses a database that is a symlink or was replaced meanwhile.
        """
        folder, name = self._split(relative)
        dir_fd = self._walk(folder, relative, create=True)
        pinned = Path(f"/proc/self/fd/{dir_fd}")
        base = pinned if pinned.is_dir() else self.root.joinpath(*folder)
        return PinnedFile(base / name, dir_fd, name, relative, _own_status(dir_fd, name, relative))


@dataclass(frozen=True)
class Place:
    """Where a listing or a search starts (:meth:`Workspace.place`); ``dir_fd`` is open only
    inside the ``with`` block."""

    dir_fd: int
    path: str
    """What was named, as commands name it (``.`` for the root)."""
    folder: str
    """The folder ``dir_fd`` is, as commands name it (``""`` for the root)."""
    only: str | None
    """The file's name in that folder when a file was named, else None."""


class PinnedFile:
    """A file named through a folder descriptor kept open until :meth:`release`."""

    def __init__(
        self, path: Path, dir_fd: int, name: str, relative: str, before: os.stat_result | None
    ) -> None:
        self.path, self._dir_fd, self._name, self._relative, self._before = (
            path,
            dir_fd,
            name,
            relative,
            before,
        )

    def verify(self) -> None:
        after = _own_status(self._dir_fd, self._name, self._relative)
        before = self._before
        if after is None or (
            before is not None and (after.st_dev, after.st_ino) != (before.st_dev, before.st_ino)
        ):
            raise _refuse(self._relative, "the file was replaced while it was being opened")

    def release(self) -> None:
        if self._dir_fd != -1:
            os.close(self._dir_fd)
            self._dir_fd = -1


def _lexical(parts: list[str] | tuple[str, ...], relative: str) -> list[str]:
    """``a/./b/../c`` → ``[a, c]``; refuses a ``..`` that would climb out of the root."""
    out: list[str] = []
    for part in parts:
        if part in ("", "."):
            continue
        if part == "..":
            if not out:
                raise _refuse(relative, "it resolves outside the workspace (through a symlink)")
            out.pop()
        else:
            out.append(part)
    return out


def _own_status(dir_fd: int, name: str, relative: str) -> os.stat_result | None:
    try:
        info = os.lstat(name, dir_fd=dir_fd)
    except FileNotFoundError:
        return None
    if stat.S_ISLNK(info.st_mode):
        raise _refuse(relative, "it is a symlink; the workspace follows none")
    if not stat.S_ISREG(info.st_mode):
        raise _refuse(relative, f"it is a {special_kind(info.st_mode)}, not a regular file")
    if info.st_nlink > 1:
        raise _hard_linked(relative, info.st_nlink, "open")
    return info


def _changed(relative: str, part: str) -> SecurityError:
    return _refuse(
        relative,
        f"{part!r} changed while it was being opened (swapped with a symlink?); the workspace follows none",
    )


def _hard_linked(relative: str, links: int, act: str) -> SecurityError:
    return _refuse(
        relative,
        f"it has {links} hard links, and napari-talk does not {act} a file that is also reachable by "
        "another name (possibly outside the workspace); copy it into the workspace instead",
    )


def _temp_file(dir_fd: int, name: str) -> tuple[str, int]:
    """A new file beside the target (same file system, so the rename is atomic), umask applied."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | _O
    for _ in range(100):
        temp = f".{name[:180]}.{secrets.token_hex(6)}{_TEMP_SUFFIX}"
        try:
            return temp, os.open(temp, flags, 0o666, dir_fd=dir_fd)
        except FileExistsError:
            continue
    raise FileExistsError(f"no free temporary name beside {name}")


def _too_large(relative: str, size: int, limit: int, what: str) -> WorkspaceError:
    return WorkspaceError(
        f"{relative} is {human_size(size)}, over the limit of {human_size(limit)} for {what}", "TooLarge"
    )
