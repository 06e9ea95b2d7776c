"""A trace names the scene objects its segments end on and whose light they carry by object (an id
into ``SimulationResult.objects``), never by a position in one of the scene's lists."""

from __future__ import annotations

import numpy as np
from test_rays_elements import elements_scene

from napari_talk.packs.rays.engine import trace
from napari_talk.packs.rays.file_object import FileObject
from napari_talk.packs.rays.scene import Glass, IdealLens, Mirror, PointSource
from napari_talk.packs.rays.scene_json import scene_from_dict

SLAB = [{"x": 0, "y": 0}, {"x": 200, "y": 0}, {"x": 200, "y": 40}, {"x": 0, "y": 40}]


def test_a_segment_names_the_object_it_ends_on():
    scene = elements_scene()
    result = trace(scene)
    segments = result.segments
    assert result.objects == scene.objects
    on_element = np.flatnonzero(segments.end_glass == -2)
    kinds = {type(result.objects[k]) for k in segments.end_object[on_element]}
    assert kinds == {Mirror, IdealLens}
    for i in on_element:  # the segment's end lies on the element it names
        element = result.objects[segments.end_object[i]]
        a, b, p = np.array(element.p1), np.array(element.p2), segments.p2[i]
        cross = (b - a)[0] * (p - a)[1] - (b - a)[1] * (p - a)[0]
        assert abs(cross) / np.linalg.norm(b - a) < 1e-6
    on_glass = np.flatnonzero(segments.end_glass >= 0)
    assert len(on_glass) and all(
        result.objects[segments.end_object[i]] is scene.glasses[segments.end_glass[i]] for i in on_glass
    )
    assert (segments.end_object[segments.escaped] == -1).all()
    assert (segments.end_edge[segments.end_glass < 0] == -1).all()


def test_rays_are_counted_for_the_object_that_emitted_them_kept_sources_included():
    spread = {"type": "Beam", "p1": {"x": 50, "y": -60}, "p2": {"x": 150, "y": -60}, "emisAngle": 20}
    point = {"type": "PointSource", "x": 10, "y": -100, "brightness": 0.5}
    data = {"version": 5, "objs": [{"type": "Glass", "path": SLAB}, {**spread, "brightness": 1}, point]}
    scene = scene_from_dict({**data, "rayModeDensity": 0.2})
    assert len(scene.sources) == 1 and scene.others[0].type == "Beam"  # kept as the file gives it
    result = trace(scene)
    emitted = dict((id(item), count) for item, count in result.emitted())
    source = scene.sources[0]
    assert isinstance(source, PointSource) and emitted[id(source)] == source.n_rays
    kept = scene.others[0]
    assert isinstance(kept, FileObject) and emitted[id(kept)] > 0
    assert sum(emitted.values()) == int((result.segments.parent < 0).sum())
    assert not any(isinstance(item, Glass) for item, _ in result.emitted())
