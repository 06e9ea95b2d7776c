"""What packs may ask of the window around the viewer: its panels, found by title.

The dock (or ``napari-talk run``) hands the session an object that answers this protocol; the Qt
behind it stays under ``_qt``. Without one (a script's ``Session(viewer)``), there are no panels.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol, runtime_checkable


@runtime_checkable
class Panel(Protocol):
    """One panel of the window: napari's own ("layer list", "console") or a dock widget."""

    def is_open(self) -> bool:
        """Open means not hidden: a hidden main window (``napari-talk run``) still counts its panels."""
        ...

    def set_open(self, open_: bool) -> None: ...


@runtime_checkable
class Window(Protocol):
    def panels(self) -> Mapping[str, Panel]:
        """Title → panel, for every titled panel of the window."""
        ...


def panels_of(window: object) -> Mapping[str, Panel]:
    """The window's panels, or none when there is no window that knows them."""
    return window.panels() if isinstance(window, Window) else {}
