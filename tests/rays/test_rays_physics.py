"""The engine's optics against the oracles of NOTES.md (Fresnel, Snell, TIR) and its lineage."""

from __future__ import annotations

import math

import numpy as np
import pytest

from napari_talk.packs.rays.engine import trace
from napari_talk.packs.rays.fresnel import (
    brewster_angle,
    critical_angle,
    fresnel_power,
    fresnel_transmittances,
)
from napari_talk.packs.rays.lineage import check_energy_conservation
from napari_talk.packs.rays.samples import prism_demo_scene, slab_scene
from napari_talk.packs.rays.scene import Beam, Glass, PointSource, Scene, SingleRay
from napari_talk.packs.rays.simulation import INTERACTIONS, REFLECT, REFRACT, SOURCE, TIR

# n1, n2, θi, R_s, R_p, θt — NOTES.md
FRESNEL_TABLE = [
    (1.0, 1.5, 0.0, 0.040000, 0.040000, 0.0),
    (1.0, 1.5, 45.0, 0.092013, 0.008466, 28.1255),
    (1.0, 1.5, 56.3099, 0.147929, 0.0, 33.6901),
    (1.5, 1.0, 30.0, 0.105773, 0.004608, 48.5904),
]
BLOCK = [(-500.0, -1000.0), (500.0, -1000.0), (500.0, 0.0), (-500.0, 0.0)]
"""A glass block whose top face is y = 0, normal +y."""


def hit_block(theta_deg: float, n: float, *, inside: bool = False):
    """Trace one ray meeting the block's top face at ``theta_deg``, from air or from inside."""
    t = math.radians(theta_deg)
    if inside:
        ray = SingleRay((-100 * math.sin(t), -100 * math.cos(t)), (0.0, 0.0))
    else:
        ray = SingleRay((-100 * math.sin(t), 100 * math.cos(t)), (0.0, 0.0))
    # three interactions: enough for the first hit's children, and light trapped inside past the
    # critical angle ends
    scene = Scene((Glass("block", BLOCK, n),), (ray,), settings='{"maxRayDepth": 3}')
    return trace(scene)


def children_of(result, segment_id: int):
    return np.flatnonzero(result.segments.parent == segment_id)


def angle_to_normal(direction: np.ndarray) -> float:
    """Angle (degrees) between a direction and the block's face normal (±y)."""
    return math.degrees(math.acos(abs(direction[1]) / np.hypot(*direction)))


@pytest.mark.parametrize(("n1", "n2", "theta", "r_s", "r_p", "theta_t"), FRESNEL_TABLE)
def test_fresnel_table(n1, n2, theta, r_s, r_p, theta_t):
    values = fresnel_transmittances(n1, n2, theta)
    assert values["R_s"] == pytest.approx(r_s, abs=1e-6)
    assert values["R_p"] == pytest.approx(r_p, abs=1e-6)
    assert values["T_s"] == pytest.approx(1 - r_s, abs=1e-6)
    assert values["T_p"] == pytest.approx(1 - r_p, abs=1e-6)
    assert values["theta_t_deg"] == pytest.approx(theta_t, abs=5e-5)
    assert values["tir"] is False


def test_critical_and_brewster_angles():
    assert critical_angle(1.5, 1.0) == pytest.approx(41.8103, abs=5e-5)
    assert critical_angle(1.0, 1.5) is None
    assert brewster_angle(1.0, 1.5) == pytest.approx(56.3099, abs=5e-5)
    beyond = fresnel_transmittances(1.5, 1.0, 42.0)
    assert beyond["tir"] and beyond["R_s"] == beyond["R_p"] == 1.0 and beyond["theta_t_deg"] is None
    with pytest.raises(ValueError, match="n2"):
        fresnel_transmittances(1.0, 0.0, 10.0)
    with pytest.raises(ValueError, match="between 0 and 90"):
        fresnel_transmittances(1.0, 1.5, 95.0)


@pytest.mark.parametrize(("n1", "n2", "theta", "r_s", "r_p", "theta_t"), FRESNEL_TABLE)
def test_the_engine_splits_energy_as_the_fresnel_table(n1, n2, theta, r_s, r_p, theta_t):
    inside = n1 > 1
    result = hit_block(theta, n1 if inside else n2, inside=inside)
    segments = result.segments
    kids = children_of(result, 0)
    kinds = {INTERACTIONS[segments.interaction[k]]: k for k in kids}
    reflected, refracted = kinds["reflect"], kinds["refract"]
    assert segments.brightness_s[reflected] / 0.5 == pytest.approx(r_s, abs=1e-6)
    assert segments.brightness_p[reflected] / 0.5 == pytest.approx(r_p, abs=1e-6)
    direction = segments.p2[refracted] - segments.p1[refracted]
    assert angle_to_normal(direction) == pytest.approx(theta_t, abs=5e-5)


@pytest.mark.parametrize("theta", [0.0, 5.0, 17.0, 33.0, 45.0, 60.0, 75.0, 89.0])
@pytest.mark.parametrize(
    ("n", "inside"), [(1.5, False), (1.333, False), (2.4, False), (1.5, True), (1.7, True)]
)
def test_snell_law_holds_to_1e9(theta, n, inside):
    result = hit_block(theta, n, inside=inside)
    segments = result.segments
    incoming = segments.p2[0] - segments.p1[0]
    n1, n2 = (n, 1.0) if inside else (1.0, n)
    refracted = [k for k in children_of(result, 0) if segments.interaction[k] == REFRACT]
    if inside and n1 * math.sin(math.radians(theta)) > n2:
        assert refracted == []
        return
    (k,) = refracted
    out = segments.p2[k] - segments.p1[k]
    sin_i = abs(incoming[0]) / np.hypot(*incoming)
    sin_t = abs(out[0]) / np.hypot(*out)
    assert n1 * sin_i == pytest.approx(n2 * sin_t, abs=1e-9)
    assert np.sign(out[1]) == np.sign(incoming[1])  # it goes on through the face
    (reflected,) = [k for k in children_of(result, 0) if segments.interaction[k] == REFLECT]
    back = segments.p2[reflected] - segments.p1[reflected]
    assert angle_to_normal(back) == pytest.approx(theta, abs=1e-9) and np.sign(back[1]) == -np.sign(
        incoming[1]
    )


@pytest.mark.parametrize("theta", [41.82, 50.0, 60.0, 80.0])
def test_beyond_the_critical_angle_one_tir_child_keeps_all_the_energy(theta):
    result = hit_block(theta, 1.5, inside=True)
    segments = result.segments
    (child,) = children_of(result, 0)
    assert segments.interaction[child] == TIR
    assert segments.brightness_s[child] == segments.brightness_s[0]
    assert segments.brightness_p[child] == segments.brightness_p[0]
    assert segments.lost[0] == 0
    assert angle_to_normal(segments.p2[child] - segments.p1[child]) == pytest.approx(theta, abs=1e-9)


def test_just_below_the_critical_angle_light_still_leaves():
    result = hit_block(41.80, 1.5, inside=True)
    kinds = sorted(result.segments.interaction[children_of(result, 0)])
    assert kinds == [REFLECT, REFRACT]


def test_reflection_at_brewster_incidence_is_fully_s_polarized():
    result = hit_block(brewster_angle(1.0, 1.5), 1.5)
    segments = result.segments
    dop = segments.degree_of_polarization
    (reflected,) = [k for k in children_of(result, 0) if segments.interaction[k] == REFLECT]
    (refracted,) = [k for k in children_of(result, 0) if segments.interaction[k] == REFRACT]
    assert dop[reflected] == pytest.approx(1.0, abs=1e-9)
    assert segments.brightness_s[reflected] > segments.brightness_p[reflected]
    assert 0 < dop[refracted] < 0.2
    off_brewster = hit_block(45.0, 1.5)
    reflected = [k for k in children_of(off_brewster, 0) if off_brewster.segments.interaction[k] == REFLECT]
    assert off_brewster.segments.degree_of_polarization[reflected[0]] < 0.9


def energy_checks(result):
    segments = result.segments
    parents = segments.parent
    has_parent = parents >= 0
    sums = np.bincount(parents[has_parent], weights=segments.total[has_parent], minlength=len(segments))
    interacted = ~segments.escaped
    return segments, sums, interacted


def scenes():
    two = Scene(
        (
            Glass("A", [(0, 0), (100, 0), (100, 100), (0, 100)], 1.5),
            Glass("B", [(100, 0), (200, 0), (150, 100)], 1.7, labels="cardinal"),
        ),
        (PointSource(-50, 50, 90), Beam((250, -20), (250, 120), 12)),
        name="shared edge",
    )
    rng = np.random.default_rng(4)
    glasses = tuple(
        Glass(f"G{i}", c + 40 * np.c_[np.cos(a), np.sin(a)], rng.uniform(1.2, 2.0))
        for i, (c, a) in enumerate(
            (np.array([x, y]), np.sort(rng.uniform(0, 2 * np.pi, rng.integers(3, 8))))
            for x, y in ((0, 0), (120, 30), (40, 140))
        )
    )
    scattered = Scene(glasses, (PointSource(60, 60, 200), PointSource(0, 0, 30)), name="random")
    return [prism_demo_scene(), slab_scene(), two, scattered]


def test_the_energy_check_finds_an_interaction_that_creates_energy():
    result = trace(prism_demo_scene())
    segments = result.segments
    child = int(np.flatnonzero((segments.interaction == REFRACT) & segments.escaped)[0])
    segments.brightness_s[child] *= 1.5  # break one interaction on purpose (the child is a leaf)
    report = check_energy_conservation(result.lineage)
    assert not report["is_valid"] and report["violation_count"] == 1
    assert report["violations"][0]["parent_id"] == int(segments.parent[child])
    assert report["max_excess_ratio"] > 1


@pytest.mark.parametrize("scene", scenes(), ids=lambda s: s.name)
def test_every_segment_but_the_source_rays_has_a_parent_it_starts_from(scene):
    segments = trace(scene).segments
    ids, parents = segments.ids, segments.parent
    roots = parents < 0
    assert np.all(segments.interaction[roots] == SOURCE) and np.all(segments.interaction[~roots] != SOURCE)
    assert np.all((parents[~roots] >= 0) & (parents[~roots] < ids[~roots]))
    assert np.allclose(segments.p1[~roots], segments.p2[parents[~roots]])
    assert np.all(segments.depth[~roots] == segments.depth[parents[~roots]] + 1)
    assert len(set(segments.uuids())) == len(segments)


def test_fresnel_power_is_vectorized_and_conserves():
    cos_i = np.linspace(0, 1, 101)
    r_s, r_p, cos_t, tir = fresnel_power(1.5, 1.0, cos_i)
    assert r_s.shape == (101,) and np.all((r_s >= 0) & (r_s <= 1)) and np.all((r_p >= 0) & (r_p <= 1))
    assert np.all(tir == (cos_i < math.cos(math.radians(critical_angle(1.5, 1.0)))))
    assert np.all(r_s[tir] == 1) and np.all(cos_t[tir] == 0)
