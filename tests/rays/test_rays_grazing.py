"""Rays that graze a glass: along an edge's line, touching a corner, or through a vertex into it.

Each case is worked out by hand; the vectorized tracer and the per-ray reference must agree on all.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from tracers import both_tracers

from napari_talk.packs.rays.scene import Beam, Glass, PointSource, Scene, SingleRay
from napari_talk.packs.rays.simulation import REFLECT, REFRACT, SOURCE
from napari_talk.packs.rays.tracer import trace

SQUARE = [(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)]
TRIANGLE = [(0.0, 0.0), (2.0, 0.0), (1.0, 3.0)]
L_SHAPE = [(0.0, 0.0), (2.0, 0.0), (2.0, 1.0), (1.0, 1.0), (1.0, 2.0), (0.0, 2.0)]  # concave at (1, 1)


def one_ray(vertices, p1, p2, *more_glasses: Glass) -> Scene:
    return Scene((Glass("glass", vertices, 1.5), *more_glasses), (SingleRay(p1, p2),))


PASSING = {
    "corner touched from outside": one_ray(SQUARE, (0.0, 2.0), (2.0, 0.0)),
    "along an axis-aligned edge": one_ray(SQUARE, (-1.0, 0.0), (0.0, 0.0)),
    "along an edge, backwards": one_ray(SQUARE, (2.0, 1.0), (1.5, 1.0)),
    "along a slanted edge": one_ray([(0.0, 0.0), (3.0, 1.0), (0.0, 2.0)], (-3.0, -1.0), (0.0, 0.0)),
    "apex grazed": one_ray(TRIANGLE, (-1.0, 3.0), (0.0, 3.0)),
    "apex grazed at a slant": one_ray(TRIANGLE, (0.0, 2.5), (1.0, 3.0)),
    "corner shared by two glasses": one_ray(
        SQUARE, (0.0, 2.0), (2.0, 0.0), Glass("other", [(1.0, 1.0), (2.0, 1.0), (2.0, 2.0), (1.0, 2.0)])
    ),
}


@pytest.mark.parametrize("scene", PASSING.values(), ids=PASSING.keys())
def test_a_grazing_ray_passes_by_straight_with_its_energy(scene):
    result = trace(scene, min_brightness=1e-9)
    segments = result.segments
    assert len(segments) == 1 and segments.escaped[0]
    ray = scene.sources[0]
    direction = np.subtract(ray.p2, ray.p1) / math.dist(ray.p1, ray.p2)
    travelled = segments.p2[0] - segments.p1[0]
    assert np.allclose(travelled / np.linalg.norm(travelled), direction, atol=1e-12)
    assert segments.brightness_s[0] == segments.brightness_p[0] == 0.5
    assert result.summary["escaped_energy"] == 1.0


def test_a_ray_into_a_corner_enters_through_the_edge_ending_there_on_a_tie():
    """The diagonal meets both faces at 45°: it enters through the left face (the edge ending at
    (0, 0)), so R_s, R_p are the 45° row of the Fresnel table and it bends towards +x."""
    result = trace(one_ray(SQUARE, (-1.0, -1.0), (0.0, 0.0)), min_brightness=1e-9)
    segments = result.segments
    assert np.allclose(segments.p2[0], (0.0, 0.0), atol=1e-12)
    reflected = np.flatnonzero((segments.parent == 0) & (segments.interaction == REFLECT))
    refracted = np.flatnonzero((segments.parent == 0) & (segments.interaction == REFRACT))
    assert len(reflected) == len(refracted) == 1
    r, t = reflected[0], refracted[0]
    assert segments.brightness_s[r] == pytest.approx(0.5 * 0.092013, abs=1e-6)
    assert segments.brightness_p[r] == pytest.approx(0.5 * 0.008466, abs=1e-6)
    back = segments.p2[r] - segments.p1[r]
    assert np.allclose(back / np.linalg.norm(back), np.array([-1.0, 1.0]) / math.sqrt(2))  # mirrored in x
    # Snell: 45° outside → 28.1255° inside, measured from the left face's normal (the x axis)
    assert np.allclose(segments.p2[t], (1.0, math.tan(math.radians(28.1255))), atol=1e-6)


def test_a_ray_leaving_through_a_corner_uses_the_edge_it_meets_more_head_on():
    """From (0.5, 0) towards the corner (1, 1): d·n is 0.447 on the right face and 0.894 on the top,
    so it leaves through the top at 26.565°, and Snell gives asin(1.5 sin 26.565°) = 42.13°."""
    scene = one_ray(SQUARE, (0.5, 0.0), (1.0, 1.0))
    segments = trace(scene, min_brightness=1e-9).segments
    out = np.flatnonzero((segments.parent == 0) & (segments.interaction == REFRACT))
    assert len(out) == 1
    d = segments.p2[out[0]] - segments.p1[out[0]]
    angle = math.degrees(math.atan2(d[0], d[1]))  # from the top face's normal, +y
    assert angle == pytest.approx(math.degrees(math.asin(1.5 * math.sin(math.atan(0.5)))), abs=1e-9)


def test_a_ray_grazing_a_concave_corner_from_inside_goes_on_to_the_far_face():
    """Started inside the L, the ray touches its concave corner (1, 1) and stays inside: its first
    interaction is at the right face x = 2, at y = 0.5."""
    scene = one_ray(L_SHAPE, (0.0, 1.5), (1.0, 1.0))
    segments = trace(scene, min_brightness=1e-9).segments
    assert segments.interaction[0] == SOURCE
    assert np.allclose(segments.p2[0], (2.0, 0.5), atol=1e-12)


def test_a_ray_into_a_concave_corner_from_the_notch_enters():
    segments = trace(one_ray(L_SHAPE, (2.0, 2.0), (1.0, 1.0)), min_brightness=1e-9).segments
    assert np.allclose(segments.p2[0], (1.0, 1.0), atol=1e-12)
    refracted = np.flatnonzero((segments.parent == 0) & (segments.interaction == REFRACT))
    assert len(refracted) == 1  # entered at 45° through the edge ending at the corner (normal +y)
    d = segments.p2[refracted[0]] - segments.p1[refracted[0]]
    assert math.degrees(math.atan2(-d[0], -d[1])) == pytest.approx(28.1255, abs=1e-4)


AGREEING = {
    **PASSING,
    "into a corner": one_ray(SQUARE, (-1.0, -1.0), (0.0, 0.0)),
    "out through a corner": one_ray(SQUARE, (0.5, 0.0), (1.0, 1.0)),
    "concave corner from inside": one_ray(L_SHAPE, (0.0, 1.5), (1.0, 1.0)),
    "concave corner from the notch": one_ray(L_SHAPE, (2.0, 2.0), (1.0, 1.0)),
    "along the L's edges": one_ray(L_SHAPE, (3.0, 1.0), (2.5, 1.0)),
    "a lattice of vertex and edge hits": Scene(
        (
            Glass("square", [(0, 0), (2, 0), (2, 2), (0, 2)], 1.5),
            Glass("triangle", [(2, 0), (4, 0), (3, 2)], 1.7),
            Glass("L", [(v[0] + 5, v[1]) for v in L_SHAPE], 1.4),
        ),
        (
            Beam((-1.0, -0.5), (-1.0, 2.5), 3, ray_spacing=1.0),  # rays along y = 0, 1 and 2, to +x
            Beam((8.0, 2.5), (8.0, -0.5), 3, ray_spacing=1.0),  # the same, to −x
            PointSource(-1.0, -1.0, 8),  # one ray along the square's diagonal, corner to corner
            PointSource(3.0, 3.0, 16),
        ),
    ),
}


@pytest.mark.parametrize("scene", AGREEING.values(), ids=AGREEING.keys())
def test_the_reference_tracer_agrees_on_grazing_rays(scene):
    ours, theirs = both_tracers(scene, 1e-6, digits=9)
    assert ours.shape == theirs.shape
    assert np.allclose(ours, theirs, atol=1e-9)
