"""The queries: the seed's verification behaviour on the prism demo, and each query against a
plain per-segment computation of its definition."""

from __future__ import annotations

import itertools
import math
import xml.etree.ElementTree as ET

import numpy as np
import pytest

from napari_talk.packs.rays import analysis
from napari_talk.packs.rays.edges import resolve_edge
from napari_talk.packs.rays.engine import trace
from napari_talk.packs.rays.lineage import rank_paths_by_energy
from napari_talk.packs.rays.samples import prism_demo_scene
from napari_talk.packs.rays.scene import Glass, PointSource, Scene
from napari_talk.packs.rays.simulation import INTERACTIONS
from napari_talk.packs.rays.xml import rays_to_xml


@pytest.fixture(scope="module")
def demo():
    scene = prism_demo_scene()
    return scene, scene.glasses[0], trace(scene)


def inside_polygon(point, vertices) -> bool:
    """Winding number of the polygon around the point (independent of the even-odd query)."""
    angle = 0.0
    for (ax, ay), (bx, by) in zip(vertices, np.roll(vertices, -1, axis=0), strict=True):
        a = math.atan2(ay - point[1], ax - point[0])
        b = math.atan2(by - point[1], bx - point[0])
        angle += (b - a + math.pi) % (2 * math.pi) - math.pi
    return abs(angle) > math.pi


def point_to(p, a, b) -> float:
    ab = np.subtract(b, a)
    if not ab.any():
        return float(np.hypot(*np.subtract(p, a)))
    t = min(1.0, max(0.0, float(np.dot(np.subtract(p, a), ab) / np.dot(ab, ab))))
    return float(np.hypot(*(np.subtract(p, a) - t * ab)))


def segment_distance(p1, p2, q1, q2) -> float:
    def orient(a, b, c):
        return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])

    if orient(q1, q2, p1) * orient(q1, q2, p2) < 0 and orient(p1, p2, q1) * orient(p1, p2, q2) < 0:
        return 0.0
    return min(point_to(p1, q1, q2), point_to(p2, q1, q2), point_to(q1, p1, p2), point_to(q2, p1, p2))


def test_the_seed_verification_scene_behaves_as_reported(demo):
    """Seed 001 (100 segments): 25 inside, 18 crossing N, 12 at 0–30° to N, 67 with DoP 0–0.1."""
    _, prism, result = demo
    segments = result.segments
    total = len(segments)
    inside = analysis.find_rays_inside_glass(segments, prism)
    crossing = analysis.find_rays_crossing_edge(segments, prism, "N")
    window = analysis.find_rays_by_angle_to_edge(segments, prism, "N", 0, 30)
    unpolarized = analysis.find_rays_by_polarization(segments, 0.0, 0.1)
    assert 80 <= total <= 130
    assert 0.1 * total <= len(inside) <= 0.4 * total
    assert 0.1 * total <= len(crossing) <= 0.5 * total
    assert 0 < len(window) < len(analysis.find_rays_by_angle_to_edge(segments, prism, "N", 0, 90))
    assert 0.5 * total <= len(unpolarized) < total
    assert set(INTERACTIONS[k] for k in inside.interaction) <= {
        "refract",
        "reflect",
        "tir",
    }  # light inside came in


def test_inside_glass_is_the_midpoint_test(demo):
    _, prism, result = demo
    segments = result.segments
    found = set(analysis.find_rays_inside_glass(segments, prism).ids)
    expected = {
        i
        for i, mid in zip(segments.ids, segments.midpoints, strict=True)
        if inside_polygon(mid, prism.vertices)
    }
    assert found == expected and found


@pytest.mark.parametrize("label", ["W", "E", "N"])
def test_crossing_an_edge_counts_touching(demo, label):
    _, prism, result = demo
    segments = result.segments
    edge = resolve_edge(prism, label)
    found = set(analysis.find_rays_crossing_edge(segments, prism, label).ids)
    distance = [
        segment_distance(a, b, edge.p1, edge.p2) for a, b in zip(segments.p1, segments.p2, strict=True)
    ]
    expected = {i for i, d in zip(segments.ids, distance, strict=True) if d <= 1e-6}
    assert found == expected
    ending_here = set(segments.ids[(segments.end_glass == 0) & (segments.end_edge == edge.index)])
    assert ending_here and ending_here <= found  # every hit on the edge touches it


@pytest.mark.parametrize(("low", "high"), [(0, 30), (30, 60), (60, 90), (0, 90), (45, 45.5)])
def test_angle_to_edge_is_measured_from_the_outward_normal_near_the_edge(demo, low, high):
    _, prism, result = demo
    segments = result.segments
    edge = resolve_edge(prism, "N")
    found = set(analysis.find_rays_by_angle_to_edge(segments, prism, "N", low, high).ids)
    expected = set()
    for i, a, b in zip(segments.ids, segments.p1, segments.p2, strict=True):
        mid = (a + b) / 2
        if point_to(mid, edge.p1, edge.p2) > 2 * edge.length:
            continue
        d = (b - a) / np.hypot(*(b - a))
        angle = math.degrees(math.acos(min(1.0, abs(float(d @ np.array(edge.normal))))))
        if low - 1e-9 <= angle <= high + 1e-9:  # bounds are inclusive, up to rounding
            expected.add(i)
    assert found == expected


def test_polarization_windows_partition_the_segments(demo):
    _, _, result = demo
    segments = result.segments
    low = analysis.find_rays_by_polarization(segments, 0.0, 0.1)
    high = analysis.find_rays_by_polarization(segments, 0.1000001, 1.0)
    assert len(low) + len(high) == len(segments)
    dop = np.abs(segments.brightness_p - segments.brightness_s) / segments.total
    assert set(low.ids) == set(segments.ids[dop <= 0.1])
    with pytest.raises(ValueError, match="window"):
        analysis.find_rays_by_polarization(segments, 0.8, 0.2)


def test_queries_compose_and_keep_ids(demo):
    _, prism, result = demo
    inside = analysis.find_rays_inside_glass(result.segments, prism)
    both = analysis.find_rays_by_polarization(inside, 0.0, 0.05)
    assert set(both.ids) <= set(inside.ids)
    assert [both.uuid_of(i) for i in both.ids] == [result.segments.uuid_of(i) for i in both.ids]


def test_rank_paths_by_energy_walks_each_path_from_its_source(demo):
    _, _, result = demo
    segments = result.segments
    paths = rank_paths_by_energy(result.lineage, 12)
    assert len(paths) == 12
    energies = [p["energy"] for p in paths]
    assert energies == sorted(energies, reverse=True)
    leaves = result.lineage.leaves()
    assert energies[0] == pytest.approx(segments.total[leaves].max())
    for path in paths:
        ids = path["path_ids"]
        assert segments.parent[ids[0]] == -1 and ids[-1] == path["id"]
        assert all(segments.parent[child] == parent for parent, child in itertools.pairwise(ids))
        assert path["path_types"][0] == "source" and path["path_length"] == len(ids)
        assert path["energy"] == pytest.approx(path["energy_s"] + path["energy_p"])
    everything = rank_paths_by_energy(result.lineage)
    assert len(everything) == len(leaves)


def test_rays_to_xml_parses_with_the_standard_parser(demo):
    _, prism, result = demo
    found = analysis.find_rays_crossing_edge(result.segments, prism, "N")
    root = ET.fromstring(rays_to_xml(found))
    rays = root.findall("ray")
    assert root.tag == "rays" and int(root.get("count")) == len(rays) == len(found)
    first = rays[0]
    assert [child.tag for child in first][:10] == [
        "uuid", "p1", "p2", "length", "brightness_s", "brightness_p", "brightness_total",
        "polarization_ratio", "degree_of_polarization", "interaction_type",
    ]  # fmt: skip
    assert float(first.find("p2").get("x")) == pytest.approx(found.p2[0, 0], abs=1e-4)
    assert float(first.find("brightness_total").text) == pytest.approx(found.total[0], abs=1e-6)
    assert len({r.findtext("uuid") for r in rays}) == len(rays)
    children = [r for r in rays if r.find("parent_uuid") is not None]
    assert children and all(r.findtext("interaction_type") != "source" for r in children)


def test_queries_scale_to_many_segments():
    scene = Scene((prism_demo_scene().glasses[0],), (PointSource(240.0, 390.0, n_rays=20_000),))
    result = trace(scene)
    prism = scene.glasses[0]
    segments = result.segments
    assert len(segments) > 30_000
    inside = analysis.find_rays_inside_glass(segments, prism)
    sample = np.random.default_rng(1).choice(len(segments), 300, replace=False)
    chosen = set(inside.ids)
    for i in sample:
        assert (i in chosen) == inside_polygon(segments.midpoints[i], prism.vertices)


def test_an_unknown_edge_is_refused_with_the_labels_there_are(demo):
    _, prism, result = demo
    with pytest.raises(ValueError, match=r"Available labels: \['W', 'E', 'N'\]"):
        analysis.find_rays_crossing_edge(result.segments, prism, "SW")
    square = Glass("sq", [(0, 0), (1, 0), (1, 1), (0, 1)])
    with pytest.raises(ValueError, match=r"\['0', '1', '2', '3'\]"):
        analysis.find_rays_by_angle_to_edge(result.segments, square, "N")


def test_xml_of_a_capped_listing_says_how_many_there_are(demo):
    from napari_talk.packs.rays.xml import ray_records_to_xml

    _, _, result = demo
    records = result.segments.records(limit=3)
    root = ET.fromstring(ray_records_to_xml(records, count=len(result.segments)))
    assert root.get("count") == str(len(result.segments)) and root.get("listed") == "3"
    assert len(root.findall("ray")) == 3
    assert ET.fromstring(ray_records_to_xml(records)).get("listed") is None


def synthetic_segments(edge_p1, edge_p2, n_random: int = 3000):
    """Random segments around an edge plus hand-placed ones: touching an end, along the edge's line
    (on it, beyond it, parallel beside it), head-on, grazing, and of zero length."""
    from napari_talk.packs.rays.simulation import Segments

    a, b = np.asarray(edge_p1, float), np.asarray(edge_p2, float)
    u = (b - a) / np.linalg.norm(b - a)
    n = np.array([-u[1], u[0]])
    rng = np.random.default_rng(7)
    centre = (a + b) / 2
    span = np.linalg.norm(b - a)
    starts = centre + rng.normal(0, 1.5 * span, (n_random, 2))
    ends = starts + rng.normal(0, span, (n_random, 2))
    crafted = [
        (b, b + 30 * n),  # starting on the edge's end, head-on
        (a - 20 * u, a),  # ending on the other end, along the line
        (a - 50 * u, b + 50 * u),  # along the whole edge
        (b + 10 * u, b + 60 * u),  # on the line, beyond the edge
        (a + 5 * n, b + 5 * n),  # parallel beside it
        (centre - 10 * n, centre + 10 * n),  # straight through, head-on
        (centre + 3 * n, centre + 3 * n),  # zero length
        (centre - 40 * u + 1 * n, centre + 40 * u - 1 * n),  # grazing through
        (centre + 100 * n, centre + 100 * n + 10 * (np.cos(0.5236) * n + np.sin(0.5236) * u)),  # ~30°
    ]
    p1 = np.concatenate([starts, [c[0] for c in crafted]])
    p2 = np.concatenate([ends, [c[1] for c in crafted]])
    k = len(p1)
    return Segments(
        ids=np.arange(k),
        p1=p1,
        p2=p2,
        brightness_s=np.full(k, 0.5),
        brightness_p=np.full(k, 0.5),
        wavelength=np.full(k, np.nan),
        parent=np.full(k, -1),
        interaction=np.zeros(k, np.int8),
        depth=np.zeros(k, np.int32),
        source=np.zeros(k, np.int32),
        end_glass=np.full(k, -1, np.int32),
        end_edge=np.full(k, -1, np.int32),
        lost=np.zeros(k),
    )


SLANTED = Glass("slanted", [(0.0, 0.0), (170.0, 60.0), (40.0, 150.0)])


@pytest.mark.parametrize("label", ["0", "1", "2"])
def test_crossing_matches_the_distance_definition_on_random_and_placed_segments(label):
    edge = resolve_edge(SLANTED, label)
    segments = synthetic_segments(edge.p1, edge.p2)
    found = set(analysis.find_rays_crossing_edge(segments, SLANTED, label).ids)
    expected = {
        i
        for i, a, b in zip(segments.ids, segments.p1, segments.p2, strict=True)
        if segment_distance(a, b, edge.p1, edge.p2) <= 1e-6
    }
    assert found == expected and len(found) > 100


@pytest.mark.parametrize("label", ["0", "2"])
@pytest.mark.parametrize(("low", "high"), [(0, 30), (30, 60), (60, 90), (0, 90), (0, 0), (90, 90)])
def test_angle_to_edge_matches_its_definition_on_random_and_placed_segments(label, low, high):
    edge = resolve_edge(SLANTED, label)
    segments = synthetic_segments(edge.p1, edge.p2)
    found = set(analysis.find_rays_by_angle_to_edge(segments, SLANTED, label, low, high).ids)
    expected = set()
    for i, a, b in zip(segments.ids, segments.p1, segments.p2, strict=True):
        length = float(np.hypot(*(b - a)))
        if length <= 1e-12 or segment_distance(a, b, edge.p1, edge.p2) > 2 * edge.length:
            continue
        cosine = min(1.0, abs(float((b - a) @ np.array(edge.normal))) / length)
        if low - 1e-6 <= math.degrees(math.acos(cosine)) <= high + 1e-6:
            expected.add(i)
    assert found == expected
    if (low, high) != (0, 0):
        assert found


def test_the_top_paths_are_told_apart_even_when_their_energy_and_steps_are_equal():
    """The prism demo's point source sends many rays that leave with the same energy by the same
    steps; each listed row says where its path ends and its last segment, so no two rows read alike."""
    from napari_talk.core.running.session import Session

    session = Session(None)
    assert session.run("load the prism demo").ok
    turn = session.run("top 5 paths by energy")
    assert turn.ok, turn.message
    rows = [line for line in turn.message.splitlines()[2:] if line.strip()[:1].isdigit()]
    assert len(rows) == 5 and len(set(rows)) == 5
    paths = turn.results[0].data
    assert len({round(p["energy"], 9) for p in paths}) < 5, "the case that read as identical rows"
    segments = session.state("rays").current.result.segments
    for row, path in zip(rows, paths, strict=True):
        end = segments.p2[path["id"]]
        assert f"({end[0]:.1f}, {end[1]:.1f}) (#{path['id']})" in row
