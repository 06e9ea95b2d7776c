"""Seed 001's agent layer: context functions, the ``_xml`` wrappers, their errors and the tool list."""

from __future__ import annotations

import inspect
import json
import xml.etree.ElementTree as ET

import pytest

from napari_talk.packs.rays import agent
from napari_talk.packs.rays.engine import trace
from napari_talk.packs.rays.samples import prism_demo_scene

SEED_MESSAGE = "No context set. Call set_context() or set_context_from_result() before using agentic tools."
SEED_TOOLS = [
    "find_rays_inside_glass_xml",
    "find_rays_crossing_edge_xml",
    "find_rays_by_angle_to_edge_xml",
    "find_rays_by_polarization_xml",
]


@pytest.fixture(autouse=True)
def _fresh_context():
    agent.clear_context()
    yield
    agent.clear_context()


@pytest.fixture
def traced():
    scene = prism_demo_scene()
    result = trace(scene)
    agent.set_context_from_result(scene, result)
    return scene, result


CALLS = [
    (agent.find_rays_inside_glass_xml, ("Main Prism",)),
    (agent.find_rays_crossing_edge_xml, ("Main Prism", "N")),
    (agent.find_rays_by_angle_to_edge_xml, ("Main Prism", "N", 0, 30)),
    (agent.find_rays_by_polarization_xml, (0.0, 0.1)),
    (agent.rank_paths_by_energy_xml, (5,)),
    (agent.check_energy_conservation_xml, ()),
    (agent.describe_glass_edges_xml, ("Main Prism",)),
]


@pytest.mark.parametrize(("tool", "args"), CALLS, ids=lambda v: getattr(v, "__name__", ""))
def test_without_context_every_tool_raises_the_seeds_runtime_error(tool, args):
    with pytest.raises(RuntimeError) as error:
        tool(*args)
    assert str(error.value) == SEED_MESSAGE


def test_context_functions_set_inspect_and_clear(traced):
    scene, result = traced
    context = agent.get_context()
    assert context["scene"] is scene
    assert context["segments"] is result.segments
    assert context["lineage"] is result.lineage
    context.clear()  # a copy: the tools still work
    assert agent.get_context()["scene"] is scene
    agent.clear_context()
    assert agent.get_context() == {}
    with pytest.raises(RuntimeError, match="No context set"):
        agent.find_rays_inside_glass_xml("Main Prism")


def test_the_wrappers_report_the_seed_verification_behaviour(traced):
    _, result = traced
    counts = {}
    for tool, args in CALLS[:4]:
        root = ET.fromstring(tool(*args))
        assert root.tag == "rays" and int(root.get("count")) == len(root.findall("ray"))
        counts[tool.__name__] = int(root.get("count"))
    total = len(result.segments)
    assert 0 < counts["find_rays_inside_glass_xml"] < total / 2
    assert 0 < counts["find_rays_crossing_edge_xml"] < total / 2
    assert 0 < counts["find_rays_by_angle_to_edge_xml"] < total
    assert total / 2 < counts["find_rays_by_polarization_xml"] < total


def test_every_xml_output_parses(traced):
    roots = {tool.__name__: ET.fromstring(tool(*args)) for tool, args in CALLS}
    paths = roots["rank_paths_by_energy_xml"]
    assert paths.tag == "paths" and len(paths.findall("path")) == 5
    assert [p.get("rank") for p in paths.findall("path")] == ["1", "2", "3", "4", "5"]
    energy = roots["check_energy_conservation_xml"]
    assert energy.get("is_valid") == "true" and int(energy.findtext("total_checks")) > 0
    edges = roots["describe_glass_edges_xml"]
    assert [e.get("short_label") for e in edges.iter("edge")] == ["W", "E", "N"]
    fresnel = ET.fromstring(agent.fresnel_transmittances_xml(1.0, 1.5, 45.0))
    assert float(fresnel.findtext("R_s")) == pytest.approx(0.092013, abs=1e-6)
    assert fresnel.find("critical_angle_deg").text is None  # none from 1 into 1.5


def test_a_bad_glass_name_raises_the_seeds_value_error(traced):
    with pytest.raises(ValueError) as error:
        agent.find_rays_inside_glass_xml("Nonexistent")
    assert str(error.value) == "No object named 'Nonexistent'. Named objects: ['Main Prism']"
    assert ET.fromstring(agent.find_rays_inside_glass_xml("main prism")).get("count")  # case is forgiven


def test_a_bad_edge_label_raises_a_value_error_listing_the_labels(traced):
    with pytest.raises(ValueError, match=r"No edge matching 'Q'. Available labels: \['W', 'E', 'N'\]"):
        agent.find_rays_crossing_edge_xml("Main Prism", "Q")


@pytest.mark.parametrize(
    ("tool", "args"),
    [
        (agent.find_rays_by_angle_to_edge_xml, ("Main Prism", "N", 0, 120)),
        (agent.find_rays_by_angle_to_edge_xml, ("Main Prism", "N", 60, 30)),
        (agent.find_rays_by_polarization_xml, (-0.1, 0.5)),
        (agent.rank_paths_by_energy_xml, (0,)),
        (agent.fresnel_transmittances_xml, (1.0, -1.5, 10.0)),
    ],
)
def test_parameters_are_validated_like_typed_commands(traced, tool, args):
    with pytest.raises(ValueError):
        tool(*args)


def test_lineage_tools_need_a_lineage(traced):
    scene, result = traced
    agent.set_context(scene, result.segments)
    assert ET.fromstring(agent.find_rays_inside_glass_xml("Main Prism")).tag == "rays"
    with pytest.raises(RuntimeError, match="No lineage available"):
        agent.rank_paths_by_energy_xml()
    with pytest.raises(RuntimeError, match="No lineage available"):
        agent.check_energy_conservation_xml()


def test_fresnel_needs_no_context():
    root = ET.fromstring(agent.fresnel_transmittances_xml(1.5, 1.0, 60.0))
    assert root.findtext("tir") == "true" and root.find("theta_t_deg").text is None


def test_get_agentic_tools_describes_every_wrapper(traced):
    tools = agent.get_agentic_tools()
    names = [t["name"] for t in tools]
    assert names[:4] == SEED_TOOLS
    assert {"rank_paths_by_energy_xml", "check_energy_conservation_xml"} <= set(names)
    for tool in tools:
        assert set(tool) >= {"name", "function", "description", "parameters"}
        assert callable(tool["function"]) and tool["function"].__name__ == tool["name"]
        assert tool["description"] and "\n" not in tool["description"]
        signature = inspect.signature(tool["function"]).parameters
        assert list(tool["parameters"]) == list(signature)
        for name, spec in tool["parameters"].items():
            assert spec["description"] and spec["type"] in ("string", "number", "integer")
            if signature[name].default is not inspect.Parameter.empty:
                assert spec["default"] == signature[name].default
        json.dumps({k: v for k, v in tool.items() if k != "function"})  # all but the callable is JSON
    by_name = {t["name"]: t for t in tools}
    angle = by_name["find_rays_by_angle_to_edge_xml"]["parameters"]["max_angle"]
    assert (angle["minimum"], angle["maximum"]) == (0, 90)
    assert ET.fromstring(by_name["find_rays_inside_glass_xml"]["function"]("Main Prism")).tag == "rays"


def test_session_results_read_as_the_same_xml_for_agents():
    """A chat session's query results reach agents in the seed's XML, as the wrappers write it."""
    from napari_talk.core.running.session import Session
    from napari_talk.packs.rays import PACK

    session = Session(None)
    assert session.execute({"action": "load_sample_scene", "name": "prism demo"}).ok
    assert agent.get_context() == {}, "a session keeps its scene to itself"
    shown = session.state(PACK).current
    agent.set_context_from_result(shown.scene, shown.result)
    cases = [
        (
            {"action": "find_rays_inside_glass", "glass_name": "prism"},
            agent.find_rays_inside_glass_xml("Main Prism"),
        ),
        (
            {
                "action": "find_rays_by_angle_to_edge",
                "glass_name": "Main Prism",
                "edge_label": "N",
                "max_angle": 30,
            },
            agent.find_rays_by_angle_to_edge_xml("Main Prism", "N", 0, 30),
        ),
        ({"action": "rank_paths_by_energy", "top_n": 3}, agent.rank_paths_by_energy_xml(3)),
        ({"action": "check_energy_conservation"}, agent.check_energy_conservation_xml()),
        (
            {"action": "describe_glass_edges", "glass_name": "Main Prism"},
            agent.describe_glass_edges_xml("Main Prism"),
        ),
        (
            {"action": "fresnel_transmittances", "n1": 1, "n2": 1.5, "theta_i_deg": 45},
            agent.fresnel_transmittances_xml(1, 1.5, 45),
        ),
    ]
    for wire, expected in cases:
        command = session.registry.validate(wire)
        result = session.execute(command)
        assert result.ok, result.message
        assert PACK.format_for_agent(command, result) == expected, wire["action"]
    failed = session.execute({"action": "find_rays_inside_glass", "glass_name": "nowhere"})
    assert PACK.format_for_agent(session.registry.validate({"action": "help"}), failed) is None
