"""A model's undo never throws away what the person did since: a layer a model's command added,
whose data the person then set from napari's console (``layer.data = ...``) or edited in place,
is kept unless the person agrees, and the reply says why."""

from __future__ import annotations

import numpy as np
import pytest
from support.chat_server import tool_call

from napari_talk.core.llm.road import LLMRoad


@pytest.fixture
def model_session(session, llm_settings):
    session.llm = LLMRoad(session.registry, llm_settings)
    return session


def _model_opens_an_image(session, chat_server) -> str:
    """The person catalogues GFP; a model then opens its image as a new layer."""
    assert session.run("add GFP to the catalogue as Verdant Lantern").ok
    chat_server.say(tool_calls=[tool_call("open_entity_image", {"name": "Verdant Lantern"})])
    turn = session.run("show me the lantern please", ask=lambda a: True)
    assert turn.ok and turn.road == "llm", turn.message
    assert "Verdant Lantern" in [layer.name for layer in session.viewer.layers]
    return "Verdant Lantern"


def _model_loads_a_scene(session, chat_server) -> str:
    """A model loads a ray scene: its layers are new, one of them an array of points."""
    before = {layer.name for layer in session.viewer.layers}
    chat_server.say(tool_calls=[tool_call("load_sample_scene", {"name": "prism demo"})])
    turn = session.run("show me a prism please", ask=lambda a: True)
    assert turn.ok and turn.road == "llm", turn.message
    new = [layer for layer in session.viewer.layers if layer.name not in before]
    return next(layer.name for layer in new if isinstance(layer.data, np.ndarray) and layer.data.size)


def _assign(layer) -> np.ndarray:
    new = np.full_like(np.asarray(layer.data), 3)
    layer.data = new  # what a person types in napari's console
    return new


def _edit_in_place(layer) -> np.ndarray:
    layer.data[..., :2] = 5  # an in-place edit, then a redraw
    layer.refresh()
    return np.array(layer.data)


@pytest.mark.parametrize("opened", [_model_opens_an_image, _model_loads_a_scene])
@pytest.mark.parametrize("change", [_assign, _edit_in_place])
def test_a_models_undo_keeps_data_the_person_set_from_the_console(model_session, chat_server, opened, change):
    session = model_session
    name = opened(session, chat_server)
    theirs = change(session.viewer.layers[name])
    chat_server.say(tool_calls=[tool_call("undo_last_action", {})])
    asked = []
    turn = session.run("undo that", ask=lambda a: asked.append(a) or False)
    assert name in [layer.name for layer in session.viewer.layers], "the person's layer is kept"
    assert np.array_equal(np.asarray(session.viewer.layers[name].data), theirs)
    assert len(asked) == 1 and f"layer {name!r}" in asked[0].question
    assert not turn.ok and "changed since napari-talk made it" in turn.message
    assert session.history.can_undo, "refused, the undo is still there"


def test_through_the_proxy_a_dock_holds_the_persons_data_is_kept(
    make_napari_viewer_proxy, llm_settings, chat_server
):
    """A dock holds napari's proxy of the viewer: the watch on a layer's data works through it."""
    from napari_talk.core.running.session import Session

    viewer = make_napari_viewer_proxy()
    viewer.add_image(np.arange(64, dtype=np.uint16).reshape(8, 8), name="GFP")
    session = Session(viewer)
    session.llm = LLMRoad(session.registry, llm_settings)
    name = _model_opens_an_image(session, chat_server)
    theirs = _assign(viewer.layers[name])
    chat_server.say(tool_calls=[tool_call("undo_last_action", {})])
    turn = session.run("undo that", ask=lambda a: False)
    assert not turn.ok and "changed since napari-talk made it" in turn.message
    assert np.array_equal(np.asarray(viewer.layers[name].data), theirs)


def test_a_models_undo_of_an_edit_keeps_data_the_person_set_on_that_layer(model_session, chat_server):
    """The model's edit redraws a layer in place (its data set by napari-talk); the person then
    sets that layer's data; undoing the edit would put the old drawing over theirs: it asks."""
    session = model_session
    assert session.run("load the prism demo").ok
    sources = next(layer for layer in session.viewer.layers if "source" in layer.name)
    chat_server.say(tool_calls=[tool_call("add_light_source", {"kind": "point", "at": [100, 100]})])
    assert session.run("a point light at 100, 100 please", ask=lambda a: True).ok
    assert [100.0, 100.0] in sources.data.tolist()
    theirs = _assign(sources)
    chat_server.say(tool_calls=[tool_call("undo_last_action", {})])
    asked = []
    turn = session.run("undo that", ask=lambda a: asked.append(a) or False)
    assert np.array_equal(sources.data, theirs), "the person's data is kept"
    assert len(asked) == 1 and f"layer {sources.name!r}" in asked[0].question
    assert not turn.ok and "changed since napari-talk set it" in turn.message
