"""The names a scene's glasses and objects go by, for the parser: read from the session's scene, or
from a glasses layer, remembered while what they depend on is unchanged."""

from __future__ import annotations

from typing import Any

from ....core.basics.viewer_protocols import ShapesLayer
from ..roles import ROLE_KEY
from ..scene import Scene


def names_of(scene: Scene) -> dict[str, list[str]]:
    from .. import editing

    listed = editing.objects(scene)
    return {
        "glasses": scene.names,
        "scene_objects": [found.name for found in listed],
        "scene_object_words": editing.name_words(listed),
    }


_LAST_READ: dict[tuple[Any, ...], dict[str, list[str]]] = {}
"""The names last read from a glasses layer, by what they depend on: the parser asks for them as
each layer is added (four times as a scene is drawn), and reading a layer of thousands of glasses
as a scene takes seconds on the GUI thread."""


def names_in_layer(layer: ShapesLayer | None) -> dict[str, list[str]]:
    """The names of the scene ``layer`` holds (glass names depend on the shapes' names and types
    and the scene stored with the layer, not on where the vertices are)."""
    from .. import layers

    if layer is None:
        return names_of(layers.scene_of(layer))  # says there is no glasses layer
    key = _key(layer)
    if key not in _LAST_READ:
        _LAST_READ.clear()
        _LAST_READ[key] = names_of(layers.scene_of(layer))
    return _LAST_READ[key]


def _key(layer: Any) -> tuple[Any, ...]:
    stored = layer.metadata.get(ROLE_KEY, {}).get("scene") if isinstance(layer.metadata, dict) else None
    names = layer.features.get("name", ())
    return (id(layer), id(stored), tuple(layer.shape_type), tuple(str(n) for n in names))


def remember(layer: Any, scene: Scene) -> None:
    """``layer`` (about to be added) was drawn from ``scene``: its names are the scene's, known
    before napari tells the parser a layer was added."""
    _LAST_READ.clear()
    _LAST_READ[_key(layer)] = names_of(scene)
