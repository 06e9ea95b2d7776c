"""Curved glass: ray-optics arc paths and circles, tessellated into facets, against closed-form optics."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from napari_talk.packs.rays import engine, outline, table_kernel
from napari_talk.packs.rays.analysis import find_rays_crossing_edge
from napari_talk.packs.rays.edges import edge_labels, edges_table, resolve_edge
from napari_talk.packs.rays.engine import trace
from napari_talk.packs.rays.outline import MAX_SAGITTA, Outline
from napari_talk.packs.rays.scene import Glass, Scene, SingleRay
from napari_talk.packs.rays.scene_json import load_scene, scene_from_dict
from napari_talk.packs.rays.simulation import REFLECT, REFRACT
from napari_talk.packs.rays.writer import scene_to_dict
from napari_talk.packs.rays.xml import edges_to_xml

R, N = 50.0, 1.5
BALL_EFL = N * R / (2 * (N - 1))
"""A ball lens's effective focal length, measured from its centre (its principal planes meet there)."""
LENS_R, LENS_N = 100.0, 1.5
EDGE_X = 2.0
"""The plano-convex lens: flat face x = 0, edge 2 thick, an arc of radius 100 to y = ±20."""
VERTEX_X = EDGE_X + LENS_R - math.sqrt(LENS_R**2 - 20**2)


def point(x: float, y: float, arc: bool = False) -> dict:
    return {"x": x, "y": y, "arc": arc}


def plano_convex() -> dict:
    """As ray-optics saves a Glass drawn with one arc (the vertex is the arc's middle point)."""
    path = [point(0, -20), point(EDGE_X, -20), point(VERTEX_X, 0, True), point(EDGE_X, 20), point(0, 20)]
    return {"type": "Glass", "name": "PCX", "path": path, "refIndex": LENS_N, "edgeLabels": "cardinal"}


def ball() -> dict:
    return {"type": "CircleGlass", "name": "Ball", "p1": point(0, 0), "p2": point(R, 0), "refIndex": N}


def scene_with(*objs: dict, sources: tuple = ()) -> Scene:
    scene = scene_from_dict({"version": 5, "objs": list(objs)})
    return Scene(scene.glasses, sources, warnings=scene.warnings)


def exit_ray(scene: Scene, refractions: int = 2) -> tuple[np.ndarray, np.ndarray]:
    """(point, direction) of the ray that a single ray becomes after ``refractions`` refractions."""
    segments = trace(scene).segments
    k = 0
    for _ in range(refractions):
        (k,) = [
            c
            for c in np.flatnonzero(segments.parent == segments.ids[k])
            if segments.interaction[c] == REFRACT
        ]
    return segments.p1[k], segments.p2[k] - segments.p1[k]


def axis_crossing(scene: Scene, refractions: int = 2) -> float:
    p, d = exit_ray(scene, refractions)
    return float(p[0] - p[1] * d[0] / d[1])


def exact_ball_crossing(h: float) -> float:
    """Where a ray at height h crosses the axis behind a true sphere (closed form: the chord
    inside subtends π − 2r, the ray turns by 2(i − r) in all)."""
    i = math.asin(h / R)
    r = math.asin(math.sin(i) / N)
    exit_angle = math.pi - i - (math.pi - 2 * r)
    ex, ey = R * math.cos(exit_angle), R * math.sin(exit_angle)
    return ex + ey / math.tan(2 * (i - r))


def test_a_paraxial_ray_through_a_ball_lens_crosses_the_axis_at_n_r_over_2_n_minus_1():
    h = 0.01 * R
    x = axis_crossing(scene_with(ball(), sources=(SingleRay((-200, h), (0, h)),)))
    spherical_aberration = BALL_EFL - exact_ball_crossing(h)  # 0.002 at h = R / 100
    assert 0 < spherical_aberration < 3e-5 * BALL_EFL
    assert x == pytest.approx(BALL_EFL, abs=spherical_aberration + 2 * MAX_SAGITTA * BALL_EFL)


@pytest.mark.parametrize("h", [0.5, 2.0, 5.0, 15.0, 30.0])
def test_rays_through_a_ball_lens_cross_the_axis_where_a_true_sphere_sends_them(h):
    """Tessellation error stays at the sagitta's scale (measured: 0.94 × MAX_SAGITTA × EFL),
    because facets refract with the circle's normal; with the facets' own normals the same 703
    facets put these rays up to 15% of the EFL off, and 3600 facets still 2%."""
    x = axis_crossing(scene_with(ball(), sources=(SingleRay((-200, h), (0, h)),)))
    assert x == pytest.approx(exact_ball_crossing(h), abs=2 * MAX_SAGITTA * BALL_EFL)


def test_a_plano_convex_lens_focuses_a_paraxial_ray_at_r_over_n_minus_1_past_its_vertex():
    h = 0.5
    x = axis_crossing(scene_with(plano_convex(), sources=(SingleRay((-50, h), (0, h)),)))
    # exact: parallel inside the glass, refracted once by the arc (centre VERTEX_X − R) into air
    i = math.asin(h / LENS_R)
    exact = (
        VERTEX_X - LENS_R + math.sqrt(LENS_R**2 - h**2) + h / math.tan(math.asin(LENS_N * math.sin(i)) - i)
    )
    focal = LENS_R / (LENS_N - 1)  # lensmaker's, plano-convex (exact paraxially, any thickness)
    assert x == pytest.approx(exact, abs=2 * MAX_SAGITTA * focal)
    assert x - VERTEX_X == pytest.approx(focal, rel=1e-4)  # spherical aberration: 3e-5 at h = R / 200


def test_a_scene_file_with_arcs_and_circles_loads_without_warnings_and_writes_them_back(tmp_path):
    lens = {  # a SphericalLens as ray-optics saves it once built: a Glass path with two arcs
        "type": "SphericalLens",
        "path": [
            point(95, -30),
            point(105, -30),
            point(115, 0, True),
            point(105, 30),
            point(95, 30),
            point(85, 0, True),
        ],
        "refIndex": 1.6,
    }
    data = {
        "version": 5,
        "objs": [plano_convex(), {**ball(), "p1": point(200, 0), "p2": point(200, 40)}, lens],
    }
    path = tmp_path / "curved.json"
    path.write_text(json.dumps(data))
    scene = load_scene(path)
    assert scene.warnings == ()
    assert scene.names == ["PCX", "Ball", "Glass 3"]
    assert [len(g.outline.sides) for g in scene.glasses if g.outline] == [4, 1, 4]
    written = scene_to_dict(scene)
    assert [obj["type"] for obj in written["objs"]] == ["Glass", "CircleGlass", "Glass"]
    assert written["objs"][0]["path"] == plano_convex()["path"]
    assert written["objs"][1]["p2"] == {"x": 200.0, "y": 40.0}
    again = scene_from_dict(json.loads(json.dumps(written)))
    for first, second in zip(scene.glasses, again.glasses, strict=True):
        assert first.outline == second.outline and np.array_equal(first.vertices, second.vertices)


def test_a_spherical_lens_saved_by_its_parameters_only_is_kept_and_traced_by_the_simulator():
    lens = {
        "type": "SphericalLens",
        "p1": point(0, -20),
        "p2": point(0, 20),
        "params": {"d": 5, "r1": 50, "r2": -50},
    }
    ray = {"type": "SingleRay", "p1": point(-50, 10), "p2": point(-40, 10)}
    scene = scene_from_dict({"version": 5, "objs": [lens, ray]})
    assert scene.glasses == () and [o.type for o in scene.others] == ["SphericalLens"]
    assert not scene.warnings
    segments = engine.trace(scene).segments
    leaving = segments.p2[-1] - segments.p1[-1]
    assert len(segments) >= 3 and leaving[1] < 0  # refracted twice, bent towards the axis


def test_tessellated_arcs_stay_on_their_circle_with_the_promised_sagitta():
    glass = scene_with(plano_convex()).glasses[0]
    side = glass.outline.sides[1]
    centre, radius, _, sweep = side.circle
    assert centre == pytest.approx((VERTEX_X - LENS_R, 0)) and radius == pytest.approx(LENS_R)
    points = side.points()
    assert np.allclose(np.hypot(*(points - centre).T), LENS_R, rtol=1e-12)
    facet_angle = abs(sweep) / side.n_facets
    assert LENS_R * (1 - math.cos(facet_angle / 2)) <= MAX_SAGITTA * LENS_R
    assert side.n_facets >= outline.MIN_FACETS


def test_an_arc_walked_either_way_gives_the_same_facets_so_cemented_glasses_share_them():
    left = Outline(path=((-10, -20, False), (0, -20, False), (5, 0, True), (0, 20, False), (-10, 20, False)))
    right = Outline(path=((0, 20, False), (5, 0, True), (0, -20, False), (10, -20, False), (10, 20, False)))
    arc_left = np.vstack([left.sides[1].points(), [(0, 20)]])
    arc_right = np.vstack([right.sides[0].points(), [(0, -20)]])
    assert np.array_equal(arc_left, arc_right[::-1])
    # same index on both sides of the cemented arc: the ray goes straight through, nothing reflected
    a, b = Glass.from_outline("A", left, 1.5), Glass.from_outline("B", right, 1.5)
    scene = Scene((a, b), (SingleRay((-30, 7), (0, 7)),))
    segments = trace(scene).segments
    assert np.allclose(segments.p1[:, 1], 7) and np.allclose(segments.p2[:, 1], 7)
    x_arc = -37.5 + math.sqrt(42.5**2 - 7**2)  # the circle through (0, ±20) and (5, 0)
    at_arc = np.flatnonzero(np.isclose(segments.p2[:, 0], x_arc, atol=1e-3))
    assert len(at_arc) >= 2  # crossing it forwards, and the back face's reflection crossing back
    children = np.isin(segments.parent, segments.ids[at_arc])
    assert not (segments.interaction[children] == REFLECT).any()


def test_overlapping_curved_glasses_are_left_to_the_simulator_and_touching_circles_are_not():
    """ray-optics merges overlapping glasses; the scene model keeps its glasses apart, so the
    overlapping ones are kept as the file gives them, for the simulator."""
    both = scene_from_dict(
        {"version": 5, "objs": [ball(), {**ball(), "name": "Other", "p1": point(60, 0), "p2": point(60, 20)}]}
    )
    assert both.glasses == () and [o.name for o in both.others] == ["Ball", "Other"]
    inside = scene_from_dict(
        {"version": 5, "objs": [plano_convex(), {**ball(), "p1": point(1, 0), "p2": point(1, 0.5)}]}
    )
    assert inside.glasses == () and len(inside.others) == 2
    touching = scene_with(ball(), {**ball(), "name": "Other", "p1": point(2 * R, 0), "p2": point(3 * R, 0)})
    assert touching.names == ["Ball", "Other"]


def test_arc_facets_are_labelled_after_their_side_and_queries_take_those_labels():
    scene = scene_with(plano_convex(), sources=(SingleRay((-50, 0.001), (0, 0.001)),))
    glass = scene.glasses[0]
    n = glass.outline.sides[1].n_facets
    labels = [short for short, _ in edge_labels(glass)]
    assert labels == ["S", *[f"E.{k}" for k in range(n)], "N", "W"]
    assert resolve_edge(glass, "east edge facet 3").short_label == "E.3"
    with pytest.raises(ValueError, match=rf"arc drawn as {n} straight facets; name one: E.0 to E.{n - 1}"):
        resolve_edge(glass, "E")
    segments = trace(scene).segments
    middle = resolve_edge(glass, f"E.{n // 2}")
    assert middle.p1[1] <= 0.001 <= middle.p2[1]
    assert len(find_rays_crossing_edge(segments, glass, f"E.{n // 2}")) >= 2  # arriving, leaving, reflected
    table = edges_table(glass)
    assert f"E.0…E.{n - 1}" in table and "4 sides" in table
    assert len(table.splitlines()) == 4 + 4 + 4
    xml = edges_to_xml(glass)  # what the agent reads: one entry per side, not hundreds of facets
    assert "<edge_count>4</edge_count>" in xml and f'short_label="E.0…E.{n - 1}"' in xml


def test_a_curved_glass_moved_whole_keeps_its_arcs_and_reshaped_becomes_a_polygon():
    glass = scene_with(ball()).glasses[0]
    moved = glass.moved_to(np.add(glass.vertices, (3.0, -4.0)))
    assert moved.outline == Outline(circle=((3.0, -4.0), (R + 3.0, -4.0)))
    reshaped = glass.moved_to(glass.vertices * (1.0, 0.5))
    assert reshaped.outline is None and reshaped.n_edges == glass.n_edges


def test_the_edge_a_hit_ends_on_is_the_nearest_edge_by_testing_them_all():
    # a facetted circle with a few long edges among many short ones, more edges than are tested
    # one by one: the segment table searches them through a grid, rings of cells around each point
    rng = np.random.default_rng(3)
    angles = np.sort(np.r_[np.linspace(0, 5, 400), rng.uniform(5, 2 * np.pi, 6)])
    starts = np.stack([np.cos(angles), np.sin(angles)], axis=1) * 50
    ends = np.roll(starts, -1, axis=0)
    points = starts + rng.uniform(0, 1, (len(starts), 1)) * (ends - starts)
    points = np.r_[points, rng.uniform(-60, 60, (3000, 2)), starts[:50]]
    d = ends - starts
    t = np.clip(np.einsum("pkj,kj->pk", points[:, None] - starts, d) / np.einsum("kj,kj->k", d, d), 0, 1)
    gap = points[:, None] - starts - t[..., None] * d
    expected = np.argmin(np.einsum("pkj,pkj->pk", gap, gap), axis=1)
    found = np.empty(len(points), dtype=np.int64)
    on_glass_0 = np.zeros(len(points), dtype=np.int32)
    one_glass = np.array([[0, len(starts)]], dtype=np.int64)
    table_kernel.nearest_edges(points, on_glass_0, np.c_[starts, ends], one_glass, engine.FEW_EDGES, found)
    assert len(starts) > engine.FEW_EDGES
    assert np.array_equal(found, expected)
