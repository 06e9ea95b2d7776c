"""The viewer window's panels for the core's :class:`~napari_talk.core.basics.window.Window`: napari's
own ("layer list", "layer controls", "console") and every dock widget, found by their titles on
the Qt main window."""

from __future__ import annotations

from typing import Any

from qtpy.QtCore import Qt
from qtpy.QtWidgets import QApplication, QDockWidget, QMainWindow, QWidget


def main_window(viewer: Any, hint: QWidget | None = None) -> QMainWindow | None:
    """The QMainWindow of ``viewer``: the hint's (the dock passes itself), else the only one."""
    if hint is not None:
        owner = hint.window()
        return owner if isinstance(owner, QMainWindow) else None
    if QApplication.instance() is None:
        return None
    windows = [w for w in QApplication.topLevelWidgets() if isinstance(w, QMainWindow)]
    for dock in dict(getattr(getattr(viewer, "window", None), "dock_widgets", {}) or {}).values():
        native = getattr(dock, "native", dock)
        owner = native.window() if isinstance(native, QWidget) else None
        if owner in windows:
            return owner
    return windows[0] if len(windows) == 1 else None


class DockPanel:
    """A QDockWidget as a :class:`~napari_talk.core.basics.window.Panel`."""

    def __init__(self, dock: QDockWidget) -> None:
        self.dock = dock

    def is_open(self) -> bool:
        return not self.dock.isHidden()

    def set_open(self, open_: bool) -> None:
        self.dock.setVisible(open_)


class ViewerWindow:
    """The panels of ``viewer``'s main window, looked up when asked (panels come and go)."""

    def __init__(self, viewer: Any, hint: QWidget | None = None) -> None:
        self._viewer, self._hint = viewer, hint

    def main_window(self) -> QMainWindow | None:
        return main_window(self._viewer, self._hint)

    def panels(self) -> dict[str, DockPanel]:
        window = self.main_window()
        if window is None:
            return {}
        found = {}
        # docks are the main window's own children: no need to walk every widget below it
        for dock in window.findChildren(QDockWidget, options=Qt.FindChildOption.FindDirectChildrenOnly):
            title = dock.windowTitle().strip()
            if title:
                found[title] = DockPanel(dock)
        return found
