"""The files sample: a small folder of notes and chapters to try the files commands on.

It is made in a fresh folder of the workspace (``sample``; ``sample-2`` and on when that name is
the person's), never over a file that is there. Opened again, a sample folder made before is left
as the person has it. The layer napari shows is a card of what was made and what to type.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from ...core.safety.workspace import Workspace

FOLDER = "sample"
MARK = ".napari-talk-sample"
"""A file in the folder saying napari-talk made it (so opening the sample again reuses it)."""

FILES = {
    "notes/plan.md": "# Plan\n\n- image the GFP series\n- segment the nuclei\n- count spots per cell\n",
    "notes/a.md": "teh cells divide\n",
    "chapters/ch01.md": "# Chapter 1\n\nThe castle stood on the hill, its windows dark.\n",
    "chapters/ch02.md": "# Chapter 2\n\nBelow the hill the river ran to the sea.\n",
}

TRY = (
    "list files in {folder}",
    "read {folder}/notes/plan.md",
    "search 'castle' in {folder}/chapters",
    "in {folder}/notes/a.md replace 'teh' with 'the'",
)


def sample_folder(workspace: Workspace) -> str:
    """The folder for the sample: one napari-talk made before, else the first free name."""
    for n in range(1, 1000):
        name = FOLDER if n == 1 else f"{FOLDER}-{n}"
        if _free_or_ours(workspace, name):
            return name
    raise FileExistsError(f"every name from {FOLDER} to {FOLDER}-999 is taken in {workspace.root}")


def _free_or_ours(workspace: Workspace, name: str) -> bool:
    from ...core.basics.result import CommandError

    try:
        return not workspace.exists(name) or workspace.exists(f"{name}/{MARK}")
    except CommandError:  # a symlink or something else the gate refuses: not ours to use
        return False


def make(workspace: Workspace) -> tuple[str, list[str]]:
    """The sample's folder (relative) and the files written there now (none when it was made before)."""
    folder = sample_folder(workspace)
    if workspace.exists(f"{folder}/{MARK}"):
        return folder, []
    written = []
    for relative, text in FILES.items():
        path = f"{folder}/{relative}"
        workspace.write_text(path, text, overwrite=False)
        written.append(path)
    workspace.write_text(f"{folder}/{MARK}", "made by napari-talk's files sample\n", overwrite=False)
    return folder, written


def lines_to_try(folder: str) -> list[str]:
    return [line.format(folder=folder) for line in TRY]


def card(root: Path, folder: str) -> np.ndarray:
    """A picture of where the sample is and what to type (RGB, uint8)."""
    from PIL import Image, ImageDraw, ImageFont

    try:
        font: Any = ImageFont.load_default(size=18)
    except (TypeError, OSError):  # Pillow without FreeType: the bitmap font
        font = ImageFont.load_default()
    text = [
        f"Files sample: {root / folder}",
        "",
        *sorted(FILES),
        "",
        "Type in the chat:",
        *lines_to_try(folder),
    ]
    image = Image.new("RGB", (760, 40 + 26 * len(text)), (32, 36, 44))
    draw = ImageDraw.Draw(image)
    for row, line in enumerate(text):
        colour = (250, 210, 120) if line in lines_to_try(folder) else (225, 228, 235)
        draw.text((20, 20 + 26 * row), line, fill=colour, font=font)
    return np.asarray(image)


def files_sample() -> list[tuple[np.ndarray, dict[str, Any], str]]:
    """napari sample-data contribution: the sample folder made in the workspace, and its card."""
    from ...core.running.settings import default_store
    from ...core.safety.workspace import Workspace

    workspace = Workspace(default_store().load().workspace.path())
    folder, written = make(workspace)
    meta = {
        "napari_talk": {"role": "files sample", "folder": str(workspace.resolve(folder)), "written": written}
    }
    return [(card(workspace.root, folder), {"name": "files sample", "rgb": True, "metadata": meta}, "image")]
