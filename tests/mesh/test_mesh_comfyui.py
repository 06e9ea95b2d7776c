"""The ComfyUI flows against a stand-in server on 127.0.0.1: concepts, a model from the chosen one,
no server, a server failing half-way, and the background path with a real viewer."""

from __future__ import annotations

import json
import socket

import pytest

from napari_talk.core.running.session import Session
from napari_talk.packs.mesh import flows

pytest.importorskip("trimesh")

PROMPT = "a knight in ornate armour, concept art"


@pytest.fixture
def comfy(monkeypatch):
    from support.comfyui_server import ComfyStandIn

    with ComfyStandIn(polls_before_done=2) as server:
        monkeypatch.setenv("NAPARI_TALK_COMFYUI_URL", server.url)
        monkeypatch.setattr(flows, "POLL_SECONDS", 0.02)
        yield server


@pytest.fixture
def session(workspace):
    session = Session(None, workspace=workspace)
    session.state("mesh").generative_prompt = PROMPT
    assert session.run("spawn a sphere").ok
    return session


def _loads(workflow: dict, class_type: str = "LoadImage") -> list[str]:
    return [n["inputs"]["image"] for n in workflow.values() if n["class_type"] == class_type]


def test_three_concepts_then_a_model_from_the_chosen_one(comfy, session, workspace):
    turn = session.run("generate some concepts")
    assert turn.ok, turn.message
    state = session.state("mesh").model
    assert [c.option for c in state.concepts] == [1, 2, 3]
    assert all(c.path.is_file() and c.path.is_relative_to(workspace) for c in state.concepts)
    assert comfy.uploads["napari-talk/view.png"].startswith(b"\x89PNG"), "the current view was uploaded"
    (queued,) = comfy.prompts
    workflow = queued["prompt"]
    assert _loads(workflow) == ["napari-talk/view.png"]
    texts = [n["inputs"]["text"] for n in workflow.values() if n["class_type"] == "CLIPTextEncode"]
    assert texts[0] == PROMPT, "the session's generative prompt went into the workflow"
    assert isinstance(
        next(n for n in workflow.values() if n["class_type"] == "KSampler")["inputs"]["seed"], int
    )

    turn = session.run("select option 2")
    assert turn.ok, turn.message
    model = session.state("mesh").model
    assert model.mesh.n_faces == 320 and model.mesh.is_watertight, "the stand-in's icosphere is the model"
    assert model.source == "concept 2 (ComfyUI)" and model.concepts == state.concepts
    mv2mv, mv23d = (p["prompt"] for p in comfy.prompts[1:])
    assert comfy.uploads["napari-talk/concept.png"] == state.concepts[1].path.read_bytes()
    assert set(_loads(mv2mv)) == {
        "napari-talk/concept.png",
        *(f"napari-talk/render_{v}.png" for v in flows.VIEWS),
    }
    assert set(_loads(mv23d)) == {
        "napari-talk/concept.png",
        *(f"napari-talk/mv_{v}.png" for v in flows.VIEWS),
    }
    assert any(n["class_type"] == "SaveGLB" for n in mv23d.values())

    assert session.run("undo").ok
    assert session.state("mesh").model.mesh.name == "Sphere"
    assert session.state("mesh").model.concepts == state.concepts
    assert session.run("undo").ok
    assert session.state("mesh").model.concepts == ()


def _closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_no_server_gives_a_clear_reply_and_changes_nothing(session, workspace, monkeypatch):
    port = _closed_port()
    monkeypatch.setenv("NAPARI_TALK_COMFYUI_URL", f"http://127.0.0.1:{port}")
    before = session.state("mesh").model
    turn = session.run("generate some concepts")
    assert not turn.ok
    assert f"ComfyUI is not reachable at http://127.0.0.1:{port}" in turn.message
    assert "NAPARI_TALK_COMFYUI_URL" in turn.message
    assert session.state("mesh").model is before
    assert not (workspace / "mesh" / "concepts").exists()
    assert session.run("undo").ok and session.state("mesh").model.mesh is None, "only the spawn was recorded"


def _plan_prompt_500(server):
    server.fail("/prompt", nth=3, status=500)  # the mv23d workflow, after concepts and mv2mv


def _plan_run_fails(server):
    server.fail_workflow(3, "CUDA out of memory")


def _plan_dies_while_polling(server):
    server.die("/history", nth=5)


def _plan_dies_on_upload(server):
    server.die("/upload/image", nth=3)


@pytest.mark.parametrize(
    ("plan", "said"),
    [
        (_plan_prompt_500, "queueing the mv23d workflow: ComfyUI answered 500"),
        (_plan_run_fails, "CUDA out of memory"),
        (_plan_dies_while_polling, "ComfyUI is not reachable"),
        (_plan_dies_on_upload, "ComfyUI is not reachable"),
    ],
)
def test_a_server_failing_half_way_leaves_nothing_half_done(comfy, session, workspace, plan, said):
    assert session.run("generate concepts").ok
    before = session.state("mesh").model
    plan(comfy)
    turn = session.run("select option 1")
    assert not turn.ok
    assert said in turn.message and "Nothing changed" in turn.message
    assert session.state("mesh").model is before
    assert not (workspace / "mesh" / "generated").exists()
    undone = session.run("undo").message
    assert undone.startswith("undid: Three concepts"), "the failure was not recorded"


def test_a_workflow_the_server_refuses_says_why(comfy, session, workspace):
    own = workspace / "mesh" / "workflows"
    own.mkdir(parents=True)
    workflow = {"1": {"class_type": "LoadImage", "inputs": {"image": "never-uploaded.png"}}}
    (own / "concepts.json").write_text(json.dumps(workflow))
    turn = session.run("generate some concepts")
    assert not turn.ok and "Prompt outputs failed validation" in turn.message
    (own / "concepts.json").write_text("{not json")
    turn = session.run("generate some concepts")
    assert not turn.ok and "not valid JSON" in turn.message


def test_choosing_before_any_concept_exists(comfy, session):
    turn = session.run("select option 1")
    assert not turn.ok and "generate some concepts" in turn.message
    assert comfy.requests == [], "nothing was sent"


def test_in_the_dock_the_flow_runs_in_the_background(comfy, make_napari_viewer, qtbot, workspace):
    from napari_talk._qt.jobs import qt_runner

    viewer = make_napari_viewer()
    session = Session(viewer, workspace=workspace)
    session.jobs.runner = qt_runner
    heard = []
    session.jobs.listen(lambda command, result: heard.append((command.action, result)))
    assert session.run("spawn a cube").ok
    turn = session.run("generate some concepts")
    assert turn.ok and turn.results[0].data["background"] is True
    assert session.state("mesh").model.concepts == (), "nothing applied before the job ends"
    qtbot.waitUntil(lambda: bool(heard), timeout=15_000)
    ((action, result),) = heard
    assert action == "generate_concepts" and result.ok, result.message
    assert sorted(layer.name for layer in viewer.layers if layer.name.startswith("concept")) == [
        "concept 1", "concept 2", "concept 3"
    ]  # fmt: skip
    assert session.run("undo").ok
    assert not [layer for layer in viewer.layers if layer.name.startswith("concept")]

    comfy.polls_before_done = 10_000
    assert session.run("generate some concepts").ok
    busy = session.run("generate some concepts")
    assert not busy.ok and "still busy" in busy.message
    assert session.run("cancel the generation").ok
    qtbot.waitUntil(lambda: len(heard) == 2, timeout=15_000)
    assert not heard[1][1].ok and "cancelled" in heard[1][1].message
    assert session.state("mesh").model.concepts == ()
