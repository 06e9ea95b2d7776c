"""The dock that the MCP tests serve from: a real viewer (with the cells sample) behind it."""

from __future__ import annotations

import pytest


@pytest.fixture
def dock(make_napari_viewer, qtbot):
    from napari_talk._qt.dock import ChatDock
    from napari_talk.samples import cells

    viewer = make_napari_viewer()
    for data, kwargs, kind in cells():
        getattr(viewer, f"add_{kind}")(data, **kwargs)
    widget = ChatDock(viewer)
    viewer.window.add_dock_widget(widget, name="Chat")
    yield widget
    widget.serve_mcp(False)
