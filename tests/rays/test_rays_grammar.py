"""How the rays pack's commands are typed: the corpus lines, generalizations, and no stolen lines."""

from __future__ import annotations

import json

import pytest
from conftest import SHARED_CORPUS

from napari_talk.core.grammar.parser import parse
from napari_talk.packs.rays import PACK

LAYERS = ["nuclei", "cell boundaries", "actin", "GFP", "Labels", "spots"]
CONTEXT = {"layers": LAYERS, "glasses": ["Prism", "Slab 1"]}
DEMO = {"layers": ["rays: glasses", "rays: segments"], "glasses": ["Main Prism"]}


def wire(text: str, context: dict) -> list[dict]:
    return [command.to_wire() for command in parse(text, context)]


def c(action: str, **params) -> dict:
    return {"action": action, **params}


CROSSING, ANGLE, POLARIZATION = (
    "find_rays_crossing_edge",
    "find_rays_by_angle_to_edge",
    "find_rays_by_polarization",
)
GENERALIZED = [
    ("which rays cross edge N of Main Prism", DEMO, c(CROSSING, glass_name="Main Prism", edge_label="N")),
    ("rays inside the prism", CONTEXT, c("find_rays_inside_glass", glass_name="Prism")),
    ("rays inside the prism", DEMO, c("find_rays_inside_glass", glass_name="Main Prism")),
    (
        "show rays between 30 and 60 degrees to edge 2 of Slab 1",
        CONTEXT,
        c(ANGLE, glass_name="Slab 1", edge_label="2", min_angle=30, max_angle=60),
    ),
    ("rays with DoP above 0.5", CONTEXT, c(POLARIZATION, min_dop=0.5)),
    ("rays with polarization below 10%", CONTEXT, c(POLARIZATION, max_dop=0.1)),
    ("top 5 paths by energy", CONTEXT, c("rank_paths_by_energy", top_n=5)),
    ("rank the paths by energy", CONTEXT, c("rank_paths_by_energy")),
    ("is energy conserved?", CONTEXT, c("check_energy_conservation")),
    (
        "fresnel from 1 to 1.5 at 45 degrees",
        CONTEXT,
        c("fresnel_transmittances", n1=1, n2=1.5, theta_i_deg=45),
    ),
    (
        "fresnel at 30° from n1=1.5 to n2=1",
        CONTEXT,
        c("fresnel_transmittances", n1=1.5, n2=1, theta_i_deg=30),
    ),
    ("describe the edges of Prism", CONTEXT, c("describe_glass_edges", glass_name="Prism")),
    ("rays hitting the north edge of the prism", DEMO, c(CROSSING, glass_name="Main Prism", edge_label="N")),
    (
        "rays at more than 60 degrees to edge E of Main Prism",
        DEMO,
        c(ANGLE, glass_name="Main Prism", edge_label="E", min_angle=60),
    ),
    ("retrace", CONTEXT, c("trace_scene")),
    ("load scene scenes/prism.json", CONTEXT, c("load_scene", path="scenes/prism.json")),
    ("load optics/bench.json", CONTEXT, c("load_scene", path="optics/bench.json")),
    ("import Bench.JSON", CONTEXT, c("load_scene", path="Bench.JSON")),
    ("open notes/data.json", CONTEXT, c("read_file", path="notes/data.json")),
    ("load the prism demo", CONTEXT, c("load_sample_scene", name="prism demo")),
    ("clear the ray selection", CONTEXT, c("clear_ray_selection")),
    ("color rays by polarization", CONTEXT, c("color_rays", by="polarization")),
]


@pytest.mark.parametrize(("text", "context", "expected"), GENERALIZED, ids=[g[0] for g in GENERALIZED])
def test_generalized_phrasings(text, context, expected):
    assert wire(text, context) == [expected]


def test_the_corpus_rays_lines_parse():
    if not SHARED_CORPUS.exists():
        pytest.skip("shared/ is not beside this checkout")
    actions = {cls.action_name() for cls in PACK.commands}
    cases = [json.loads(line) for line in SHARED_CORPUS.read_text().splitlines() if line.strip()]
    rays = [c for c in cases if c["expect"] and c["expect"][0]["action"] in actions]
    assert len(rays) >= 4
    for case in rays:
        assert wire(case["text"], case["context"]) == case["expect"], case["text"]


def test_every_example_parses_to_its_own_command():
    for cls in PACK.commands:
        for example in cls.examples:
            for context in (CONTEXT, {"layers": LAYERS}):
                assert [c.action for c in parse(example, context)] == [cls.action_name()], (example, context)


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("show nuclei", "layer_visibility"),
        ("hide GFP", "layer_visibility"),
        ("select Labels", "select_layer"),
        ("show only spots", "solo_layer"),
        ("list layers", "list_layers"),
        ("help", "help"),
        ("undo", "undo_last_action"),
        ("delete spots", "remove_layer"),
    ],
)
def test_viewer_phrasings_stay_with_the_viewer(text, action):
    assert [c.action for c in parse(text, CONTEXT)] == [action]


@pytest.mark.parametrize(
    "text",
    [
        "rays at 120 degrees to edge N of Prism",
        "rays with DoP above 1.5",
        "top 0 paths",
        "fresnel from 0 to 1.5 at 10",
    ],
)
def test_out_of_range_values_are_not_read_as_commands(text):
    assert parse(text, CONTEXT) == []


def test_two_queries_in_one_line():
    got = wire("rays inside Prism and rays with DoP above 0.5", CONTEXT)
    assert [g["action"] for g in got] == ["find_rays_inside_glass", "find_rays_by_polarization"]


SCENE = {
    "layers": LAYERS,
    "glasses": ["Main Prism", "Slab 1"],
    "scene_objects": ["Main Prism", "Slab 1", "Point source 1", "Mirror 1"],
    "scene_object_words": ["main", "mirror", "point source", "prism", "slab"],
}
EDITS = [
    ("add a point source at 10, 10", {"action": "add_light_source", "kind": "point", "at": [10, 10]}),
    (
        "add a beam at 0, 50 pointing at 30 degrees",
        {"action": "add_light_source", "kind": "beam", "at": [0, 50], "direction_deg": 30},
    ),
    (
        "put a laser at (5, 5) pointing up",
        {"action": "add_light_source", "kind": "single_ray", "at": [5, 5], "direction_deg": 90},
    ),
    ("move Main Prism up by 20", {"action": "move_scene_object", "name": "Main Prism", "by": [0, 20]}),
    ("move the slab 15 left", {"action": "move_scene_object", "name": "Slab 1", "by": [-15, 0]}),
    ("move the mirror to 300, 200", {"action": "move_scene_object", "name": "Mirror 1", "to": [300, 200]}),
    ("rotate the prism 15 degrees", {"action": "rotate_scene_object", "name": "Main Prism", "degrees": 15}),
    ("turn the slab clockwise by 10°", {"action": "rotate_scene_object", "name": "Slab 1", "degrees": -10}),
    ("set the index of the slab to 1.7", {"action": "set_refractive_index", "name": "Slab 1", "index": 1.7}),
    ("make Main Prism n = 1.33", {"action": "set_refractive_index", "name": "Main Prism", "index": 1.33}),
    ("remove the point source", {"action": "remove_scene_object", "name": "point source"}),
    ("describe the scene", {"action": "describe_scene"}),
    ("what's in the scene", {"action": "describe_scene"}),
    (
        "what is the critical angle from glass 1.5 to air",
        {"action": "optics_angle", "kind": "critical", "n1": 1.5, "n2": 1},
    ),
    ("brewster angle for 1.0 into 1.33", {"action": "optics_angle", "kind": "brewster", "n1": 1, "n2": 1.33}),
    ("critical angle of glass 1.5", {"action": "optics_angle", "kind": "critical", "n1": 1.5, "n2": 1}),
    ("more rays", {"action": "more_rays", "factor": 2}),
    ("fewer rays", {"action": "more_rays", "factor": 0.5}),
    ("detector readings as a table", {"action": "detector_readings", "table": True}),
    ("show the detector readings as a table", {"action": "detector_readings", "table": True}),
    ("detector readings as csv", {"action": "detector_readings", "table": True}),
    ("list the detector readings", {"action": "detector_readings", "table": True}),
    ("tabulate the irradiance values", {"action": "detector_readings", "table": True}),
    ("show me a table of the detector readings", {"action": "detector_readings", "table": True}),
    ("export the detector readings as csv", {"action": "detector_readings", "table": True}),
    ("detector readings table", {"action": "detector_readings", "table": True}),
    ("show the detector readings", {"action": "detector_readings"}),
    ("save the scene as scenes/new.json", {"action": "save_scene", "path": "scenes/new.json"}),
]


@pytest.mark.parametrize(("text", "expected"), EDITS, ids=[t for t, _ in EDITS])
def test_scene_editing_phrasings(text, expected):
    [command] = parse(text, SCENE)
    wire = command.to_wire()
    assert {key: wire.get(key) for key in expected} == expected


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("remove nuclei", "remove_layer"),
        ('delete "cell boundaries"', "remove_layer"),
        ("rotate the view 30 degrees", "rotate_view"),
        ("hide nuclei", "layer_visibility"),
    ],
)
def test_layer_lines_stay_with_the_viewer_while_a_scene_is_open(text, action):
    assert [c.action for c in parse(text, SCENE)] == [action]
