"""napari's window as ``napari-talk start`` and ``napari-talk mcp`` open it: a sample, the chat
dock, and the sample framed in the canvas the dock leaves."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import napari

    from .dock import ChatDock


def open_window(title: str, sample: str | None, *, show: bool = True) -> tuple[napari.Viewer, ChatDock]:
    """The viewer with ``sample`` open and the chat dock added; call ``napari.run()`` next.

    napari frames a sample as it opens, in the canvas as wide as it is then; the dock, added after,
    narrows it, and the picture would be cropped and off-centre. The view is framed again once
    the event loop runs, when the window is laid out with the dock and the canvas has its size.
    """
    import napari
    from qtpy.QtCore import QTimer

    from ..headless import open_sample

    viewer = napari.Viewer(title=title, show=show)
    if sample:
        open_sample(viewer, sample)
    _, dock = viewer.window.add_plugin_dock_widget("napari-talk", "Chat")
    QTimer.singleShot(0, viewer.reset_view)
    return viewer, dock
