"""Every mode the settings offer has its strategy, and the road puts a line to the one named."""

from __future__ import annotations

from typing import get_args

from napari_talk.core.chat.settings import LLMSettings, Mode
from napari_talk.core.contract.registry import default_registry
from napari_talk.core.llm.modes import STRATEGIES
from napari_talk.core.llm.road import LLMRoad


def test_every_mode_of_the_settings_has_a_strategy_named_as_it():
    assert set(get_args(Mode)) == set(STRATEGIES)
    assert all(strategy.name == name for name, strategy in STRATEGIES.items())


def test_the_road_follows_the_mode_as_the_settings_change():
    road = LLMRoad(default_registry(), LLMSettings(model="m", base_url="http://127.0.0.1:9/v1", mode="json"))
    assert road.strategy is STRATEGIES["json"] and not road.reads_ahead
    road.settings.mode = "steps"
    assert road.strategy is STRATEGIES["steps"] and road.reads_ahead  # a local server reads steps' prompt
