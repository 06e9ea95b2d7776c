"""What the first line on a sample needs is made ready first: a pack that a layer open before the
dock calls for (``napari-talk start --sample atlas``) has its set-up begun in a thread as soon as
its handlers are imported, while the dock still warms up (the other packs' handlers, the parser's
rules), not after all of it."""

from __future__ import annotations

import threading


def test_a_sample_open_before_the_dock_has_its_pack_set_up_while_the_dock_warms_up(
    make_napari_viewer_proxy, qtbot, workspace, monkeypatch
):
    from napari_talk._qt.dock import ChatDock
    from napari_talk.core.grammar.parser import Parser
    from napari_talk.packs.atlas import warm_up

    docks: list[ChatDock] = []
    began: list[tuple[str, bool]] = []
    set_up = threading.Event()

    def recorded(ctx) -> None:  # what the dock was doing when the atlas's set-up began
        while not docks:
            threading.Event().wait(0.01)
        began.append((threading.current_thread().name, docks[0]._warming.running()))
        set_up.set()

    compile_rules = Parser.prepare

    def slow_rules(self, context=None) -> None:  # the rules take a while, as on a first run
        set_up.wait(10)
        compile_rules(self, context)

    monkeypatch.setattr(warm_up, "warm_up", recorded)
    monkeypatch.setattr(Parser, "prepare", slow_rules)
    viewer = make_napari_viewer_proxy()
    viewer.open_sample("napari-talk", "atlas")
    dock = ChatDock(viewer)
    docks.append(dock)
    viewer.window.add_dock_widget(dock, name="Chat")
    dock.session.workspace = workspace
    qtbot.waitUntil(lambda: bool(began) and not dock._warming.running(), timeout=120_000)
    thread, warming = began[0]
    assert thread == "napari-talk-packs"  # off the GUI thread
    assert warming, "the atlas's set-up waited for the whole warm-up"
    assert len(began) == 1  # once: the warm-up's end does not begin it again
