"""A local model reads the scene's prompt while the person types, so a line waits only for its own words."""

from __future__ import annotations

import json

import pytest
from qtpy.QtCore import Qt
from support.door import cells_with_model

from napari_talk.core.chat.settings import LLMSettings
from napari_talk.core.contract.registry import default_registry
from napari_talk.core.llm.prompt import CHOOSE_OPENING
from napari_talk.core.llm.road import LLMRoad


def reads_ahead(body: dict) -> bool:
    return body.get("max_tokens") == 1 and body["messages"][-1]["content"] == CHOOSE_OPENING


@pytest.fixture
def steps_dock(make_napari_viewer_proxy, qtbot, llm_settings, tmp_path):
    steps = llm_settings.model_copy(update={"mode": "steps"})
    yield from cells_with_model(make_napari_viewer_proxy, steps, tmp_path)


def test_the_scene_is_read_ahead_and_the_line_reuses_it_word_for_word(qtbot, steps_dock, chat_server):
    chat_server.say("ok")  # the read-ahead's one token
    qtbot.waitUntil(lambda: any(reads_ahead(b) for b in chat_server.requests), timeout=15_000)
    (ahead,) = [b for b in chat_server.requests if reads_ahead(b)]
    system = ahead["messages"][0]["content"]
    assert "nuclei" in system and "layer_visibility" in system, "the scene's layers and commands"

    chat_server.say(json.dumps({"commands": ["layer_visibility"]}))
    chat_server.say(
        json.dumps({"commands": [{"action": "layer_visibility", "name": "nuclei", "op": "hide"}]})
    )
    chat_server.say("ok")  # the read-ahead of the changed scene
    asked = len(chat_server.requests)
    qtbot.keyClicks(steps_dock.input, "could you make the blue blobs vanish")
    qtbot.keyClick(steps_dock.input, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: steps_dock.task is None, timeout=15_000)
    assert not steps_dock.viewer.layers["nuclei"].visible
    first = chat_server.requests[asked]
    assert first["messages"][0]["content"] == system, "the prompt the server has read, unchanged"
    assert first["messages"][1]["content"].startswith(CHOOSE_OPENING)
    assert first["messages"][1]["content"].endswith('Line: "could you make the blue blobs vanish"')

    # hiding a layer changed the scene: its new prompt is read ahead in turn, once
    qtbot.waitUntil(lambda: sum(map(reads_ahead, chat_server.requests)) == 2, timeout=15_000)
    again = [b for b in chat_server.requests if reads_ahead(b)][-1]["messages"][0]["content"]
    assert again != system and again.startswith(system.split("Context:")[0])
    qtbot.wait(2_000)
    assert sum(map(reads_ahead, chat_server.requests)) == 2, "an unchanged scene is not read again"


def test_only_a_local_server_in_steps_mode_is_asked_to_read_ahead(chat_server):
    registry = default_registry()
    here = LLMSettings(model="m", base_url=chat_server.url, mode="steps", timeout=5, max_retries=0)
    chat_server.say("ok")
    assert LLMRoad(registry, here).prime(["- Layers: nuclei (image)"])
    assert reads_ahead(chat_server.requests[-1])

    for settings in (
        here.model_copy(update={"mode": "tools"}),
        here.model_copy(update={"base_url": "https://api.openai.com/v1"}),
    ):
        road = LLMRoad(registry, settings)
        assert not road.prime(["- Layers: nuclei (image)"])
        assert road._client is None, "nothing was sent"
    assert len(chat_server.requests) == 1
