"""The registry: one adapter, schemas and help, all derived from the command models."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from napari_talk.core.basics.commands import Command
from napari_talk.core.basics.result import Result
from napari_talk.core.contract.pack import Handlers, Pack
from napari_talk.core.contract.registry import Registry, default_registry
from napari_talk.core.help.topics import render_help

VIEWER_ACTIONS = {
    "layer_visibility", "panel_toggle", "zoom_box", "center_on", "set_zoom", "fit_to_layer",
    "list_layers", "help", "zoom_by", "reset_view", "layer_opacity", "layer_colormap",
    "layer_contrast", "auto_contrast", "solo_layer", "all_layers_visibility", "select_layer",
    "remove_layer", "rename_layer", "set_ndisplay", "set_slice", "screenshot", "grid_mode",
    "scale_bar", "undo_last_action", "redo_last_action", "move_layer",
}  # fmt: skip


def test_every_viewer_command_of_the_catalog_is_registered():
    assert set(default_registry().commands) >= VIEWER_ACTIONS


@pytest.mark.parametrize(
    "bad",
    [
        {"action": "set_zoom", "zoom": 0.001},
        {"action": "set_zoom", "zoom": float("inf")},
        {"action": "layer_opacity", "name": "a", "opacity": 1.5},
        {"action": "zoom_box", "box": [0, 0, 10]},
        {"action": "zoom_box", "box": [5, 0, 5, 10]},
        {"action": "layer_contrast", "name": "a", "limits": [10, 10]},
        {"action": "zoom_by", "factor": 0},
        {"action": "set_ndisplay", "ndisplay": 4},
        {"action": "set_slice", "index": -1},
        {"action": "set_slice"},
        {"action": "set_slice", "index": 2, "position": "last"},
        {"action": "move_layer", "name": "a", "position": "sideways"},
        {"action": "move_layer", "name": "a", "position": -1},
        {"action": "move_layer", "name": "a", "position": "below"},
        {"action": "move_layer", "name": "a", "position": "top", "relative_to": "b"},
        {"action": "layer_visibility", "name": "a", "op": "show", "extra": 1},
        {"action": "layer_visibility", "name": "  ", "op": "show"},
        {"action": "execute_code", "code": "import os"},
    ],
)
def test_the_adapter_rejects_what_the_catalog_forbids(bad):
    with pytest.raises(ValidationError):
        default_registry().validate(bad)


def test_the_adapter_accepts_the_catalog_forms():
    registry = default_registry()
    assert registry.validate({"action": "set_zoom", "zoom": 0.01}).zoom == 0.01
    assert registry.validate({"action": "zoom_box", "box": [64, 64, 0, 0]}).box == [64, 64, 0, 0]
    assert registry.validate({"action": "set_slice", "index": 3, "axis": "z"}).axis == "z"
    assert registry.validate({"action": "help"}).topic is None


def test_every_parameter_is_described_in_the_schemas():
    schemas = default_registry().schemas()
    assert set(schemas) >= VIEWER_ACTIONS
    for action, schema in schemas.items():
        assert "action" not in schema["properties"], action
        assert schema.get("additionalProperties") is False, action
        for name, prop in schema["properties"].items():
            assert prop.get("description"), f"{action}.{name} has no description"


def test_help_lists_examples_and_narrows_by_topic():
    registry = default_registry()
    full = render_help(registry)
    assert '"hide nuclei"' in full and '"zoom to 2.5"' in full
    narrowed = render_help(registry, "zoom")
    assert "zoom" in narrowed and '"hide nuclei"' not in narrowed


def test_register_returns_its_own_undo():
    from typing import ClassVar, Literal

    class Ping(Command):
        """Answer pong."""

        action: Literal["ping"] = "ping"
        examples: ClassVar[tuple[str, ...]] = ("ping",)
        no_rule: ClassVar[str] = "agents only"

    pongs = Handlers[None]()
    pongs.on(Ping)(lambda command, ctx: Result.success("pong"))
    registry = Registry(default_registry().packs)
    unregister = registry.register(Pack("ping", (Ping,), handlers=pongs))
    assert registry.validate({"action": "ping"}).action == "ping"
    unregister()
    with pytest.raises(ValidationError):
        registry.validate({"action": "ping"})


def test_a_pack_cannot_take_over_another_packs_command():
    from napari_talk.packs.viewer.commands import SetZoom

    registry = Registry(default_registry().packs)
    with pytest.raises(ValueError, match="redefines"):
        registry.register(Pack("impostor", (SetZoom,)))


def test_help_is_short_for_the_packs_in_play_and_long_on_request():
    from napari_talk.core.running.session import Session

    session = Session(None)
    short = session.run("help").message
    assert len(short.splitlines()) <= 8
    assert '"hide nuclei"' in short and "rays" in short and '"rays inside Prism"' not in short
    rays = session.run("help rays").message
    assert '"rays inside Prism"' in rays and '"hide nuclei"' not in rays


def test_undo_and_redo_say_in_words_what_they_undo(tmp_path):
    from napari_talk.core.running.session import Session

    session = Session(None, workspace=tmp_path)
    done = session.run("write notes.md with hello")
    undone = session.run("undo").message
    assert undone == f"undid: {done.message}" and "path=" not in undone
    assert session.run("redo").message == f"redid: {done.message}"
