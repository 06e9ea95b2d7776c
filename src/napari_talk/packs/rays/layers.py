"""The rays pack's napari layers: found by the role in their metadata, put in place of the one
with the same role, and the glasses layer read back into a scene (with the polygons as edited)."""

from __future__ import annotations

import functools
import weakref
from typing import TYPE_CHECKING, Any, cast

import numpy as np

from ...core.basics.result import CommandError
from ...core.basics.viewer_protocols import Layer, ShapesLayer, Viewer
from ...core.viewer.layers import (
    added,
    has_layer,
    index_of,
    remove_layer,
    same_layer,
    set_attributes,
    set_data_watch,
)
from . import display
from .roles import ROLE_KEY, layer_role
from .scene import Scene
from .scene_json import SceneFormatError

if TYPE_CHECKING:
    from ...core.running.history import Changes


def layers_with(viewer: Viewer, role: str) -> list[Layer]:
    return [layer for layer in viewer.layers if layer_role(getattr(layer, "metadata", None)) == role]


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


IN_PLACE: dict[str, tuple[str, ...]] = {
    "vectors": ("edge_color", "edge_width", "metadata"),
    "shapes": ("features", "edge_color", "face_color", "edge_width", "metadata"),
    "points": ("features", "size", "face_color", "border_color", "border_width", "metadata"),
}
"""What of a layer of each type an edit sets on the layer already there (after its data): napari
redraws a changed layer in milliseconds, where removing one holds the loop for seconds (it
collects garbage). A layer is added or removed only when the set of layers changes."""
SAME_WITHIN = 1e-6
"""Numbers this close (relative) are the same: napari keeps sizes and widths as float32."""
PER_ITEM = ("edge_color", "face_color", "border_color")
"""Colours given one per item: not set for no items (napari would reset them to white)."""


MADE_OFF_THREAD = 1000
"""A glasses layer of this many glasses or more is made in the job that traced its scene (napari
triangulates every glass as it makes a Shapes layer: seconds for thousands), and only added on
the GUI thread."""


def made_off_thread(layer_data: display.LayerData) -> Layer:
    """The napari layer of ``layer_data``, made without a viewer: napari's layers hold nothing of
    Qt until added, so this may run in a job's thread."""
    from napari.layers import Layer as NapariLayer

    data, kwargs, kind = layer_data
    return cast("Layer", NapariLayer.create(data, kwargs, kind))


def put(
    viewer: Viewer,
    layer_data: display.LayerData,
    role: str,
    changes: Changes | None = None,
    made: Layer | None = None,
) -> Layer:
    """The layer with this role, updated in place when there is one of the same type (its
    position, visibility and name kept), else added (in place of one of another type); ``changes``
    gets the steps that take it back (the old data, or the old layer itself, returns). ``made``:
    the layer of ``layer_data`` already made (:func:`made_off_thread`), added in place of the old
    one rather than updating it (which would triangulate on this thread again)."""
    data, kwargs, kind = layer_data
    active = viewer.layers.selection.active
    existing = layers_with(viewer, role)
    old = existing[-1] if existing else None
    if old is not None and made is None and updatable(old, layer_data):
        update(old, layer_data, changes)
        return old
    if made is not None:
        new = added(viewer, cast(Any, viewer).add_layer(made), changes)
    else:
        new = added(viewer, getattr(viewer, f"add_{kind}")(data, **kwargs), changes)
    if old is not None:
        new.visible = old.visible
        index = index_of(viewer.layers, old)
        remove_layer(viewer, old, changes, instead_of=new)
        viewer.layers.move(index_of(viewer.layers, new), index)
        new.name = old.name  # napari suffixed the new one while the old one held the name
    if active is not None and not same_layer(active, old) and has_layer(viewer.layers, active):
        viewer.layers.selection.active = active
    shown_while_filled(new)
    return new


_HIDDEN_EMPTY: weakref.WeakSet[Any] = weakref.WeakSet()
"""The layers :func:`shown_while_filled` hid for having no vectors."""


def shown_while_filled(layer: Any) -> None:
    """Hide a 2-D Vectors layer while it holds no vectors, and show it again once it holds some.
    napari draws an empty 2-D Vectors layer in a 3-D view with vertices of four coordinates, which
    vispy refuses in the middle of painting, and the window aborts: an emptied selection (a scene
    edited after a query, a query that found nothing) and the mesh sample's 3-D view meet so."""
    if type(layer).__name__ != "Vectors" or getattr(layer, "ndim", 2) != 2:
        return
    if not len(layer.data):
        if layer.visible:
            layer.visible = False
            _HIDDEN_EMPTY.add(layer)
    elif layer in _HIDDEN_EMPTY:
        _HIDDEN_EMPTY.discard(layer)
        layer.visible = True


def updatable(layer: Layer, layer_data: display.LayerData) -> bool:
    """Whether ``layer`` can take ``layer_data`` in place: the same type, and labels drawn on
    both or on neither (a layer's text style is set when napari makes it)."""
    _, kwargs, kind = layer_data
    if kind not in IN_PLACE or type(layer).__name__.casefold() != kind:
        return False
    text = getattr(layer, "text", None)
    labelled = type(getattr(text, "string", None)).__name__ not in ("NoneType", "ConstantStringEncoding")
    return labelled == ("text" in kwargs)


def update(layer: Layer, layer_data: display.LayerData, changes: Changes | None = None) -> None:
    """Set the data first, then what is per item of it (colours, features), both ways: napari
    refuses colours of another length than the data. Shapes get their shape types with their
    data. Undone, the layer's values before come back, the same way."""
    data, kwargs, kind = layer_data
    keys = [key for key in IN_PLACE[kind] if key in kwargs and not (key in PER_ITEM and not len(data))]
    values = {"data": _with_shape_types(data, kwargs.get("shape_type")), **{k: kwargs[k] for k in keys}}
    before = {key: _current(layer, key) for key in values}
    before = {key: value for key, value in before.items() if not (key in PER_ITEM and not len(layer.data))}
    _set_changed(layer, values)
    if changes is not None:
        changes.add(lambda: _set_changed(layer, before), guard=set_data_watch(layer))


def _with_shape_types(data: Any, shape_type: Any) -> Any:
    """Shapes' data as napari takes it with their types: (vertices, type) pairs."""
    if shape_type is None:
        return data
    types = [shape_type] * len(data) if isinstance(shape_type, str) else list(shape_type)
    return list(zip(data, types, strict=True))


def _current(layer: Any, key: str) -> Any:
    """A layer's value now, as a copy that later changes to the layer leave alone."""
    value = getattr(layer, key)
    if key == "data" and isinstance(value, list):  # shapes: the vertices with their types
        return list(zip([np.array(v) for v in value], list(layer.shape_type), strict=True))
    if isinstance(value, dict):  # napari empties the metadata dict it holds when given a new one
        return dict(value)
    if hasattr(value, "copy"):
        return value.copy()
    return list(value) if isinstance(value, list) else value


def _set_all(layer: Any, values: dict[str, Any]) -> None:
    for key, value in values.items():
        set_attributes(layer, None, **{key: value})
    shown_while_filled(layer)


def _set_changed(layer: Any, values: dict[str, Any]) -> None:
    """Set, in order, the values that differ from the layer's as it is then: each setter makes
    napari rebuild and redraw the layer, so an edit that moves one glass does not redraw the
    light sources, nor one that changes an index the outlines."""
    for key, value in values.items():
        now = _current(layer, key) if key == "data" else getattr(layer, key)
        if not _same(now, value):
            set_attributes(layer, None, **{key: value})
    shown_while_filled(layer)


def _same(now: Any, value: Any) -> bool:
    """Whether setting ``value`` would leave a layer's ``now`` as it is (False when unsure)."""
    try:
        if isinstance(now, (list, tuple)) and isinstance(value, (list, tuple)):
            return len(now) == len(value) and all(_same(a, b) for a, b in zip(now, value, strict=True))
        if hasattr(now, "equals"):  # a features table
            import pandas as pd

            given = pd.DataFrame(value, index=now.index)
            return list(now.columns) == list(given.columns) and all(
                np.array_equal(now[c].to_numpy(), given[c].to_numpy(), equal_nan=now[c].dtype.kind == "f")
                for c in now.columns
            )
        if isinstance(now, (str, dict)) or isinstance(value, (str, dict)):
            return bool(now == value)
        a, b = np.asarray(now), np.asarray(value)
        if a.dtype.kind not in "fiub" or b.dtype.kind not in "fiub":
            return False
        if b.ndim == a.ndim - 1 and len(a):  # one colour for every item
            b = np.broadcast_to(b, a.shape)
        return a.shape == b.shape and bool(np.allclose(a, b, rtol=SAME_WITHIN, atol=0, equal_nan=True))
    except (ValueError, TypeError):
        return False


def remove(viewer: Viewer, role: str, changes: Changes | None = None) -> None:
    for layer in layers_with(viewer, role):
        remove_layer(viewer, layer, changes)


def empty(viewer: Viewer, role: str, changes: Changes | None = None) -> None:
    """Take every item out of the layers with this role, keeping the layers: what a highlight
    does when it no longer holds (removing a layer would hold the loop for seconds)."""
    for layer in layers_with(viewer, role):
        data = np.asarray(layer.data)
        if len(data):
            values = {"data": np.zeros((0, *data.shape[1:]), dtype=data.dtype)}
            before = {"data": data.copy(), **{k: _current(layer, k) for k in PER_ITEM if hasattr(layer, k)}}
            _set_all(layer, values)
            if changes is not None:
                changes.add(functools.partial(_set_all, layer, before))


def sync_glass_layer(layer: ShapesLayer, scene: Scene, changes: Changes | None = None) -> None:
    """Store the traced scene on the layer, and name shapes that were drawn without a name."""
    stored = display.glass_layer(scene)[1]["metadata"][ROLE_KEY]
    metadata = layer.metadata
    had = metadata.get(ROLE_KEY)
    metadata[ROLE_KEY] = stored
    if changes is not None:
        changes.add(
            lambda: metadata.__setitem__(ROLE_KEY, had) if had is not None else metadata.pop(ROLE_KEY, None)
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


def set_orientation(viewer: Viewer, value: Any) -> None:
    from ...core.viewer.access import camera

    if value is not None:
        camera(viewer).orientation2d = value
