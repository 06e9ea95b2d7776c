"""Reading a workspace file as UTF-8 text, refusing binary, over-size and special files."""

from __future__ import annotations

import os
import stat
from pathlib import Path

from ...workspace import SecurityError, special_kind
from .errors import FilesError
from .limits import human_size

_FLAGS = (
    os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
)


def read_bytes(path: Path, relative: str, limit: int) -> bytes:
    """The whole file; the size is checked on the open descriptor, so a swapped-in FIFO cannot block."""
    try:
        fd = os.open(path, _FLAGS | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        raise FilesError(f"{relative} does not exist", "NotFound") from None
    except IsADirectoryError:
        raise FilesError(
            f"{relative} is a folder; list it with: list files in {relative}", "IsAFolder"
        ) from None
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise FilesError(f"{relative} is a folder; list it with: list files in {relative}", "IsAFolder")
        if not stat.S_ISREG(info.st_mode):
            raise SecurityError(f"security error: {relative!r} refused: it is a {special_kind(info.st_mode)}")
        if info.st_size > limit:
            raise _too_large(relative, info.st_size, limit)
        chunks, total = [], 0
        while chunk := os.read(fd, max(info.st_size + 1 - total, 1 << 16)):
            chunks.append(chunk)
            total += len(chunk)
            if total > limit:
                raise _too_large(relative, total, limit)
        return b"".join(chunks)
    finally:
        os.close(fd)


def read_text(path: Path, relative: str, limit: int) -> str:
    data = read_bytes(path, relative, limit)
    if b"\x00" in data:
        raise _binary(relative, len(data), "it contains NUL bytes")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise _binary(relative, len(data), f"byte {exc.start} is not UTF-8") from None


def _too_large(relative: str, size: int, limit: int) -> FilesError:
    return FilesError(
        f"{relative} is {human_size(size)}, over the limit of {human_size(limit)} for text files", "TooLarge"
    )


def _binary(relative: str, size: int, why: str) -> FilesError:
    return FilesError(f"{relative} ({human_size(size)}) is not UTF-8 text: {why}", "BinaryFile")
