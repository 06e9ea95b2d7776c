"""``napari-talk mcp`` with a display: a napari window with the dock, served to MCP clients over
stdio or streamable HTTP."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TYPE_CHECKING

from qtpy.QtCore import QObject, Signal

if TYPE_CHECKING:
    from ..agents.mcp_server import Bridge
    from .dock import ChatDock
    from .gui_thread import GuiThread


class _Quit(QObject):
    requested = Signal()


def bridge_for(dock: ChatDock, *, show: bool) -> tuple[Bridge, GuiThread]:
    """The MCP bridge to the dock's session: every call is judged by the session's risk policy as
    it runs, and a call that needs the person is put to them in the dock; with the window hidden
    there is nobody to ask, so such a call is refused at once. Keep the GuiThread alive with it."""
    from ..agents.mcp_server import Bridge
    from .gui_thread import GuiThread

    gui = GuiThread(dock.session, dock.ask, dock.withdraw)
    return Bridge(dock.session, gui.call, gui.confirm if show else None), gui


def run(
    sample: str | None,
    show: bool,
    *,
    http: bool = False,
    port: int = 0,
    token: str | None = None,
    say: Callable[[str], None] = print,
    call_seconds: float | None = None,
) -> int:
    import napari
    from qtpy.QtWidgets import QApplication

    from ..agents.mcp_server import HttpService, serve_stdio
    from .start import open_window

    _viewer, dock = open_window("napari-talk (MCP)", sample, show=show)
    bridge, _gui = bridge_for(dock, show=show)
    if call_seconds is not None:
        bridge.work_seconds = call_seconds
    if http:
        service = HttpService(bridge, port=port, token=token).start()
        say(f"MCP over HTTP at {service.url}; send the header Authorization: Bearer {service.token}")
        try:
            napari.run()
        finally:
            service.stop()
        return 0
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
