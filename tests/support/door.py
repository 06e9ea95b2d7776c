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


def cells_with_model(make_napari_viewer_proxy, llm_settings, folder):
    """The dock on the cells sample with ``llm_settings`` stored as the person's (a generator for
    a fixture: it yields the dock, then stops a question still out)."""
    from napari_talk._qt.dock import ChatDock
    from napari_talk.core.running.settings import FileStore, Settings
    from napari_talk.samples import cells

    viewer = make_napari_viewer_proxy()
    for data, kwargs, kind in cells():
        getattr(viewer, f"add_{kind}")(data, **kwargs)
    store = FileStore(folder / "settings.json")
    store.save(Settings(llm=llm_settings))
    dock = ChatDock(viewer, store=store)
    viewer.window.add_dock_widget(dock, name="Chat")
    yield dock
    if dock.task is not None:
        dock.task.cancel()
        dock.task.wait(10)


def type_line(qtbot, dock, text: str):
    """Type a line and press Enter, as a person does; its transcript entry once the dock is idle."""
    qtbot.keyClicks(dock.input, text)
    qtbot.keyClick(dock.input, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: dock.job is None and dock.task is None, timeout=120_000)
    return dock.transcript.entries[-1]


def typed_ok(qtbot, dock, text: str) -> str:
    """Type a line that must not fail; the reply's text."""
    entry = type_line(qtbot, dock, text)
    assert entry.kind != "error", (text, entry.text)
    return entry.text


def said(dock):
    """The last reply in words (a table a reply brings comes after it)."""
    return next(entry for entry in reversed(dock.transcript.entries) if entry.kind != "table")


def at_default_width(door) -> None:
    """The window shown and the dock as wide as napari makes it from the Plugins menu."""
    from qtpy.QtWidgets import QApplication

    door.viewer.window.show()
    door.setFixedWidth(355)
    QApplication.processEvents()


def wider_than_the_dock(transcript) -> list[str]:
    """Lines of the transcript's layout that reach past its viewport (each would need the
    horizontal scrollbar), as text."""
    width = transcript.viewport().width()
    document = transcript.document()
    wide = []
    block = document.begin()
    while block.isValid():
        layout = block.layout()
        for i in range(layout.lineCount()):
            line = layout.lineAt(i)
            if line.naturalTextWidth() > width:
                wide.append(block.text()[line.textStart() : line.textStart() + line.textLength()][:60])
        block = block.next()
    return wide
