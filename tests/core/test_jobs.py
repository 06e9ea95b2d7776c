"""Slow work handed back as a Job: inline without a GUI, in a thread behind the dock."""

from __future__ import annotations

import itertools
import threading
import time
from typing import ClassVar

import pytest
from qtpy.QtCore import Qt, QTimer

from napari_talk.core.basics.commands import Command, Risk
from napari_talk.core.basics.jobs import Job
from napari_talk.core.basics.result import CommandError, Result
from napari_talk.core.contract.pack import Context, Handlers, Pack
from napari_talk.core.contract.registry import Registry, default_registry
from napari_talk.core.rules.rule import Rule
from napari_talk.core.running.history import Changes
from napari_talk.core.viewer.layers import set_attributes


class Crunch(Command, action="crunch_for_test"):
    """Crunch numbers for a while, then rename a layer (a stand-in for tracing or segmenting)."""

    risk: ClassVar[Risk] = "view"
    examples: ClassVar[tuple[str, ...]] = ("crunch for 2 s",)
    seconds: float = 1.0
    fail: bool = False


HANDLERS = Handlers[None]()


@HANDLERS.on(Crunch)
def crunch(command: Crunch, ctx: Context[None]) -> Job:
    layer = ctx.viewer.layers[0]
    threads: list[str] = []

    def work(cancelled: threading.Event) -> int:
        threads.append(threading.current_thread().name)
        end = time.perf_counter() + command.seconds
        while time.perf_counter() < end and not cancelled.is_set():
            time.sleep(0.01)
        if command.fail:
            raise CommandError("the numbers did not add up")
        return 42

    def finish(value: int) -> Result:
        with Changes() as changes:
            set_attributes(layer, changes, name=f"crunched {value}")
        return Result.success(f"crunched on {threads[0]}", undo=changes)

    return Job("crunching", work, finish)


RULES = (Rule(Crunch, "crunch(?: for {seconds:number} s)?"),)


def registry_with_crunch() -> Registry:
    registry = Registry(default_registry().packs)
    registry.register(Pack("crunch", (Crunch,), RULES, handlers=HANDLERS))
    return registry


def test_without_a_gui_a_job_runs_in_turn_and_can_be_undone(cells_viewer):
    from napari_talk.core.running.session import Session

    session = Session(cells_viewer, registry=registry_with_crunch())
    turn = session.run("crunch for 0.1 s")
    assert turn.ok and turn.message == "crunched on MainThread"
    assert cells_viewer.layers[0].name == "crunched 42"
    assert session.run("undo").ok and cells_viewer.layers[0].name == "nuclei"
    failed = session.execute(Crunch(seconds=0, fail=True))
    assert not failed.ok and failed.message == "the numbers did not add up"


@pytest.fixture
def dock(make_napari_viewer, qtbot):
    from napari_talk._qt.dock import ChatDock
    from napari_talk.samples import cells

    viewer = make_napari_viewer()
    for data, kwargs, kind in cells():
        getattr(viewer, f"add_{kind}")(data, **kwargs)
    widget = ChatDock(viewer, registry=registry_with_crunch())
    viewer.window.add_dock_widget(widget, name="Chat")
    return widget


def test_the_dock_runs_a_job_off_the_gui_thread_while_the_gui_turns(qtbot, dock):
    ticks: list[float] = []
    timer = QTimer()
    timer.timeout.connect(lambda: ticks.append(time.perf_counter()))
    timer.start(10)
    QTimer.singleShot(300, lambda: seen.append((dock.busy.isVisibleTo(dock), dock.status.text())))
    seen: list = []
    qtbot.keyClicks(dock.input, "crunch for 1 s")
    qtbot.keyClick(dock.input, Qt.Key.Key_Return)
    timer.stop()
    assert seen == [(True, "crunching …")]
    assert dock.transcript.entries[-1].text.startswith("crunched on napari-talk-job")
    assert dock.viewer.layers[0].name == "crunched 42"
    assert max(b - a for a, b in itertools.pairwise(ticks)) < 0.25
    assert dock.input.isEnabled()


def test_stop_abandons_a_job(qtbot, dock):
    QTimer.singleShot(200, lambda: qtbot.mouseClick(dock.stop_button, Qt.MouseButton.LeftButton))
    start = time.perf_counter()
    dock.send("crunch for 5 s")
    assert time.perf_counter() - start < 3
    assert dock.transcript.entries[-1].text == "crunching: stopped"
    assert dock.viewer.layers[0].name == "nuclei"
