"""``napari-talk run``: lines run in a napari viewer without a window, replies printed."""

from __future__ import annotations

from collections.abc import Sequence


def run_lines(lines: Sequence[str], *, sample: str | None = None, screenshot: str | None = None) -> int:
    """Exit status 0 when every line was understood and ran, else 1."""
    import napari

    from .core.session import Session

    viewer = napari.Viewer(show=False)
    _show_off_screen(viewer)
    try:
        if sample:
            viewer.open_sample("napari-talk", sample)
        session = Session(viewer, llm=_configured_llm())
        failures = 0
        for line in lines:
            turn = session.run(line)
            failures += not turn.ok
            marker = "✓" if turn.ok else "✗"
            print(f"› {line}\n{marker} {turn.message}", flush=True)
        if screenshot:
            viewer.screenshot(path=screenshot, canvas_only=True)
            print(f"screenshot saved to {screenshot}")
        return 1 if failures else 0
    finally:
        viewer.close()


def _show_off_screen(viewer) -> None:
    """Let Qt lay out and draw the window (screenshots need it) without putting it on screen."""
    from qtpy.QtCore import Qt

    from ._qt.panels import main_window

    window = main_window(viewer)
    if window is not None:
        window.setAttribute(Qt.WidgetAttribute.WA_DontShowOnScreen, True)
        window.resize(1200, 800)
        window.show()


def _configured_llm():
    """The LLM road when a model is set up (destructive commands then need allow_destructive)."""
    from .core.llm.road import LLMRoad
    from .core.registry import default_registry
    from .core.settings import default_store

    settings = default_store().load().llm
    return LLMRoad(default_registry(), settings) if settings.configured else None
