"""A ray-optics scene handed to the simulator as the pack hands it: read by the pack's one reader
(``scene_json``), built by the engine's boundary (``engine.simulator_scene``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from napari_talk.packs.rays.engine import simulator_scene
from napari_talk.packs.rays.rayoptics.loader import LoadedScene
from napari_talk.packs.rays.scene_json import load_scene, scene_from_dict


def simulated(data: Any) -> LoadedScene:
    return simulator_scene(scene_from_dict(data))


def simulated_file(path: Path) -> LoadedScene:
    return simulator_scene(load_scene(path))
