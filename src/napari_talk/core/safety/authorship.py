"""What napari-talk wrote to workspace files, remembered by digest, so an undo touches a file only
while it still holds exactly that, and replacing a file napari-talk did not write is asked first."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from .risk import Effect


@dataclass(frozen=True)
class Written:
    """What napari-talk wrote to a workspace file: the file and its content's digest. An undo
    touches the file only while it still holds exactly that (:meth:`Workspace.check_written`)."""

    relative: str
    digest: str


def digest_of(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


class Authorship:
    """Per file (by its real relative path): the digest of what napari-talk last wrote to it, and
    of what an undo last put back in it (the person's, replaced again only by a redo)."""

    def __init__(self) -> None:
        self._ours: dict[str, str] = {}
        self._put_back: dict[str, str] = {}

    def wrote(self, key: str, digest: str) -> None:
        self._ours[key] = digest

    def removed(self, key: str) -> None:
        self._ours.pop(key, None)

    def put_back(self, key: str, digest: str) -> None:
        self._ours.pop(key, None)  # what was there before may be the person's
        self._put_back[key] = digest

    def replacing(self, relative: str, key: str, now: str, *, named: bool) -> Effect | None:
        """What replacing the file holding ``now`` would take of the person's: nothing when it
        holds what napari-talk last wrote; else the file, named, with its digest (an agreement
        covers this content, not a later one)."""
        ours = self._ours.get(key)
        if ours == now:
            return None
        why = "which napari-talk did not write" if ours is None else "changed since napari-talk wrote it"
        # content an undo put back was agreed to be replaced by the change a redo repeats: no digest,
        # so the person's own redo is not asked about it (a model's or an agent's change still is)
        state = "" if self._put_back.get(key) == now else now
        return Effect.replace(f"{relative}, {why}", state, named=named)
