"""A slow job's progress, reported from its worker thread through the core's ``Progress``, is
shown by the dock on the GUI thread: in the status line, and in the busy bar when the work says
how far it is. No pack draws a Qt widget of its own from a worker thread."""

from __future__ import annotations

import threading

from qtpy.QtCore import Qt, QTimer
from support.door import open_door


def test_a_jobs_progress_shows_in_the_dock_while_it_works(qtbot, make_napari_viewer_proxy, workspace):
    from napari_talk.core.basics.jobs import Job
    from napari_talk.core.basics.result import Result

    dock = open_door(make_napari_viewer_proxy, workspace)
    proceed, seen = threading.Event(), {}

    def work(progress):
        progress.report("step 2 of 4", 0.5)
        assert proceed.wait(30)
        return "counted"

    def look() -> None:  # on the GUI thread, while the work waits
        if "step 2 of 4" in dock.status.text() or timer.remainingTime() < 0:
            seen.update(status=dock.status.text(), bar=(dock.busy.maximum(), dock.busy.value()))
            seen["shown"] = dock.busy.isVisibleTo(dock)
            proceed.set()
            timer.stop()

    timer = QTimer()
    timer.timeout.connect(look)
    timer.start(20)
    QTimer.singleShot(20_000, proceed.set)  # never hang: the asserts below then fail
    result = dock.run_job(Job("counting", work, Result.success))
    assert result.ok and result.message == "counted"
    assert seen == {"status": "counting: step 2 of 4", "bar": (1000, 500), "shown": True}
    assert not dock.busy.isVisibleTo(dock), "the bar goes when the job is done"


def test_embedding_the_sample_catalogue_reports_progress_on_the_gui_thread(
    qtbot, qtlog, make_napari_viewer_proxy, workspace
):
    dock = open_door(make_napari_viewer_proxy, workspace)
    shown: list[tuple[str, float | None, bool]] = []
    show = dock._show_progress

    def recording(status: str, fraction: float | None) -> None:
        shown.append((status, fraction, threading.current_thread() is threading.main_thread()))
        show(status, fraction)

    dock._show_progress = recording  # what the job's relay calls
    qtbot.keyClicks(dock.input, "load the sample catalogue")
    qtbot.keyClick(dock.input, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: dock.job is None and dock.task is None, timeout=60_000)
    assert dock.transcript.entries[-1].text.startswith("loaded the sample catalogue"), dock.transcript.entries
    assert shown and all(on_gui for *_, on_gui in shown), "every report shown on the GUI thread"
    assert all(status.startswith("embedding 56 entities: ") for status, *_ in shown), shown
    assert shown[-1][:2] == ("embedding 56 entities: 56 of 56", 1.0)
    warnings = [r.message for r in qtlog.records if "thread" in r.message.casefold()]
    assert not warnings, "no Qt object made or started from a worker thread"
