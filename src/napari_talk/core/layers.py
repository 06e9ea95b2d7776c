"""Comparing napari layers as a plugin sees them.

napari hands a plugin's dock a ``PublicOnlyProxy`` of the viewer, and every attribute access
through it makes a new proxy object: ``layer is other`` and ``layer in a_list`` are never true
then. Layers are compared by the identity napari keeps (``unique_id``), else by their unique name.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any


def layer_key(layer: Any) -> str:
    return str(getattr(layer, "unique_id", None) or f"name:{layer.name}")


def same_layer(a: Any, b: Any) -> bool:
    return a is not None and b is not None and layer_key(a) == layer_key(b)


def find_same(layers: Iterable[Any], layer: Any) -> Any | None:
    """The entry of ``layers`` that is ``layer``, or None when it is gone."""
    key = layer_key(layer) if layer is not None else None
    return next((candidate for candidate in layers if layer_key(candidate) == key), None)


def has_layer(layers: Iterable[Any], layer: Any) -> bool:
    return layer is not None and find_same(layers, layer) is not None


def index_of(layers: Iterable[Any], layer: Any) -> int:
    """The position of ``layer`` in ``layers``; ValueError when it is gone."""
    key = layer_key(layer)
    for index, candidate in enumerate(layers):
        if layer_key(candidate) == key:
            return index
    raise ValueError(f"layer {getattr(layer, 'name', layer)!r} is not in the viewer")
