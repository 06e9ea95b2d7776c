"""The grammar as data (canonical phrasings) and the stage that maps a free line onto them.

The stage is measured on sets written blind (benchmarks/understanding_stages.py); these tests hold
its contract: what it reads, it reads through the parser, and what it cannot read for sure it
leaves alone.
"""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from napari_talk.core.contract.registry import default_registry
from napari_talk.core.grammar.canonical import phrasings
from napari_talk.core.grammar.parser import parse
from napari_talk.core.grammar.rephrase import Rephraser, bare_phrasing, fill, values_of

CONTEXT = {
    "layers": ["nuclei", "cell boundaries", "GFP", "heart (myl7:GFP)"],
    "panels": ["console", "layer list"],
    "glasses": ["Main Prism", "Cover Slip"],
    "scene_objects": ["Main Prism", "Cover Slip", "Mirror 1"],
    "entities": ["Dust Wraith", "The Shallows"],
    "segments": ["head", "right leg"],
    "files": ["notes/a.md"],
}
PLAIN = {
    "layers": "nuclei", "panels": "console", "glasses": "Main Prism", "scene_objects": "Mirror 1",
    "scene_object_words": "Mirror 1", "entities": "Dust Wraith", "segments": "head", "path": "notes/a.md",
    "text": "'castle'", "number": "2", "int": "2", "scale": "2", "amount": "0.5", "share": "30%",
    "times": "2", "point": "(10, 20)", "pair": "10 20", "range": "10 20", "box": "0 0 10 10",
}  # fmt: skip


@pytest.fixture(scope="module")
def bank():
    return phrasings(default_registry())


def test_the_bank_is_generated_from_every_rule_reproducibly(bank):
    registry = default_registry()
    assert {p.action for p in bank} == {rule.action for rule in registry.rules}
    again = phrasings(registry)
    assert [(p.action, p.text) for p in again] == [(p.action, p.text) for p in bank]
    assert len({(p.action, p.text) for p in bank}) == len(bank)


def test_phrasings_filled_with_plain_values_read_back_as_their_own_command(bank):
    """The phrasings are the parser's own language: filled, the parser reads them as the rule they
    came from (a random walk can meet a template's corner the plain values do not fit)."""
    read = Counter()
    for phrasing in bank:
        if all(slot.kind in PLAIN for slot in phrasing.slots):
            text = phrasing.filled([PLAIN[slot.kind] for slot in phrasing.slots])
            read[[c.action for c in parse(text, CONTEXT)] == [phrasing.action]] += 1
    assert read[True] >= 0.85 * (read[True] + read[False]), read


def test_a_lines_values_are_read_apart_and_fill_a_phrasing_only_when_all_are_used(bank):
    values = values_of("set opacity of heart to 30% and save notes/a.md", CONTEXT)
    assert [typed for _, typed in values.names] == ["heart"]
    assert values.numbers == ["30%"] and values.paths == ["notes/a.md"]
    assert "layer" in values.bare and "30" not in values.bare
    opacity = next(p for p in bank if p.action == "layer_opacity" and len(p.slots) == 2)
    assert fill(opacity, values) is None  # the path would be left over
    assert fill(opacity, values_of("set opacity of heart to 30%", CONTEXT)) is not None
    # "the" begins "The Shallows" but alone is only a word
    assert values_of("the console", CONTEXT, frozenset({"the"})).names == [(frozenset({"panels"}), "console")]


@pytest.fixture(scope="module")
def rephraser(bank):
    from napari_talk.packs.atlas.embeddings import QuantizedMiniLMEmbedder, minilm_available

    if not minilm_available():
        pytest.skip("the MiniLM sentence model is not installed here")
    model = QuantizedMiniLMEmbedder()

    def embed(texts):
        vectors = model.embed(list(texts))
        return vectors / np.linalg.norm(vectors, axis=1, keepdims=True)

    return Rephraser(default_registry(), embed)


def read(rephraser, line):
    reading = rephraser.read(line, CONTEXT, lambda text: [c.to_wire() for c in parse(text, CONTEXT)])
    return None if reading is None else [c.to_wire() for c in parse(reading.canonical, CONTEXT)]


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("hurl the model out as a glb file", {"action": "export_final_model"}),
        ("pen a description of Dust Wraith", {"action": "generate_description"}),
    ],
)
def test_a_free_line_is_read_through_a_canonical_phrasing(rephraser, line, expected):
    assert parse(line, CONTEXT) == [], "the parser reads this line already: the test would prove nothing"
    got = read(rephraser, line)
    assert got is not None and len(got) == 1
    assert {k: got[0].get(k) for k in expected} == expected


@pytest.mark.parametrize(
    "line",
    [
        "make GFP red and drop its opacity to 0.6",  # a chain: two requests, never one guessed
        "undo twice",  # "twice" would be lost in "undo"
        "rays crosing edge 1 of Cover Slip",  # a reading would invent the edge's compass label
        "nice, much better zoom",  # a remark
    ],
)
def test_what_cannot_be_read_for_sure_is_left_alone(rephraser, line):
    assert read(rephraser, line) is None


def test_the_bare_phrasing_reads_slots_as_what_they_hold(bank):
    opacity = next(p for p in bank if p.action == "layer_opacity" and len(p.slots) == 2)
    bare = bare_phrasing(opacity)
    assert "{" not in bare and "layer" in bare
