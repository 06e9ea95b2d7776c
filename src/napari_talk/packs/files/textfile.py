"""Workspace bytes as UTF-8 text, refusing binary content with a clear message."""

from __future__ import annotations

from ...core.safety.workspace import human_size
from .errors import FilesError


def as_text(data: bytes, relative: str) -> str:
    if b"\x00" in data:
        raise _binary(relative, len(data), "it contains NUL bytes")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise _binary(relative, len(data), f"byte {exc.start} is not UTF-8") from None


def _binary(relative: str, size: int, why: str) -> FilesError:
    return FilesError(f"{relative} ({human_size(size)}) is not UTF-8 text: {why}", "BinaryFile")
