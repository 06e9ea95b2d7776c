"""napari's viewer, and the proxy a plugin's dock receives, answer every protocol packs are typed
against (core/basics/viewer_protocols.py): each attribute and method named there exists on both."""

from __future__ import annotations

import inspect
from typing import Protocol

import numpy as np
import pytest

from napari_talk.core.basics import viewer_protocols as p
from napari_talk.core.viewer.access import camera, grid, scale_bar, text_overlay


def declared(protocol: type) -> list[str]:
    """The public names ``protocol`` and the protocols it extends declare."""
    names: set[str] = set()
    for base in protocol.__mro__:
        if base in (object, Protocol) or not getattr(base, "_is_protocol", False):
            continue
        names |= set(inspect.get_annotations(base))
        members = vars(base).items()
        names |= {name for name, value in members if callable(value) or isinstance(value, property)}
    return sorted(name for name in names if not name.startswith("_"))


def missing(obj: object, protocol: type) -> list[str]:
    return [name for name in declared(protocol) if not hasattr(obj, name)]


def test_the_walk_reads_what_a_protocol_declares():
    wanted = {"layers", "dims", "add_image", "add_shapes", "screenshot", "reset_view"}
    assert wanted <= set(declared(p.Viewer))
    assert {"name", "visible", "opacity", "data", "scale", "world_to_data", "contrast_limits"} <= set(
        declared(p.ImageLayer)
    )
    assert missing(object(), p.Layer) == declared(p.Layer)


LAYERS = {
    "add_image": (p.ImageLayer, lambda: np.zeros((8, 8))),
    "add_points": (p.PointsLayer, lambda: np.zeros((2, 2))),
    "add_shapes": (p.ShapesLayer, lambda: [np.array([[0, 0], [4, 0], [4, 4], [0, 4]])]),
    "add_surface": (p.SurfaceLayer, lambda: (np.eye(3), np.array([[0, 1, 2]]))),
    "add_labels": (p.LabelsLayer, lambda: np.zeros((8, 8), int)),
    "add_vectors": (p.VectorsLayer, lambda: np.zeros((2, 2, 2))),
}


@pytest.fixture
def viewers(make_napari_viewer_proxy):
    proxy = make_napari_viewer_proxy()
    return {"proxy": proxy, "viewer": proxy.__wrapped__}


@pytest.mark.parametrize("which", ["viewer", "proxy"])
def test_napari_answers_the_viewer_protocols(viewers, which):
    viewer = viewers[which]
    parts = {
        p.Viewer: viewer,
        p.LayerList: viewer.layers,
        p.Selection: viewer.layers.selection,
        p.Dims: viewer.dims,
        p.Camera: camera(viewer),
        p.Grid: grid(viewer),
        p.Overlay: scale_bar(viewer),
        p.TextOverlay: text_overlay(viewer),
    }
    for protocol, part in parts.items():
        assert missing(part, protocol) == [], f"{which}: {protocol.__name__}"
        assert isinstance(part, protocol), f"{which}: {protocol.__name__}"


@pytest.mark.parametrize("which", ["viewer", "proxy"])
def test_napari_layers_answer_their_kind_s_protocol(viewers, which):
    viewer = viewers[which]
    for add, (protocol, data) in LAYERS.items():
        layer = getattr(viewer, add)(data(), name=add)
        for found in (layer, viewer.layers[add]):
            assert missing(found, protocol) == [], f"{which}: {add}"
            assert isinstance(found, protocol), f"{which}: {add}"
    image = viewer.layers["add_image"]
    assert missing(image.colormap, p.Colormap) == []
    assert missing(viewer.layers.events.inserted, p.Emitter) == []
