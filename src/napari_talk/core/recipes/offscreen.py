"""Screenshots in a batch: a batch's viewer (napari's ``ViewerModel``, no window) drawn off screen.

A Dask worker has no display and runs its task off its main thread, where Qt may not open a
window; OpenGL through EGL needs neither. The layers are drawn by napari's own visuals (the same
colormaps, contrast limits, opacity and blending as its canvas) on a vispy canvas of the EGL
backend, Mesa's ``surfaceless`` platform when nothing else is set: a CPU renderer on a machine with
no GPU. The canvas overlays (scale bar, text) are not drawn.

PyOpenGL picks its platform once, when it is first imported: the renderer works in a process that
had not imported OpenGL for a window before (a worker, the command line). Where it cannot draw,
:class:`NoCanvas` says why in one sentence, and the screenshot line fails its row with it.
"""

from __future__ import annotations

import os
import sys
import threading
from typing import Any

from ..basics.result import CommandError

DEFAULT_SIZE = (600, 800)
"""Height and width of a batch screenshot when the viewer has no canvas size of its own."""
_lock = threading.Lock()
_app: list[Any] = []
_canvas: list[tuple[Any, Any]] = []


class NoCanvas(CommandError):
    """Nothing here can draw off screen; the message says what a worker needs."""


def can_draw() -> str:
    """An empty string when this process can draw off screen, else the sentence that says why not."""
    platform = os.environ.get("PYOPENGL_PLATFORM")
    if "OpenGL" in sys.modules and platform != "egl":
        return (
            "a screenshot in a batch draws with offscreen OpenGL (EGL), and this process already "
            "drew for a window: run the batch on workers (--scheduler local) or from the command line"
        )
    return ""


def _egl_app() -> Any:
    """vispy's EGL application, made once per process."""
    if not _app:
        problem = can_draw()
        if problem:
            raise NoCanvas(problem)
        os.environ.setdefault("PYOPENGL_PLATFORM", "egl")
        os.environ.setdefault("EGL_PLATFORM", "surfaceless")
        os.environ.setdefault("LP_NUM_THREADS", "1")  # Mesa draws on one thread: a worker is one core
        try:
            from vispy import app

            _app.append(app.Application("egl"))
        except Exception as exc:  # no libEGL, or no EGL display to open
            raise NoCanvas(
                "a screenshot in a batch needs offscreen OpenGL (EGL, such as Mesa's libEGL) on the "
                f"worker, and this one has none ({_first_line(exc)})"
            ) from None
    return _app[0]


def render(viewer: Any, size: tuple[int, int] | None = None) -> Any:
    """The viewer's layers as napari's canvas would show them, an RGBA array (height, width, 4).
    One canvas per process is kept and reused: making one (and its shaders) costs more than a draw."""
    with _lock:
        app = _egl_app()  # first: napari's visuals import OpenGL, which picks its platform then
    from napari._vispy.utils.qt_font import FontInfo
    from napari._vispy.utils.visual import create_vispy_layer
    from vispy import scene

    height, width = size or _canvas_size(viewer)
    with _lock:
        if not _canvas:
            canvas = scene.SceneCanvas(size=(width, height), show=False, app=app)
            view = canvas.central_widget.add_view(border_width=0)
            view.camera = scene.PanZoomCamera(aspect=1)
            view.camera.flip = (False, True, False)  # napari draws rows downward
            _canvas.append((canvas, view))
        canvas, view = _canvas[0]
        if tuple(canvas.size) != (width, height):
            canvas.size = (width, height)
        canvas.bgcolor = getattr(getattr(viewer, "canvas", None), "background_color", "black")
        visuals = []
        try:
            for order, layer in enumerate(viewer.layers):
                visual = create_vispy_layer(layer, font_info=FontInfo(font_manager=None))
                visual.node.parent = view.scene
                visual.order = order
                visuals.append(visual)
            zoom = float(viewer.camera.zoom) or 1.0
            center_y, center_x = (float(v) for v in viewer.camera.center[-2:])
            span_x, span_y = width / zoom, height / zoom
            view.camera.rect = (center_x - span_x / 2, center_y - span_y / 2, span_x, span_y)
            return canvas.render(alpha=True)
        finally:
            for visual in visuals:
                visual.node.parent = None
                visual.close()


def _canvas_size(viewer: Any) -> tuple[int, int]:
    size = getattr(getattr(viewer, "canvas", None), "size", None)
    if size is not None and len(size) == 2 and min(size) > 0:
        return int(size[0]), int(size[1])
    return DEFAULT_SIZE


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return (text.splitlines()[-1] if text else type(exc).__name__)[:160]
