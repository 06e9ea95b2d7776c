"""Every mesh action through a session: replies, state.json, and undo back to the exact state before."""

from __future__ import annotations

import json

import numpy as np
import pytest

from napari_talk.core.running.session import Session


@pytest.fixture
def session(workspace):
    return Session(None, workspace=workspace)


def _ok(session: Session, line: str, *, agree: bool = False):
    turn = session.run(line, ask=(lambda approval: True) if agree else None)
    assert turn.ok, (line, turn.message)
    return turn.results[-1]


def test_each_step_is_undone_back_to_the_exact_state_before(session):
    steps = [
        "spawn a human body",
        "segment it",
        "apply dark rusty metal to segment 2",
        "select segment 3",
        "make it shiny gold",
        "isolate segment 4",
        "show the whole model",
        "spawn a cube",
    ]
    states = [session.state("mesh").model]
    for line in steps:
        _ok(session, line, agree=line == "spawn a cube")  # it replaces the painted body: asked
        states.append(session.state("mesh").model)
        assert states[-1] is not states[-2], f"{line} changed nothing"
    for expected in reversed(states[:-1]):
        _ok(session, "undo")
        assert session.state("mesh").model is expected
    assert not session.run("undo").ok, "nothing more to undo"
    _ok(session, "redo")
    assert session.state("mesh").model.mesh.name == "Body"


def test_replies_say_what_happened(session):
    from napari_talk.packs.mesh import humanoid

    assert "Spawned a Body" in _ok(session, "spawn a human body").message
    reply = _ok(session, "segment it")
    assert "into 7 parts" in reply.message and reply.data["segments"] == 7
    assert "1 torso (" in reply.message and "head" in reply.message and "left arm" in reply.message
    reply = _ok(session, "apply a dark, rusty metal to segment 2")
    assert "rusted iron" in reply.message and "runner-up: cast iron" in reply.message
    assert reply.data["library_name"] == "rusted iron" and reply.data["segments"] == [2]
    reply = _ok(session, "make everything glowing blue crystals")
    assert reply.data["segments"] == [1, 2, 3, 4, 5, 6, 7] and "the whole model" in reply.message
    described = _ok(session, "describe the model")
    assert "7 parts: 1 torso" in described.message
    assert described.data["faces"] == humanoid.body().n_faces


def test_segments_answer_to_their_names(session):
    _ok(session, "spawn a human body")
    _ok(session, "segment it")
    state = session.state("mesh").model
    head = state.names.index("head") + 1
    reply = session.execute(
        {"action": "apply_material", "material_description": "gold", "segment_id": "the head"}
    )
    assert reply.ok and reply.data["segments"] == [head]
    assert f"segment {head} (head)" in reply.message
    assert session.state("mesh").model.materials[head].name.startswith("gold")
    arm = state.names.index("left arm") + 1
    reply = session.execute({"action": "isolate_segment", "segment_id": "Left Arm"})
    assert reply.ok and reply.data["segment"] == arm
    assert reply.message.startswith(f"Segment {arm} (left arm) isolated")
    refused = session.execute(
        {"action": "apply_material", "material_description": "gold", "segment_id": "tail"}
    )
    assert not refused.ok and refused.message.startswith("No part 'tail'; parts are: 1 torso,")
    assert _ok(session, f"select segment {head}").message == f"Segment {head} (head) selected."


@pytest.mark.parametrize(
    "line, said",
    [
        (
            "spawn a cube",
            "The Cube is one part: its thickness is even and no concave crease or narrowing goes round",
        ),
        ("spawn a disk", "The Disk is one part: it is an open sheet with no inside to measure"),
    ],
)
def test_one_part_says_why(session, line, said):
    _ok(session, line)
    assert said in _ok(session, "segment it").message


def test_what_cannot_be_done_is_said_and_changes_nothing(session):
    assert "no model yet" in session.run("segment it").message
    _ok(session, "spawn a sphere")
    before = session.state("mesh").model
    for line, said in [
        ("isolate segment 2", "not segmented yet"),
        ("make segment 4 gold", "There is no segment 4"),
        ("select segment 9", "There is no segment 9"),
    ]:
        turn = session.run(line)
        assert not turn.ok and said in turn.message, (line, turn.message)
    unknown = session.execute({"action": "apply_material", "material_description": "qwertyuiop"})
    assert not unknown.ok and "No material in the library" in unknown.message
    odd = session.execute(
        {"action": "apply_material", "material_description": "gold", "segment_id": "left arm"}
    )
    assert not odd.ok and "No part 'left arm': the model is not segmented yet" in odd.message
    assert session.execute({"action": "apply_material", "material_description": "gold", "segment_id": 1}).ok
    _ok(session, "undo")
    assert session.state("mesh").model is before


def test_the_material_of_an_unsegmented_model_carries_to_every_part(session):
    _ok(session, "spawn a human body")
    _ok(session, "make it oak wood")
    _ok(session, "segment it")
    state = session.state("mesh").model
    assert state.segment_count == 7 and {m.name for m in state.materials.values()} == {"oak"}


def test_the_selection_lives_in_state_json_and_is_read_back(session, workspace):
    _ok(session, "spawn a human body")
    _ok(session, "segment it")
    _ok(session, "select segment 2")
    path = workspace / "mesh" / "state.json"
    saved = json.loads(path.read_text())
    assert saved["selected_segment"] == 2 and saved["segment_count"] == 7 and saved["model"] == "Body"
    assert saved["segment_names"]["1"] == "torso"
    # another program (the seed's gesture tracker) selects segment 5
    import os
    import time

    saved["selected_segment"] = 5
    path.write_text(json.dumps(saved))
    os.utime(path, ns=(time.time_ns(), time.time_ns() + 1_000_000))
    reply = _ok(session, "isolate segment")
    assert reply.data["segment"] == 5
    assert json.loads(path.read_text())["isolated_segment"] == 5


def test_the_isolated_segment_is_centred_in_the_model_bounding_box(session):
    from napari_talk.packs.mesh.display import isolated_mesh

    _ok(session, "spawn a human body")
    _ok(session, "segment it")
    _ok(session, "isolate part 3")
    state = session.state("mesh").model
    part = isolated_mesh(state, 3)
    assert np.allclose(part.center, state.mesh.center)
    assert part.n_faces == np.count_nonzero(state.labels == 2)


def test_the_llm_context_describes_the_model(session):

    assert session.context_lines(["mesh"]) == ["Mesh: no model (spawn_primitive makes one)."]
    _ok(session, "spawn a human body")
    _ok(session, "segment it")
    _ok(session, "make segment 1 gold")
    (line,) = session.context_lines(["mesh"])
    assert "Body" in line and "7 parts" in line and "1: gold" in line
    assert "7 parts named 1 torso, " in line and "head" in line
