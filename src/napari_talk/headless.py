"""Working without a display: whether there is one, and a viewer that needs none.

Without a display (a server, CI, an SSH session) napari's window cannot open: its canvas needs
OpenGL, which Qt's offscreen platform does not give. What needs no canvas still works on napari's
``ViewerModel`` (layers, camera, dims, samples; no Qt is imported): every command but a
screenshot and the panels.
"""

from __future__ import annotations

import os
import sys
from typing import Any


class Unavailable(Exception):
    """What was asked needs something this machine lacks here (a display, a free port, a sample)."""


def has_display() -> bool:
    """Whether napari's window can open: always on macOS and Windows; on Linux and the other Unixes
    when an X or Wayland display is set and Qt is not told to draw off screen."""
    if os.environ.get("QT_QPA_PLATFORM", "").split(":")[0] in ("offscreen", "minimal"):
        return False
    if sys.platform in ("darwin", "win32"):
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def model_viewer() -> Any:
    """napari's viewer without a window (``ViewerModel``), with the plugins' samples registered."""
    import npe2
    from napari.components import ViewerModel

    npe2.PluginManager.instance().discover(include_npe1=False)
    return ViewerModel(title="napari-talk")


def open_sample(viewer: Any, sample: str) -> None:
    """Open one of napari-talk's samples as File > Open Sample does; an unknown name is Unavailable."""
    try:
        viewer.open_sample("napari-talk", sample)
    except KeyError as exc:
        raise Unavailable(f"there is no sample {sample!r}; samples are: {', '.join(sample_keys())}") from exc


def sample_keys() -> list[str]:
    import npe2

    manifest = npe2.PluginManager.instance().get_manifest("napari-talk")
    return [s.key for s in (manifest.contributions.sample_data or [])]
