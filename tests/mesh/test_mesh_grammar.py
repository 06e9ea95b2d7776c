"""Typed mesh requests parse to their commands, and viewer phrasings keep their meaning."""

from __future__ import annotations

import pytest

from napari_talk.core.grammar.parser import parse

CONTEXT = {"layers": ["nuclei", "cell boundaries", "actin", "GFP", "Labels", "spots", "model"]}

CASES = [
    ("spawn sphere", {"action": "spawn_primitive", "primitive_type": "Sphere"}),
    ("make me a cube", {"action": "spawn_primitive", "primitive_type": "Cube"}),
    ("spawn a human body", {"action": "spawn_primitive", "primitive_type": "Body"}),
    ("create a new head", {"action": "spawn_primitive", "primitive_type": "Head"}),
    ("give me a donut", {"action": "spawn_primitive", "primitive_type": "Torus"}),
    ("could you add a disc please", {"action": "spawn_primitive", "primitive_type": "Disk"}),
    ("start with a cylinder", {"action": "spawn_primitive", "primitive_type": "Cylinder"}),
    ("cone", {"action": "spawn_primitive", "primitive_type": "Cone"}),
    ("segment it", {"action": "request_segmentation"}),
    ("segment the model", {"action": "request_segmentation"}),
    ("split it into parts", {"action": "request_segmentation"}),
    ("run the segmentation", {"action": "request_segmentation"}),
    ("select segment 3", {"action": "select_segment", "segment_id": 3}),
    ("pick part 2", {"action": "select_segment", "segment_id": 2}),
    ("isolate segment", {"action": "isolate_segment"}),
    ("isolate part 2", {"action": "isolate_segment", "segment_id": "2"}),
    ("focus on segment 5", {"action": "isolate_segment", "segment_id": "5"}),
    ("show the whole model", {"action": "show_whole_model"}),
    ("apply dark rusty metal to segment 2",
     {"action": "apply_material", "material_description": "dark rusty metal", "segment_id": "2"}),
    ("make segment 3 shiny gold",
     {"action": "apply_material", "material_description": "shiny gold", "segment_id": "3"}),
    ("make it worn leather", {"action": "apply_material", "material_description": "worn leather"}),
    ("paint part 1 red", {"action": "apply_material", "material_description": "red", "segment_id": "1"}),
    ("make the whole model chrome",
     {"action": "apply_material", "material_description": "chrome", "segment_id": "ALL"}),
    ("give segment 2 a marble finish",
     {"action": "apply_material", "material_description": "marble", "segment_id": "2"}),
    ("apply glowing blue crystals",
     {"action": "apply_material", "material_description": "glowing blue crystals"}),
    ("generate some concepts", {"action": "generate_concepts"}),
    ("show me concept art", {"action": "generate_concepts"}),
    ("select option 3", {"action": "select_concept", "option_id": 3}),
    ("I'll take concept 2", {"action": "select_concept", "option_id": 2}),
    ("go with the first one", {"action": "select_concept", "option_id": 1}),
    ("cancel the generation", {"action": "cancel_generation"}),
    ("import meshes/chair.glb", {"action": "import_model", "path": "meshes/chair.glb"}),
    ("export the model", {"action": "export_final_model"}),
    ("export it as glb", {"action": "export_final_model"}),
    ("save the model as a glb file", {"action": "export_final_model"}),
    ("how many parts are there", {"action": "describe_model"}),
    ("spawn a cube and segment it", None),
]  # fmt: skip


@pytest.mark.parametrize(("text", "expected"), CASES)
def test_mesh_phrasings(text, expected):
    got = [c.to_wire() for c in parse(text, CONTEXT)]
    if expected is None:
        assert [c["action"] for c in got] == ["spawn_primitive", "request_segmentation"]
    else:
        assert got == [expected]


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("select Labels", "select_layer"),
        ("isolate nuclei", "solo_layer"),
        ("make nuclei red", "layer_colormap"),
        ("apply magma to GFP", "layer_colormap"),
        ("hide model", "layer_visibility"),
        ("turn it 3d", "set_ndisplay"),
        ("open notes/plan.md", "read_file"),
    ],
)
def test_viewer_and_other_phrasings_are_not_taken(text, action):
    assert [c.action for c in parse(text, CONTEXT)] == [action]


@pytest.mark.parametrize(
    "text",
    ["select option 9", "spawn a teapot", "make it bigger", "apply gold to nuclei", "isolate option 2"],
)
def test_what_is_not_a_mesh_request_is_left_to_the_llm(text):
    assert parse(text, CONTEXT) == []
