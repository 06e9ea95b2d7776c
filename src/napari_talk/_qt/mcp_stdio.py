"""``napari-talk mcp``: a napari window with the dock, served to one MCP client over stdio."""

from __future__ import annotations

import threading

from qtpy.QtCore import QObject, Signal


class _Quit(QObject):
    requested = Signal()


def run(sample: str | None, show: bool) -> int:
    import napari
    from qtpy.QtWidgets import QApplication

    from ..agents.mcp_server import Bridge, serve_stdio
    from .gui_thread import GuiThread

    viewer = napari.Viewer(title="napari-talk (MCP)", show=show)
    if sample:
        viewer.open_sample("napari-talk", sample)
    _, dock = viewer.window.add_plugin_dock_widget("napari-talk", "Chat")
    gui = GuiThread(dock.session, dock.ask)
    bridge = Bridge(dock.session.registry, gui.run, gui.confirm)
    quitter = _Quit()
    app = QApplication.instance()
    if app is not None:
        quitter.requested.connect(app.quit)

    def serve() -> None:
        try:
            serve_stdio(bridge)
        finally:
            quitter.requested.emit()  # the client closed the pipe: close napari too

    threading.Thread(target=serve, name="napari-talk-mcp-stdio", daemon=True).start()
    napari.run()
    return 0
