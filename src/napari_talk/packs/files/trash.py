"""The workspace's trash: what is deleted is moved to ``.trash/<when>/<its path>``, inside the
workspace (a hidden folder, so listings and searches leave it out), and undo moves it back.

Nothing is ever erased by napari-talk; emptying the trash is the person's, with their own tools.
"""

from __future__ import annotations

import posixpath
import secrets
import time

from ...core.safety.moving import move
from ...core.safety.workspace import Workspace

TRASH = ".trash"


def to_trash(workspace: Workspace, relative: str) -> str:
    """Move ``relative`` into a new folder of the trash; where it went."""
    stamp = time.strftime("%Y%m%d-%H%M%S") + "-" + secrets.token_hex(3)
    trashed = f"{TRASH}/{stamp}/{relative}"
    move(workspace, relative, trashed)
    return trashed


def put_back(workspace: Workspace, trashed: str, relative: str) -> None:
    """Move a trashed entry back where it was (refused when something is there now), and remove
    the trash folders it leaves empty."""
    move(workspace, trashed, relative)
    folder = posixpath.dirname(trashed)
    while folder and folder != TRASH:
        workspace.remove_folder(folder)
        folder = posixpath.dirname(folder)
