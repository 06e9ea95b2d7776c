"""A model's command runs only when it says what the line says, and a remark is never sent to a
model: a real viewer, the real openai client, a scripted server on 127.0.0.1."""

from __future__ import annotations

import json

import pytest
from support.chat_server import ChatServer

from napari_talk.core.chat.settings import LLMSettings
from napari_talk.core.llm.grounding import named, ungrounded
from napari_talk.core.llm.road import LLMRoad
from napari_talk.core.llm.words import is_remark
from napari_talk.core.running.session import Session


@pytest.fixture
def server():
    with ChatServer() as running:
        yield running


@pytest.fixture
def talk(session, server):
    session.llm = LLMRoad(
        session.registry,
        LLMSettings(model="scripted", base_url=server.url, mode="json", timeout=10, max_retries=0),
    )
    return session


def _opacities(session: Session) -> dict[str, float]:
    return {layer.name: float(layer.opacity) for layer in session.viewer.layers}


def test_a_layer_the_line_does_not_name_is_refused_and_nothing_changes(talk, server):
    before = _opacities(talk)
    server.say(json.dumps({"commands": [{"action": "layer_opacity", "name": "actin", "opacity": 0.3}]}))
    turn = talk.run("make the predictions see-through, like 30%")
    assert not turn.ok and _opacities(talk) == before
    assert "the line does not name 'actin'" in turn.message and "nothing was done" in turn.message


def test_a_number_the_line_does_not_say_is_refused(talk, server):
    server.say(json.dumps({"commands": [{"action": "set_zoom", "zoom": 1}]}))
    turn = talk.run("magnify the spots by seventy percent")
    assert not turn.ok and "the line does not say 1" in turn.message


def test_a_placeholder_copied_from_a_signature_is_refused(talk, server):
    server.say(json.dumps({"commands": [{"action": "layer_colormap", "name": "GFP", "colormap": "string"}]}))
    turn = talk.run("tint GFP like a sunset")
    assert not turn.ok and "a placeholder" in turn.message
    assert talk.viewer.layers["GFP"].colormap.name == "green"


def test_the_prompt_copied_into_a_free_text_parameter_is_refused(talk, server):
    """A small model once wrote the road's hint into a material's description beside a right
    opacity: the whole reply is refused, the opacity included."""
    before = _opacities(talk)
    copied = {"action": "apply_material", "material_description": "Named in this line: layer 'GFP'."}
    opacity = {"action": "layer_opacity", "name": "GFP", "opacity": 0.3}
    server.say(json.dumps({"commands": [opacity, copied]}))
    turn = talk.run("make GFP see-through, like 30%")
    assert not turn.ok and _opacities(talk) == before
    assert "copies the prompt" in turn.message


def test_a_grounded_command_runs(talk, server):
    server.say(json.dumps({"commands": [{"action": "layer_opacity", "name": "GFP", "opacity": 0.3}]}))
    turn = talk.run("GFP see-through, like thirty percent")
    assert turn.ok, turn.message
    assert talk.viewer.layers["GFP"].opacity == pytest.approx(0.3)


def test_a_layer_pointed_at_by_its_colour_may_be_the_models_pick(talk, server):
    server.say(json.dumps({"commands": [{"action": "layer_visibility", "name": "nuclei", "op": "hide"}]}))
    turn = talk.run("please make the blue blobs disappear")
    assert turn.ok, turn.message
    assert not talk.viewer.layers["nuclei"].visible


def test_a_question_changes_nothing(talk, server):
    server.say(json.dumps({"commands": [{"action": "remove_layer", "name": "spots"}]}))
    turn = talk.run("why do the spots look so dim?")
    assert not turn.ok and "a question changes nothing" in turn.message
    assert "spots" in talk.viewer.layers


@pytest.mark.parametrize(
    "line",
    [
        "my zoom meeting ran long, sorry",
        "we should spawn more seedlings next week",
        "thanks, that's perfect",
        "lol",
        "ugh the slide tray jammed again",
        "the red channel always fades first",
    ],
)
def test_a_remark_is_never_sent_to_the_model(talk, server, line):
    turn = talk.run(line)
    assert not turn.ok and turn.commands == []
    assert server.requests == [], "a remark reached the model"
    assert "reads as a remark" in turn.message


@pytest.mark.parametrize(
    "line",
    [
        "I want the nuclei hidden",
        "I'd like a screenshot",
        "I'll take concept 2",
        "the three brightest paths",
        "Lens 2 up by 20",
        "ok the nuclei in magma",
        "never mind the scale bar, hide the spots",
    ],
)
def test_requests_worded_as_statements_are_not_remarks(line):
    assert not is_remark(line)


def test_names_are_matched_loosely_but_not_invented():
    assert named("cell boundaries", "hide the cell boundary layer")
    assert named("Main Prism", "rotate the main prizm")
    assert not named("actin", "hide the predictions")
    assert (
        ungrounded(
            {"action": "move_scene_object", "name": "Lens 2", "dx": 0, "dy": 25},
            "move Lens 2 by 0, 25",
            ["Lens 2"],
        )
        is None
    )
    assert ungrounded(
        {"action": "move_scene_object", "name": "Lens 2", "dx": 0, "dy": 52},
        "move Lens 2 by 0, 25",
        ["Lens 2"],
    )


def test_a_reply_that_leaves_out_what_the_line_names_is_refused(talk, server):
    zoom = talk.viewer.camera.zoom
    server.say(json.dumps({"commands": [{"action": "zoom_by", "factor": 2}]}))
    turn = talk.run("enlarge GFP twice over")
    assert not turn.ok and "the line names 'GFP', which the reply does not act on" in turn.message
    assert talk.viewer.camera.zoom == zoom


def test_a_pronoun_refers_to_what_the_line_names_not_to_anything(talk, server):
    server.say(
        json.dumps(
            {
                "commands": [
                    {"action": "rename_layer", "name": "spots", "new_name": "dots"},
                    {"action": "layer_visibility", "name": "actin", "op": "hide"},
                ]
            }
        )
    )
    turn = talk.run("christen spots dots, then banish them from sight")
    assert not turn.ok and "the line does not name 'actin'" in turn.message
    assert "spots" in talk.viewer.layers and talk.viewer.layers["actin"].visible


def test_a_number_the_command_needs_is_not_invented_for_a_line_without_one(talk, server):
    zoom = talk.viewer.camera.zoom
    server.say(json.dumps({"commands": [{"action": "zoom_box", "box": [268, 295, 1, 1]}]}))
    turn = talk.run("hold on, my coffee is getting cold")
    assert not turn.ok and "the line gives no number for box" in turn.message
    assert talk.viewer.camera.zoom == zoom
    server.say(json.dumps({"commands": [{"action": "zoom_by", "factor": 1.5}]}))
    assert talk.run("get a bit closer to everything").ok, "a word of quantity lets the model choose"
