"""The door people use: napari's viewer proxy with the chat dock, and lines typed into it."""

from __future__ import annotations

from qtpy.QtCore import Qt


def open_door(make_napari_viewer_proxy, workspace):
    """The dock on the viewer proxy napari gives a plugin, working in the test's workspace."""
    from napari_talk._qt.dock import ChatDock

    viewer = make_napari_viewer_proxy()
    dock = ChatDock(viewer)
    viewer.window.add_dock_widget(dock, name="Chat")
    dock.session.workspace = workspace
    return dock


def type_line(qtbot, dock, text: str):
    """Type a line and press Enter, as a person does; its transcript entry once the dock is idle."""
    qtbot.keyClicks(dock.input, text)
    qtbot.keyClick(dock.input, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: dock.job is None and dock.task is None, timeout=120_000)
    return dock.transcript.entries[-1]
