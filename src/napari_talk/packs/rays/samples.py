"""The pack's sample scenes, and the napari sample-data function of the "Prism demo".

The prism demo mirrors ray_tracing_shapely's verification scene: a point source lighting a glass prism named
"Main Prism", about a hundred segments, edges labelled by cardinal direction (N faces the source).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from .display import LayerData, scene_layers
from .engine import trace
from .scene import Glass, PointSource, Scene, SingleRay


def prism_demo_scene(n_rays: int = 48) -> Scene:
    """A point source of ``n_rays`` rays and an equilateral prism (n = 1.5) with side 200."""
    prism = Glass(
        "Main Prism",
        np.array([(250.0, 300.0), (350.0, 126.8), (450.0, 300.0)]),
        ref_index=1.5,
        labels="cardinal",
    )
    return Scene((prism,), (PointSource(240.0, 390.0, n_rays=n_rays, brightness=1.0),), name="Prism demo")


def slab_scene() -> Scene:
    """A single ray meeting a glass slab (n = 1.5) at 30°: reflections, refraction, internal bounces."""
    slab = Glass(
        "Slab 1",
        np.array([(100.0, 100.0), (300.0, 100.0), (300.0, 160.0), (100.0, 160.0)]),
        labels="cardinal",
    )
    return Scene((slab,), (SingleRay((120.0, 20.0), (166.19, 100.0)),), name="Slab")


SAMPLES: dict[str, Callable[[], Scene]] = {"prism demo": prism_demo_scene, "slab": slab_scene}


def prism_demo() -> list[LayerData]:
    """napari sample data: the prism demo traced, as glasses, edge labels and rays layers."""
    scene = prism_demo_scene()
    return scene_layers(scene, trace(scene))
