"""The rays pack's napari layers: found by the role in their metadata, put in place of the one
with the same role, and the glasses layer read back into a scene (with the polygons as edited)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from ...core.contract.result import CommandError
from ...core.viewer.layers import added, has_layer, index_of, remove_layer, same_layer, set_attributes
from ...core.viewer.protocols import Layer, ShapesLayer, Viewer
from . import display
from .scene import Scene
from .scene_json import SceneFormatError

if TYPE_CHECKING:
    from ...core.running.history import Changes


def layers_with(viewer: Viewer, role: str) -> list[Layer]:
    return [layer for layer in viewer.layers if display.layer_role(getattr(layer, "metadata", None)) == role]


def glass_layer(viewer: Viewer) -> ShapesLayer | None:
    found = layers_with(viewer, "glasses")
    return cast("ShapesLayer", found[-1]) if found else None


def scene_of(layer: ShapesLayer | None) -> Scene:
    """The scene a glasses layer holds now, with its polygons as edited."""
    if layer is None:
        raise CommandError("there is no glasses layer to read a scene from")
    features = layer.features
    count = len(layer.data)
    names = list(features["name"]) if "name" in features else [""] * count
    indices = list(features["ref_index"]) if "ref_index" in features else [None] * count
    try:
        return display.scene_from_glass_layer(layer.data, layer.shape_type, names, indices, layer.metadata)
    except (SceneFormatError, ValueError, KeyError) as exc:
        raise CommandError(f"cannot read the glasses from layer {layer.name!r}: {exc}") from None


IN_PLACE = {"vectors": ("edge_color", "edge_width", "metadata")}
"""Layer types whose data napari replaces quickly: such a layer is updated, not added anew."""


def put(viewer: Viewer, layer_data: display.LayerData, role: str, changes: Changes | None = None) -> Layer:
    """Add a layer, in place of the one with the same role (keeping its position and visibility);
    ``changes`` gets the steps that take it back (the old layer itself returns)."""
    data, kwargs, kind = layer_data
    active = viewer.layers.selection.active
    existing = layers_with(viewer, role)
    old = existing[-1] if existing else None
    if old is not None and kind in IN_PLACE and type(old).__name__.casefold() == kind:
        _update(old, {"data": data, **{key: kwargs[key] for key in IN_PLACE[kind]}}, changes)
        return old
    new = added(viewer, getattr(viewer, f"add_{kind}")(data, **kwargs), changes)
    if old is not None:
        new.visible = old.visible
        index = index_of(viewer.layers, old)
        remove_layer(viewer, old, changes, instead_of=new)
        viewer.layers.move(index_of(viewer.layers, new), index)
        new.name = old.name  # napari suffixed the new one while the old one held the name
    if active is not None and not same_layer(active, old) and has_layer(viewer.layers, active):
        viewer.layers.selection.active = active
    return new


def _update(layer: Any, values: dict[str, Any], changes: Changes | None) -> None:
    """Set the data first, then what is per item of it (colours), both ways: colours of another
    length than the data are refused. napari empties the metadata dict it holds when given a
    new one, so the old one is kept as a copy."""
    before = {key: getattr(layer, key) for key in values}
    before = {key: dict(value) if isinstance(value, dict) else value for key, value in before.items()}

    def put_all(state: dict[str, Any]) -> None:
        for key, value in state.items():
            setattr(layer, key, value)

    put_all(values)
    if changes is not None:
        changes.add(lambda: put_all(before))


def remove(viewer: Viewer, role: str, changes: Changes | None = None) -> None:
    for layer in layers_with(viewer, role):
        remove_layer(viewer, layer, changes)


def sync_glass_layer(layer: ShapesLayer, scene: Scene, changes: Changes | None = None) -> None:
    """Store the traced scene on the layer, and name shapes that were drawn without a name."""
    stored = display.glass_layer(scene)[1]["metadata"][display.ROLE_KEY]
    metadata = layer.metadata
    had = metadata.get(display.ROLE_KEY)
    metadata[display.ROLE_KEY] = stored
    if changes is not None:
        changes.add(
            lambda: (
                metadata.__setitem__(display.ROLE_KEY, had)
                if had is not None
                else metadata.pop(display.ROLE_KEY, None)
            )
        )
    names = [glass.name for glass in scene.glasses]
    glass_shapes = [i for i, kind in enumerate(layer.shape_type) if kind in display.GLASS_SHAPES]
    if "name" in layer.features and len(glass_shapes) == len(names):
        column = list(layer.features["name"])
        for position, name in zip(glass_shapes, names, strict=True):
            column[position] = name
        features = layer.features.copy()
        features["name"] = column
        set_attributes(layer, changes, features=features)


def orientation(viewer: Viewer) -> Any:
    """The 2-D camera's axis orientation, where napari has one (≥ 0.5), else None."""
    from ...core.viewer.access import camera

    return getattr(camera(viewer), "orientation2d", None)


def physics_up(viewer: Viewer, changes: Changes | None = None) -> None:
    """Draw +y upwards, as optics does (edge "N" on top); napari's default puts rows downwards."""
    from ...core.viewer.access import camera

    if orientation(viewer) is not None:
        set_attributes(camera(viewer), changes, orientation2d=("up", "right"))


def set_orientation(viewer: Viewer, value: Any) -> None:
    from ...core.viewer.access import camera

    if value is not None:
        camera(viewer).orientation2d = value
