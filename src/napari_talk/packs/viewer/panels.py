"""The viewer window's panels: napari's own ("layer list", "layer controls", "console") and
every dock widget, found by their titles on the Qt main window.

Qt is imported inside the functions: the pack stays importable without a Qt binding.
"""

from __future__ import annotations

from typing import Any


def main_window(viewer: Any, hint: Any = None) -> Any | None:
    """The QMainWindow of ``viewer``: the hint (the dock passes its window), else the only one."""
    from qtpy.QtWidgets import QApplication, QMainWindow

    if hint is not None:
        return hint.window() if hasattr(hint, "window") else hint
    app = QApplication.instance()
    if app is None:
        return None
    windows = [w for w in QApplication.topLevelWidgets() if isinstance(w, QMainWindow)]
    for dock in dict(getattr(getattr(viewer, "window", None), "dock_widgets", {}) or {}).values():
        native = getattr(dock, "native", dock)
        owner = getattr(native, "window", lambda: None)()
        if owner in windows:
            return owner
    return windows[0] if len(windows) == 1 else None


def panels(viewer: Any, hint: Any = None) -> dict[str, Any]:
    """Title → QDockWidget, for every panel of the viewer's window."""
    from qtpy.QtCore import Qt
    from qtpy.QtWidgets import QDockWidget

    window = main_window(viewer, hint)
    if window is None:
        return {}
    found = {}
    # docks are the main window's own children: no need to walk every widget below it
    for dock in window.findChildren(QDockWidget, options=Qt.FindChildOption.FindDirectChildrenOnly):
        title = dock.windowTitle().strip()
        if title:
            found[title] = dock
    return found


def is_open(dock: Any) -> bool:
    """Open means not hidden: a hidden main window (``napari-talk run``) still counts its docks."""
    return not dock.isHidden()
