"""The atlas pack on a real napari viewer: layers into the catalogue and back, analysis of layers,
and the sample-data layer that brings the sample catalogue along."""

from __future__ import annotations

import numpy as np
import pytest

from napari_talk.core.running.session import Session
from napari_talk.packs.atlas import samples
from napari_talk.packs.atlas.store import CATALOGUE_FILE


def run(session, text):
    turn = session.run(text)
    assert turn.road == "parser", text
    return turn.results[-1]


def test_an_image_layer_goes_into_the_catalogue_and_comes_back(session, workspace):
    gfp = session.viewer.layers["GFP"].data
    added = run(session, "add GFP to the catalogue as Verdant Lantern in The Lattice")
    assert added.ok, added.message
    record = added.data["entity"]
    assert record["domain"] == "The Lattice" and record["image"].startswith("atlas/images/verdant-lantern")
    assert "green" in record["description"]  # composed from the layer as shown (green colormap)
    assert (workspace / record["image"]).is_file()
    catalogue = session.state("atlas").catalogue
    assert catalogue.thumbnail(catalogue.get("Verdant Lantern").id).startswith(b"\x89PNG")

    described = run(session, "describe Verdant Lantern")  # notes from the picture as it was shown
    assert "green" in described.data["description"] and "The Lattice" in described.data["description"]

    opened = run(session, "open the image of verdant lantern")
    assert opened.ok, opened.message
    layer = session.viewer.layers["Verdant Lantern"]
    assert np.array_equal(layer.data, gfp) and layer.data.dtype == gfp.dtype  # the raw data, not a render

    assert run(session, "undo").ok
    assert "Verdant Lantern" not in [lyr.name for lyr in session.viewer.layers]
    assert run(session, "undo").ok
    assert catalogue.get("Verdant Lantern") is None and not (workspace / record["image"]).exists()


def test_the_selected_layer_is_added_when_none_is_named(session):
    session.viewer.layers.selection.active = session.viewer.layers["nuclei"]
    result = run(session, "add the current image to the atlas as Blue Core")
    assert result.ok and "from layer nuclei" in result.message
    again = run(session, "add the current image to the atlas as Blue Core")
    assert not again.ok and "already in the catalogue" in again.message
    session.viewer.layers.selection.active = session.viewer.layers["Labels"]
    labels = session.execute({"action": "add_to_catalogue", "name": "Masks", "layer": "Labels"})
    assert not labels.ok and "not an image" in labels.message


def test_layers_are_analyzed_as_they_are_shown(session):
    result = run(session, "analyze the GFP layer")
    assert result.ok, result.message
    measured = result.data["analysis"]
    assert measured["measurements"]["size"] == [512, 512]
    assert {"green", "forest green"} & {c["name"] for c in measured["colors"]["dominant"]}
    session.viewer.layers.selection.active = session.viewer.layers["nuclei"]
    this = run(session, "analyze this image")
    assert this.ok and this.data["source"] == "layer nuclei"
    assert {"blue", "navy"} & {c["name"] for c in this.data["analysis"]["colors"]["dominant"]}


def test_a_stack_is_analyzed_at_the_current_slice(make_napari_viewer, workspace):
    viewer = make_napari_viewer()
    stack = np.zeros((3, 32, 32), np.uint8)
    stack[2] = 255
    viewer.add_image(stack, name="stack", contrast_limits=(0, 255))
    session = Session(viewer, workspace=workspace)
    viewer.dims.set_current_step(0, 0)
    assert run(session, "analyze stack").data["analysis"]["measurements"]["brightness"] == 0.0
    viewer.dims.set_current_step(0, 2)
    assert run(session, "analyze stack").data["analysis"]["measurements"]["brightness"] == 1.0


def test_the_sample_layer_brings_the_sample_catalogue(make_napari_viewer, workspace):
    viewer = make_napari_viewer()
    for data, kwargs, kind in samples.atlas_sample():
        getattr(viewer, f"add_{kind}")(data, **kwargs)
    assert viewer.layers["atlas sample"].rgb
    session = Session(viewer, workspace=workspace)
    assert not (workspace / CATALOGUE_FILE).exists()
    result = run(session, "find similar to void walker")
    assert result.ok and result.data["entities"][0]["name"] == "The Nullbringer"
    assert session.state("atlas").catalogue.count() == len(samples.ENTITIES) >= 50
    opened = run(session, "show The Heralds' image")
    assert opened.ok and viewer.layers["The Heralds"].data.shape == (128, 128, 3)


@pytest.mark.parametrize("text", ["add the current image to the atlas as X", "open the image of Eigensage"])
def test_viewer_commands_without_a_viewer_say_so(workspace, text):
    result = Session(None, workspace=workspace).run(text).results[-1]
    assert not result.ok and ("no viewer" in result.message or "empty" in result.message)


def test_in_the_dock_a_slow_vision_model_leaves_napari_responsive(
    make_napari_viewer, qtbot, llm_settings, chat_server
):
    import itertools
    import json
    import time

    from qtpy.QtCore import QTimer

    from napari_talk._qt.dock import ChatDock
    from napari_talk.samples import cells

    viewer = make_napari_viewer()
    for data, kwargs, kind in cells():
        getattr(viewer, f"add_{kind}")(data, **kwargs)
    dock = ChatDock(viewer)
    viewer.window.add_dock_widget(dock, name="Chat")
    assert dock.send("analyze the GFP layer").ok  # imports scikit-image's modules once
    dock.apply_settings(llm_settings)
    dock.session.llm.warm_up()  # and the openai SDK: first imports stall any thread's GUI
    chat_server.say(json.dumps({"suggested_name": "Verdant Lantern", "mood": "calm"}), delay=1.0)
    ticks: list[float] = []
    timer = QTimer()
    timer.timeout.connect(lambda: ticks.append(time.perf_counter()))
    timer.start(10)
    turn = dock.send("analyze the GFP layer")
    timer.stop()
    assert turn is not None and turn.ok, turn and turn.message
    assert turn.results[0].data["analysis"]["suggested_name"] == "Verdant Lantern"
    assert "Verdant Lantern" in dock.transcript.entries[-1].text
    assert len(ticks) > 20 and max(b - a for a, b in itertools.pairwise(ticks)) < 0.25


def test_the_readmes_atlas_lines_work_on_the_atlas_sample_alone(make_napari_viewer_proxy, qtbot, workspace):
    """A newcomer opens only the Atlas sample and types the README's atlas lines into the dock."""
    from support.door import open_door, type_line

    dock = open_door(make_napari_viewer_proxy, workspace)
    dock.viewer.open_sample("napari-talk", "atlas")
    assert "GFP" in [layer.name for layer in dock.viewer.layers]

    def said(line: str) -> str:
        before = len(dock.transcript.entries)
        type_line(qtbot, dock, line)
        return "\n".join(entry.text for entry in dock.transcript.entries[before:])

    similar = said("find similar to a golden desert guardian")
    analysed = said("analyze the GFP layer")
    sref = said("sref 3050518")
    assert "closest to" in similar, similar
    assert "layer GFP (256×256 px)" in analysed, analysed
    assert "with sref 3050518" in sref, sref
