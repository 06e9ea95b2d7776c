"""The intent reader (core/grammar/intents): its training lines are generated reproducibly from
the grammar, its weights trained the same way from the same seed, and with the sentence model it
reads lines of its own kind that no evaluation set holds, through the parser, leaving alone what
it cannot read for sure. Its accuracy is measured by benchmarks/understanding_stages.py."""

from __future__ import annotations

import random
import zlib

import numpy as np
import pytest

from napari_talk.core import sentences
from napari_talk.core.contract.registry import default_registry
from napari_talk.core.grammar.intents import augment
from napari_talk.core.grammar.intents.classifier import IntentModel, train
from napari_talk.core.grammar.intents.guards import keeps
from napari_talk.core.grammar.intents.reader import SHIPPED, IntentReader, shipped_model
from napari_talk.core.grammar.intents.training import examples
from napari_talk.core.grammar.parser import parse

CONTEXT = {
    "layers": ["nuclei", "cell boundaries", "GFP"],
    "panels": ["console", "layer list"],
    "entities": ["Dust Wraith"],
    "scene_objects": ["Mirror 1"],
    "glasses": ["Main Prism"],
    "files": ["notes/a.md"],
}
NOUNS = frozenset({"layer", "panel", "file", "glass", "object"})


def grams(texts) -> np.ndarray:
    """A sentence model of no weights at all: character trigrams hashed to 256 numbers."""
    out = np.zeros((len(texts), 256), np.float32)
    for row, text in enumerate(texts):
        padded = f" {text} "
        for i in range(len(padded) - 2):
            out[row, zlib.crc32(padded[i : i + 3].encode()) % 256] += 1
    return out / np.maximum(np.linalg.norm(out, axis=1, keepdims=True), 1e-9)


def test_variants_are_drawn_from_the_seed_and_never_misspell_what_values_become():
    line = "set opacity of layer to 2"
    first = augment.variants(line, 40, NOUNS, random.Random(7))
    assert first == augment.variants(line, 40, NOUNS, random.Random(7))
    assert first != augment.variants(line, 40, NOUNS, random.Random(8))
    assert len(set(first)) > 20, "the changes hardly change anything"
    for variant in first:
        words = variant.replace("'s", " ").split()
        assert "layer" in words and "2" in words, variant


def test_each_change_says_the_line_another_way():
    rng = random.Random(3)
    assert augment._british(["make", "the", "color", "gray"], NOUNS, rng) == ["make", "the", "colour", "grey"]
    assert augment._reordered(["set", "opacity", "of", "layer", "to", "2"], NOUNS, rng)[:2] == [
        "set",
        "layer's",
    ]
    typo = augment._typo(["remove", "the", "layer"], NOUNS, rng)
    assert typo[1:] == ["the", "layer"] and typo[0] != "remove"
    assert augment._plain(["hide", "the", "layer"], NOUNS, rng) == ["hide", "layer"]


def test_every_command_gets_as_many_training_lines_and_the_same_seed_gives_the_same_lines():
    registry = default_registry()
    texts, labels = examples(registry, seed=1, per_action=40)
    assert (texts, labels) == examples(registry, seed=1, per_action=40)
    assert examples(registry, seed=2, per_action=40)[0] != texts
    counts = {a: labels.count(a) for a in set(labels)}
    assert set(counts) == set(registry.commands) and min(counts.values()) >= 40


def test_the_same_lines_train_the_same_weights_which_read_their_lines_back():
    texts, labels = examples(default_registry(), seed=0, per_action=30)
    vectors = grams(texts)
    model = train(vectors, labels, steps=60)
    again = train(vectors, labels, steps=60)
    assert np.array_equal(model.weights, again.weights) and np.array_equal(model.bias, again.bias)
    guessed = [model.actions[int(np.argmax(model.probabilities(v)))] for v in vectors[::7]]
    share = np.mean([g == a for g, a in zip(guessed, labels[::7], strict=True)])
    assert share > 0.5, share  # far above the 1% of a guess among a hundred commands


def test_weights_are_kept_and_read_back(tmp_path):
    model = train(np.eye(3, dtype=np.float32), ["a", "b", "c"], tag="t", steps=50)
    model.save(tmp_path / "w.npz")
    kept = IntentModel.load(tmp_path / "w.npz")
    assert kept.actions == ("a", "b", "c") and kept.tag == "t"
    assert np.allclose(kept.probabilities(np.eye(3)[1]), model.probabilities(np.eye(3)[1]), atol=1e-3)
    assert int(np.argmax(kept.probabilities(np.eye(3)[2]))) == 2


def test_the_shipped_weights_know_every_command_and_not_an_unknown_one():
    actions = list(default_registry().commands)
    assert SHIPPED.stat().st_size < 200_000
    assert shipped_model(actions) is not None, "retrain: python benchmarks/train_intents.py"
    assert shipped_model([*actions, "a_command_added_since"]) is None


def test_a_reading_keeps_the_lines_directions_numbers_and_names():
    assert keeps("tilt the camera up 2", "tilt the camera up 2", "tilt the camera by 2 up")
    assert not keeps("tilt the camera up 2", "tilt the camera up 2", "tilt the camera by 2 down")
    assert not keeps("zoom out 2 x", "zoom out 2 x", "zoom in a little 2x")
    assert not keeps("top five paths", "top five paths", "paths ranked by energy")
    assert not keeps("list entities in the red wastes", "list entities in The Red Wastes", "list entities")
    assert keeps("centre the view on layer", "centre the view on nuclei", "fit the view nuclei")


def test_a_reader_over_another_sentence_model_trains_its_own_weights_at_first_use():
    reader = IntentReader(default_registry(), grams)  # the shipped weights are MiniLM's
    assert reader.model.weights.shape[0] == 256
    context = {"layers": ["nuclei"]}
    reading = reader.read("hide nuclei", context, lambda text: [c.to_wire() for c in parse(text, context)])
    assert reading is None or reading.action == "layer_visibility"


@pytest.fixture(scope="module")
def reader() -> IntentReader:
    if not sentences.ready():
        pytest.skip("the MiniLM sentence model is not here")
    model = sentences.minilm(True)

    def embed(texts):
        vectors = model.embed(list(texts))
        return vectors / np.linalg.norm(vectors, axis=1, keepdims=True)

    return IntentReader(default_registry(), embed)


def read(reader: IntentReader, line: str) -> list[dict] | None:
    reading = reader.read(line, CONTEXT, lambda text: [c.to_wire() for c in parse(text, CONTEXT)])
    return None if reading is None else [c.to_wire() for c in parse(reading.canonical, CONTEXT)]


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("oi zoom in by 3", {"action": "zoom_by", "factor": 3}),
        ("um please take a screenshot", {"action": "screenshot"}),
        ("make nuclei red would you", {"action": "layer_colormap", "name": "nuclei", "colormap": "red"}),
        ("uh fit the view to nuclei", {"action": "fit_to_layer", "name": "nuclei"}),
        ("get rid of the console panel thx", {"action": "panel_toggle", "name": "console"}),
        ("show me the description of Dust Wraith", {"action": "generate_description"}),
        # lines the parser reads as well: the reader finds them without it
        ("show me all the layers pls", {"action": "list_layers"}),
        ("pls take a snapshot of the canvas", {"action": "screenshot"}),
        ("can you set the opacity of nuclei to 0.3 please", {"action": "layer_opacity", "opacity": 0.3}),
    ],
)
def test_free_lines_of_its_own_are_read_as_their_commands(reader, line, expected):
    got = read(reader, line)
    assert got is not None and len(got) == 1, got
    assert {k: got[0].get(k) for k in expected} == expected


@pytest.mark.parametrize(
    "line",
    [
        "please hide GFP and show nuclei",  # a chain: two requests, never one guessed
        "undo three times",  # "three" would be lost
        "hide everything but GFP",  # "but" would be lost in a plain hide
        "list entities in The Red Wastes",  # a place the scene does not know
        "tilt the camera upwards 10 degrees",  # no reading may turn it down
    ],
)
def test_what_it_cannot_read_for_sure_is_left_alone(reader, line):
    got = read(reader, line)
    assert got is None or "down" not in str(got), got
    if "tilt" not in line:
        assert got is None, got
