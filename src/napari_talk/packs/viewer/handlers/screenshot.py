"""Saving the canvas as a picture in the workspace: replacing a file of the person's is asked first,
and undo puts back what was there while the picture is still the one saved."""

from __future__ import annotations

import time

from ....core.basics.jobs import Job, Progress
from ....core.basics.result import CommandError, Result
from ....core.contract.pack import Context
from ....core.running.history import Changes
from .. import commands as cmd
from .common import HANDLERS, viewer_of

SCREENSHOT_FORMATS = (".png", ".jpg", ".jpeg", ".tif", ".tiff", ".bmp")
UNDO_KEEP_BYTES = 64 * 1024 * 1024
"""A screenshot over an existing file keeps the old bytes for undo up to this size."""


def screenshot_path(command: cmd.Screenshot) -> str:
    relative = command.path or time.strftime("screenshots/screenshot-%Y%m%d-%H%M%S.png")
    return relative if relative.lower().endswith(SCREENSHOT_FORMATS) else relative + ".png"


@HANDLERS.on(cmd.Screenshot)
def screenshot(command: cmd.Screenshot, ctx: Context[None]) -> Job:
    """The canvas is grabbed on the GUI thread; encoding it (a tenth of a second for a PNG of the
    canvas) runs off it, and the file is written when that is done."""
    viewer = viewer_of(ctx)
    if not hasattr(viewer, "screenshot"):
        raise CommandError("a screenshot needs napari's canvas, and this viewer has no window (no display)")
    relative = screenshot_path(command)
    workspace = ctx.workspace
    before = workspace.read_bytes(relative, limit=UNDO_KEEP_BYTES) if workspace.exists(relative) else None
    image = viewer.screenshot(canvas_only=True)
    height, width = image.shape[:2]

    def encode(_: Progress) -> bytes:
        from imageio.v3 import imwrite

        return imwrite("<bytes>", image, extension="." + relative.rsplit(".", 1)[-1].lower())

    def finish(encoded: bytes) -> Result:
        ctx.consent.require(workspace.replacing(relative))  # the file may have changed while encoding
        workspace.write_bytes(relative, encoded)
        ours = workspace.written(relative, encoded)
        path = str(workspace.resolve(relative))

        def undo() -> str:  # refused when the picture changed since: the person's version is kept
            workspace.take_back(ours, before)
            return f"the earlier {path} is back" if before is not None else f"{path} deleted"

        changes = Changes()
        changes.add(undo, size=len(before or b""))
        replaced = " (the earlier file is kept for undo)" if before is not None else ""
        return Result.success(
            f"screenshot saved to {path} ({width}×{height}){replaced}.",
            {"path": path, "width": int(width), "height": int(height)},
            undo=changes,
        )

    return Job(f"saving {relative}", encode, finish)
