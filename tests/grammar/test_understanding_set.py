"""The frozen evaluation set is well-formed, and its benchmark judges lines as the scorer does."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

from napari_talk.core.contract.registry import default_registry

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "benchmarks" / "understanding.py"
DATA = ROOT / "benchmarks" / "data" / "understanding_eval.jsonl"
PACKS = {"viewer", "files", "rays", "mesh", "atlas", "session", "chat"}
CONTEXT_KEYS = {"layers", "panels", "glasses", "entities", "segments", "files"}
# In the command catalogue before the packs had them: the set expects them all the same.
CATALOGUE_ONLY = {
    "move_layer",
    "describe_scene",
    "add_light_source",
    "move_scene_object",
    "rotate_scene_object",
    "set_refractive_index",
    "remove_scene_object",
    "optics_angle",
    "detector_readings",
}
LAYER_ACTIONS = {
    "layer_visibility",
    "fit_to_layer",
    "layer_opacity",
    "layer_colormap",
    "layer_contrast",
    "auto_contrast",
    "solo_layer",
    "select_layer",
    "remove_layer",
    "rename_layer",
    "layer_gamma",
    "adjust_brightness",
    "adjust_contrast",
    "move_layer",
}


def _module():
    spec = importlib.util.spec_from_file_location("understanding", SCRIPT)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


CASES = [json.loads(line) for line in DATA.read_text(encoding="utf-8").splitlines() if line.strip()]


def test_the_set_is_large_and_mixed_as_described():
    assert len(CASES) >= 320
    assert len({c["text"] for c in CASES}) == len(CASES), "a line is there twice"
    share = {f: sum(f in c["family"] for c in CASES) / len(CASES) for f in ("typo", "chained", "chat")}
    assert share["typo"] >= 0.2 and share["chained"] >= 0.12 and share["chat"] >= 0.12
    assert sum("paraphrase" in c["family"] for c in CASES) <= 0.15 * len(CASES)
    assert {c["pack"] for c in CASES} == PACKS
    assert len({c["scene"] for c in CASES}) == 3


def _problems(case: dict) -> list[str]:
    actions = set(default_registry().commands) | CATALOGUE_ONLY
    problems = []
    if case["pack"] not in PACKS or not case["family"] or not set(case["context"]) <= CONTEXT_KEYS:
        problems.append("pack, family or context keys")
    if (case["pack"] == "chat") != (case["expect"] == []):
        problems.append("only chat lines expect no command")
    context = case["context"]
    layers = set(context["layers"])
    for command in case["expect"]:
        if command["action"] not in actions:
            problems.append(f"unknown action {command['action']}")
        if command["action"] in LAYER_ACTIONS and command["name"] not in layers:
            problems.append(f"layer {command['name']!r} not in play")
        if command["action"] == "rename_layer":
            layers.add(command["new_name"])  # "rename A to B and then hide it" names B next
        if "glass_name" in command and command["glass_name"] not in context["glasses"]:
            problems.append(f"glass {command['glass_name']!r} not in play")
        if command["action"] == "panel_toggle" and command["name"] not in context["panels"]:
            problems.append(f"panel {command['name']!r} not in play")
    return problems


def test_every_line_names_known_commands_and_names_in_play():
    problems = {case["text"]: p for case in CASES if (p := _problems(case))}
    assert problems == {}


def test_a_broken_line_is_caught():
    case = {**CASES[0], "expect": [{"action": "layer_visibility", "name": "no such layer", "op": "hide"}]}
    assert _problems(case) == ["layer 'no such layer' not in play"]
    assert _problems({**CASES[0], "expect": [{"action": "hide_layer"}]}) == ["unknown action hide_layer"]


def test_judging_is_the_scorers_loose_comparison():
    judge = _module().judge
    hide = {"action": "layer_visibility", "name": "vessel mask", "op": "hide"}
    assert judge([hide], [{**hide, "name": " Vessel  Mask "}]) == "covered"
    assert (
        judge([{"action": "set_zoom", "zoom": 3}], [{"action": "set_zoom", "zoom": 3.0000001}]) == "covered"
    )
    assert judge(
        [{"action": "list_files", "directory": "notes"}], [{"action": "list_files", "directory": "notes/"}]
    ) == ("covered")
    assert judge([{"action": "set_zoom", "zoom": 3}], [{"action": "set_zoom", "zoom": 0.3}]) == "wrong"
    assert judge([hide], []) == "unknown"
    assert judge([hide, hide], [hide]) == "wrong"
    assert judge([], []) == "covered"
    assert judge([], [{"action": "help"}]) == "covered"
    assert judge([], [{"action": "reset_view"}]) == "wrong"


def test_the_script_reports_per_pack_and_family(tmp_path):
    lines = [
        {
            "text": "hide dendrites",
            "context": {"layers": ["dendrites"]},
            "pack": "viewer",
            "family": ["plain"],
            "scene": "t",
            "expect": [{"action": "layer_visibility", "name": "dendrites", "op": "hide"}],
        },
        {
            "text": "hide dendrites",
            "context": {"layers": ["dendrites"]},
            "pack": "viewer",
            "family": ["typo"],
            "scene": "t",
            "expect": [{"action": "layer_visibility", "name": "dendrites", "op": "show"}],
        },
        {
            "text": "thanks, lovely",
            "context": {},
            "pack": "chat",
            "family": ["chat"],
            "scene": "t",
            "expect": [],
        },
    ]
    data = tmp_path / "set.jsonl"
    data.write_text("".join(json.dumps(line) + "\n" for line in lines))
    run = subprocess.run(
        [sys.executable, str(SCRIPT), "--data", str(data), "--json"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    summary = json.loads(run.stdout)
    overall = summary["overall"]["all lines"]
    assert (overall["covered"], overall["unknown"], overall["wrong"], overall["asks"]) == (2, 0, 1, 2)
    assert summary["pack"]["viewer"]["coverage"] == 50.0
    assert summary["family"]["typo"]["wrong"] == 1
    assert summary["pack"]["chat"]["covered"] == 1
    assert summary["speed"]["lines_per_second"] > 0
