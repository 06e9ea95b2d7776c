"""The atlas grammar: the example corpus, general phrasings, and other packs' lines left alone."""

from __future__ import annotations

import json

import pytest
from conftest import SHARED_CORPUS

from napari_talk.core.grammar.parser import parse
from napari_talk.packs.atlas import PACK

LAYERS = ["nuclei", "cell boundaries", "actin", "GFP", "Labels", "spots"]
ENTITIES = ["Eigensage", "The Nullbringer", "Kestrel of the High Spire", "Parity", "Nucleus Prime"]
CONTEXT = {"layers": LAYERS, "glasses": ["Prism", "Slab 1"], "entities": ENTITIES}


def wire(text: str, context=CONTEXT) -> list[dict]:
    return [c.to_wire() for c in parse(text, context)]


def test_the_atlas_lines_of_the_example_corpus_parse():
    if not SHARED_CORPUS.exists():
        pytest.skip("shared/ is not beside this checkout")
    actions = {cls.action_name() for cls in PACK.commands}
    cases = [json.loads(line) for line in SHARED_CORPUS.read_text().splitlines() if line.strip()]
    atlas = [c for c in cases if c["expect"] and c["expect"][0]["action"] in actions]
    assert len(atlas) >= 4
    for case in atlas:
        assert wire(case["text"], case["context"]) == case["expect"], case["text"]


FIND, ANALYZE, DESCRIBE, SREF = "find_similar", "analyze_image", "generate_description", "find_by_sref"
ADD, OPEN = "add_to_catalogue", "open_entity_image"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("entities like a golden desert guardian", {"action": FIND, "query": "a golden desert guardian"}),
        ("find 3 things similar to glowing cells", {"action": FIND, "query": "glowing cells", "limit": 3}),
        ("top 3 similar to Eigensage", {"action": FIND, "query": "Eigensage", "limit": 3}),
        ("what's similar to a drowned library?", {"action": FIND, "query": "a drowned library"}),
        ("search the atlas for fire queens, limit 7", {"action": FIND, "query": "fire queens", "limit": 7}),
        ("analyze the GFP layer", {"action": ANALYZE, "image_url": "GFP"}),
        ("analyse cell boundaries", {"action": ANALYZE, "image_url": "cell boundaries"}),
        ("analyze pictures/moth.png", {"action": ANALYZE, "image_url": "pictures/moth.png"}),
        ("what does https://x.org/y.jpg look like", {"action": ANALYZE, "image_url": "https://x.org/y.jpg"}),
        ("analyze this image", {"action": ANALYZE, "image_url": "this image"}),
        ("describe Eigensage", {"action": DESCRIBE, "name": "Eigensage"}),
        ("describe kestrel of the high spire", {"action": DESCRIBE, "name": "Kestrel of the High Spire"}),
        ("write a short description of Glass Heron in Verdant Hollow",
         {"action": DESCRIBE, "name": "Glass Heron", "domain": "Verdant Hollow"}),
        ("describe Ashen Moth, a Wanderer in The Threshold",
         {"action": DESCRIBE, "name": "Ashen Moth", "class_name": "Wanderer", "domain": "The Threshold"}),
        ("who shares sref 42", {"action": SREF, "sref_code": "42"}),
        ("--sref 123", {"action": SREF, "sref_code": "123"}),
        ("which entities use --sref 123 456", {"action": SREF, "sref_code": "123 456"}),
        ("add GFP to the catalogue as Verdant Lantern in The Lattice",
         {"action": ADD, "layer": "GFP", "name": "Verdant Lantern", "domain": "The Lattice"}),
        ("add the selected image to the atlas as Night Bloom", {"action": ADD, "name": "Night Bloom"}),
        ("open the image of eigensage", {"action": OPEN, "name": "Eigensage"}),
        ("show Nucleus Prime's picture", {"action": OPEN, "name": "Nucleus Prime"}),
        ("import backup/atlas.jsonl into the catalogue",
         {"action": "import_catalogue", "path": "backup/atlas.jsonl"}),
        ("export all entities to out.jsonl", {"action": "export_catalogue", "path": "out.jsonl"}),
        ("use the offline embedder", {"action": "set_embedding_model", "model": "offline"}),
        ("embed with nomic-embed-text at http://localhost:11434/v1",
         {"action": "set_embedding_model", "model": "nomic-embed-text", "base_url": "http://localhost:11434/v1"}),
        ("list entities in The Lattice", {"action": "list_entities", "domain": "The Lattice"}),
        ("how many entities are there", {"action": "list_entities"}),
        ("how many pictures are in the catalogue?", {"action": "list_entities"}),
        ("show me pictures that look like a spiral", {"action": FIND, "query": "a spiral"}),
        ("open the first one", {"action": "open_result", "rank": 1}),
        ("show me the third result", {"action": "open_result", "rank": 3}),
        ("load the sample catalogue", {"action": "load_sample_catalogue"}),
        ("delete the entity Parity", {"action": "remove_from_catalogue", "name": "Parity"}),
    ],
)  # fmt: skip
def test_general_phrasings(text, expected):
    assert wire(text) == [expected]


@pytest.mark.parametrize(
    ("text", "rank"), [("open it", 1), ("that one", 1), ("the first one", 1), ("the second", 2)]
)
def test_a_pronoun_or_an_ordinal_alone_means_a_result_only_while_there_are_results(text, rank):
    with_results = {**CONTEXT, "atlas_results": ["Parity", "Eigensage"]}
    assert wire(text, with_results) == [{"action": "open_result", "rank": rank}]
    assert "open_result" not in [c["action"] for c in wire(text)]


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("search 'castle'", "search_code"),
        ("describe the edges of Prism", "describe_glass_edges"),
        ("show nuclei", "layer_visibility"),
        ("delete spots", "remove_layer"),
        ("show the golgi layer", None),
        ("export the model", None),
        ("generate some concepts", None),
        ("save the labels as a tiff file", None),
        ("what does GFP stand for?", None),
        ("sref", None),
        ("analyze the mitochondria", None),
        ("open notes/plan.md", "read_file"),
    ],
)
def test_other_packs_lines_stay_theirs(text, action):
    """``None``: no atlas command (another pack may read it, or nobody)."""
    got = [c["action"] for c in wire(text)]
    if action is None:
        assert not set(got) & {cls.action_name() for cls in PACK.commands}, got
    else:
        assert got == [action]


def test_every_example_parses_to_its_own_command():
    for cls in PACK.commands:
        for example in cls.examples:
            for context in (CONTEXT, {"layers": LAYERS}, {}):
                assert [c.action for c in parse(example, context)] == [cls.action_name()], (example, context)
