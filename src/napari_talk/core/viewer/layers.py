"""Comparing napari layers as a plugin sees them.

napari hands a plugin's dock a ``PublicOnlyProxy`` of the viewer, and every attribute access
through it makes a new proxy object: ``layer is other`` and ``layer in a_list`` are never true
then. Layers are compared by the identity napari keeps (``unique_id``), else by their unique name.
"""

from __future__ import annotations

import functools
import weakref
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from ..basics.changes import Changes
    from ..basics.viewer_protocols import Layer, Viewer
    from ..safety.risk import Effect

L = TypeVar("L", bound="Layer")


def layer_key(layer: Layer) -> str:
    return str(getattr(layer, "unique_id", None) or f"name:{layer.name}")


def same_layer(a: Layer | None, b: Layer | None) -> bool:
    return a is not None and b is not None and layer_key(a) == layer_key(b)


def find_same(layers: Iterable[L], layer: Layer | None) -> L | None:
    """The entry of ``layers`` that is ``layer``, or None when it is gone."""
    key = layer_key(layer) if layer is not None else None
    return next((candidate for candidate in layers if layer_key(candidate) == key), None)


def has_layer(layers: Iterable[Layer], layer: Layer | None) -> bool:
    return layer is not None and find_same(layers, layer) is not None


def index_of(layers: Iterable[Layer], layer: Layer) -> int:
    """The position of ``layer`` in ``layers``; ValueError when it is gone."""
    key = layer_key(layer)
    for index, candidate in enumerate(layers):
        if layer_key(candidate) == key:
            return index
    raise ValueError(f"layer {getattr(layer, 'name', layer)!r} is not in the viewer")


# -- changes that can be taken back (see history.Changes) -----------------------------------------


def added(viewer: Viewer, layer: L, changes: Changes | None) -> L:
    """Note that ``layer`` was just added: taking it back removes it (if it is still there). An
    undo that would remove it after its data changed (the person painted on it) asks first."""
    if changes is not None:
        changes.add(lambda: _pop(viewer, layer), guard=data_watch(viewer, layer))
    return layer


FINGERPRINT_BYTES = 64 * 1024 * 1024
"""Layer data up to this size is fingerprinted by content whole; larger data by a lattice of samples."""
SAMPLED_ELEMENTS = 4_000_000
"""About how many elements of larger data are fingerprinted (evenly spaced along every axis)."""


def data_watch(viewer: Viewer, layer: Layer) -> Callable[[], list[Effect]]:
    """A guard for an undo step that removes ``layer``: what that would now replace of the
    person's (the layer, when its data changed since napari-talk made it). Data napari-talk
    itself sets later (:func:`set_attributes`, and taking that back) is not the person's."""
    return _watching(_Watch(viewer, layer))


def set_data_watch(layer: Layer) -> Callable[[], list[Effect]]:
    """A guard for an undo step that puts ``layer``'s earlier data back over what napari-talk
    just set: what that would now replace of the person's (their data, set since)."""
    return _watching(_Watch(None, layer, "napari-talk set it"))


def _watching(watch: _Watch) -> _Watch:
    for gone in [key for key, watches in _WATCHES.items() if not watches]:
        del _WATCHES[gone]
    _WATCHES.setdefault(layer_key(watch.layer), weakref.WeakSet()).add(watch)
    return watch


class _Watch:
    def __init__(self, viewer: Viewer | None, layer: Layer, since: str = "napari-talk made it") -> None:
        self.viewer, self.layer, self.since = viewer, layer, since
        self.by_event = False
        for name in ("data", "paint"):  # not set_data: napari sends it at every redraw
            emitter = getattr(getattr(layer, "events", None), name, None)
            if emitter is not None:
                emitter.connect(self._changed)
        self.before = fingerprint(layer)

    def _changed(self, *_: object) -> None:
        self.by_event = True

    def rebase(self) -> None:
        """The layer's data as it is now is napari-talk's own."""
        self.by_event, self.before = False, fingerprint(self.layer)

    def __call__(self) -> list[Effect]:
        from ..safety.risk import Effect

        if self.viewer is not None and not has_layer(self.viewer.layers, self.layer):
            return []
        now = fingerprint(self.layer)
        if self.by_event or now != self.before:
            what = f"layer {self.layer.name!r}, whose data changed since {self.since}"
            return [Effect.replace(what, f"{layer_key(self.layer)}:{now}", named=False)]
        return []


_WATCHES: dict[str, weakref.WeakSet[_Watch]] = {}
"""The data watches of each layer, by :func:`layer_key`, for as long as an undo step keeps them."""


def _set_own(target: Any, name: str, value: Any) -> None:
    """Set an attribute; new data set so is napari-talk's, not the person's, to every watch."""
    setattr(target, name, value)
    if name == "data":
        watches = _WATCHES.get(layer_key(target))
        for watch in list(watches or ()):
            watch.rebase()


def fingerprint(layer: Layer) -> str:
    """A digest of the layer's data: all of it when it is small enough to read whole, else a
    lattice of samples (an edit between them shows only through napari's events); data held
    lazily (dask, zarr) by its shape alone."""
    import hashlib

    import numpy as np

    data = getattr(layer, "data", None)
    parts = data if isinstance(data, list | tuple) else [data]
    found = hashlib.blake2b(digest_size=16)
    for part in parts:
        if not isinstance(part, np.ndarray):  # data held lazily (dask, zarr) is not read: its shape
            found.update(repr(getattr(part, "shape", type(part))).encode())
            continue
        array = part
        found.update(repr((array.shape, array.dtype.str)).encode())
        if array.dtype == object:
            continue
        if array.nbytes > FINGERPRINT_BYTES:
            across = max(1, int(SAMPLED_ELEMENTS ** (1 / max(array.ndim, 1))))
            array = array[tuple(slice(None, None, max(1, -(-n // across))) for n in array.shape)]
        found.update(np.ascontiguousarray(array).data)
    return found.hexdigest()


def remove_layer(
    viewer: Viewer, layer: Layer, changes: Changes | None = None, *, instead_of: Layer | None = None
) -> None:
    """Remove ``layer``; taking it back puts that very layer where it was (after removing
    ``instead_of``, the layer that took its place and its name, if that is still there)."""
    index = index_of(viewer.layers, layer)
    viewer.layers.pop(index)
    if changes is not None:

        def put_back() -> None:
            if instead_of is not None:
                _pop(viewer, instead_of)
            if not has_layer(viewer.layers, layer):
                viewer.layers.insert(min(index, len(viewer.layers)), layer)

        changes.add(put_back)


def set_attributes(target: Any, changes: Changes | None, **values: Any) -> None:
    """Set attributes one by one; taking them back restores each old value (asking first, for a
    layer's data the person changed since: that would be lost)."""
    for name, value in values.items():
        old = getattr(target, name)
        _set_own(target, name, value)
        if changes is not None:
            guard = set_data_watch(target) if name == "data" else None
            changes.add(functools.partial(_set_own, target, name, old), guard=guard)


def _pop(viewer: Viewer, layer: Layer) -> None:
    if has_layer(viewer.layers, layer):
        viewer.layers.pop(index_of(viewer.layers, layer))
