"""``napari-talk run``: lines run in a napari viewer without a window, replies printed.

With a display the viewer is napari's own, its window kept off screen (screenshots need its
canvas); without one it is napari's ``ViewerModel`` (see :mod:`napari_talk.headless`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from .exit_codes import EXIT_FAILED, EXIT_NOT_APPROVED, EXIT_OK
from .headless import Unavailable, has_display, model_viewer, open_sample

if TYPE_CHECKING:
    from .core.basics.jobs import Job
    from .core.basics.result import Result
    from .core.running.session import Session, Turn
    from .core.safety.risk import Approval


def run_lines(
    lines: Sequence[str],
    *,
    sample: str | None = None,
    screenshot: str | None = None,
    display: bool | None = None,
    ask: Callable[[Approval], bool] | None = None,
    bind_layers: bool = False,
) -> int:
    """Exit status 0 when every line was understood and ran; 5 (``EXIT_NOT_APPROVED``) when a command
    needed the person's approval and ``ask`` did not give it (or there was no ``ask``); else 1."""
    from .core.running.opening import open_session

    display = has_display() if display is None else display
    if screenshot and not display:
        raise Unavailable(
            "a screenshot needs napari's canvas, and there is no display here: "
            "run under a virtual one (xvfb-run -a napari-talk run ...) or leave out --screenshot"
        )
    viewer, window = _windowed_viewer() if display else (model_viewer(), None)
    try:
        if sample:
            open_sample(viewer, sample)
        session = open_session(viewer, llm=_configured_llm(), window=window)
        session.jobs.wait = _with_a_progress_line
        if bind_layers:
            lines = _bound(lines, viewer)
        failures = unapproved = 0
        for line in lines:
            turn = _run_line(session, line, ask)
            failures += not turn.ok
            unapproved += any(result.approval is not None for result in turn.results)
            marker = "✓" if turn.ok else "✗"
            print(f"› {line}\n{marker} {turn.message}", flush=True)
        if screenshot:
            viewer.screenshot(path=screenshot, canvas_only=True)
            print(f"screenshot saved to {_absolute(screenshot)}")
        return EXIT_NOT_APPROVED if unapproved else EXIT_FAILED if failures else EXIT_OK
    finally:
        if display:
            viewer.close()


def _bound(lines: Sequence[str], viewer: Any) -> list[str]:
    from .core.recipes.recipe import bind, values_for

    names = [layer.name for layer in viewer.layers]
    values = values_for(names, names[0] if names else "")
    return [bind(line, values) for line in lines]


def _run_line(session: Session, line: str, ask: Callable[[Approval], bool] | None) -> Turn:
    """A typed line, or a recipe's command written as JSON (``{"action": ...}``)."""
    if not line.lstrip().startswith("{"):
        return session.run(line, ask=ask)
    import json

    from .core.running.turns import Turn

    try:
        wire = json.loads(line)
    except (ValueError, RecursionError):  # read as typed: the parser says what is wrong with it
        return session.run(line, ask=ask)
    result = session.execute(wire, ask=ask)
    return Turn(line, "parser", results=[result])


def _with_a_progress_line(job: Job) -> Result:
    """A waited job run here, what it reports shown on stderr (a download's progress)."""
    from .core.basics.jobs import Progress
    from .progress_line import ProgressLine

    line = ProgressLine(job.label)
    try:
        return job.run_here(Progress(line.status))
    finally:
        line.close()


def _windowed_viewer() -> tuple[Any, Any]:
    """napari's viewer with its window laid out and drawn (screenshots need it), not on screen."""
    import napari
    from qtpy.QtCore import Qt

    from ._qt.panels import ViewerWindow

    viewer = napari.Viewer(show=False)
    window = ViewerWindow(viewer)
    qt_window = window.main_window()
    if qt_window is not None:
        qt_window.setAttribute(Qt.WidgetAttribute.WA_DontShowOnScreen, True)
        qt_window.resize(1200, 800)
        qt_window.show()
    return viewer, window


def _absolute(path: str) -> str:
    from pathlib import Path

    return str(Path(path).resolve())


def _configured_llm():
    """The LLM road when a model is set up (destructive commands then need allow_destructive)."""
    from .core.contract.registry import default_registry
    from .core.llm.road import LLMRoad
    from .core.running.settings import default_store

    settings = default_store().load().llm
    return LLMRoad(default_registry(), settings) if settings.configured else None
