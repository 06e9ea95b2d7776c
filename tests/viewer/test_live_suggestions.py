"""A line nothing reads is answered with examples in the person's own names, never the samples'."""

from __future__ import annotations

import numpy as np
import pytest

from napari_talk.core.grammar.parser import parse

LAYERS = ("membrane", "DAPI")
SAMPLE_ONLY = ("nuclei", "spots", "actin", "GFP", "cell boundaries", "Labels")


@pytest.fixture
def own_session(make_napari_viewer_proxy):
    from napari_talk.core.running.session import Session

    viewer = make_napari_viewer_proxy()
    for name in LAYERS:
        viewer.add_image(np.zeros((8, 8)), name=name)
    return Session(viewer)


def _layer_names_in(example: str) -> set[str]:
    """The values an example gives to fields that take layer names (by the command's schema)."""
    from napari_talk.core.basics.commands import NAMES_KEY
    from napari_talk.core.contract.registry import default_registry

    registry, named = default_registry(), set()
    for command in parse(example, {}):
        properties = registry.schema(command.action).get("properties", {})
        for field, value in command.to_wire().items():
            if properties.get(field, {}).get(NAMES_KEY) == "layers" and isinstance(value, str):
                named.add(value)
    return named


@pytest.mark.parametrize(
    "line",
    [
        "set the opacity thingy of membrane lower",
        "colour membrane differently",
        "what is the contrast of DAPI",
    ],
)
def test_suggestions_name_only_layers_that_exist(own_session, line):
    result = own_session.run(line).results[0]
    assert not result.ok and result.meta["understood"] is False
    suggestions = result.data["suggestions"]
    assert suggestions
    for example in suggestions:
        assert not any(name.casefold() in example.casefold() for name in SAMPLE_ONLY), example
        for named in _layer_names_in(example):
            assert named in LAYERS, f"{example!r} names {named!r}, not a layer here"
    assert any(name in example for example in suggestions for name in LAYERS)


def test_the_layer_the_line_names_is_the_one_offered(own_session):
    suggestions = own_session.run("colour DAPI differently").results[0].data["suggestions"]
    layered = [s for s in suggestions if _layer_names_in(s)]
    assert layered and all(_layer_names_in(s) == {"DAPI"} for s in layered)


def test_every_offered_example_is_understood_as_offered(own_session):
    for line in ("set the opacity thingy of membrane lower", "what is the contrast of DAPI"):
        for example in own_session.run(line).results[0].data["suggestions"]:
            turn = own_session.parser.read(example, own_session.known_names())
            assert turn.commands, f"{example!r} was offered but is not understood here"


@pytest.mark.parametrize(
    ("line", "word"),
    [
        ("please sharpen membrane", "sharpen"),
        ("denoise DAPI a bit", "denoise"),
        ("segement the membrane", None),  # a slip of "segment": the grammar has the word
        ("membrane colormap yellowish somehow", None),  # opens with a layer's name
        ("hide the membrane layer somehow maybe later", None),  # a known verb
    ],
)
def test_a_verb_no_command_uses_is_named_as_such(own_session, line, word):
    message = own_session.run(line).results[0].message
    said = "not something I can do yet: no command I know uses that word"
    if word is None:
        assert said not in message and "No command I know uses" not in message
    else:
        assert message.startswith(f"{word!r} is {said}"), message
