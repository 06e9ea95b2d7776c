"""The newcomer benchmark's judge compares what a command does, not how it spells a name: on the
real samples, in a real session, with the packs' own resolvers."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"
sys.path.insert(0, str(BENCHMARKS))

from newcomer_judge import Effects  # noqa: E402
from understanding import judge as judged_by_spelling  # noqa: E402


def _session_on(viewer, sample: str, workspace: Path):
    from napari_talk.core.running.session import Session

    viewer.open_sample("napari-talk", sample)
    return Session(viewer, workspace=workspace)


@pytest.fixture
def files_effects(make_napari_viewer, workspace):
    session = _session_on(make_napari_viewer(), "files", workspace)
    assert (workspace / "sample" / "chapters" / "ch01.md").is_file()
    return Effects(session)


def test_a_file_named_as_said_is_the_labelled_path(files_effects):
    label = [{"action": "read_file", "path": "sample/chapters/ch01.md"}]
    for said in ("chapter 1", "ch01.md", "Chapter 1", "sample/chapters/ch01.md"):
        assert files_effects.judge(label, [{"action": "read_file", "path": said}]) == "covered", said
    assert judged_by_spelling(label, [{"action": "read_file", "path": "chapter 1"}]) == "wrong"
    assert files_effects.judge(label, [{"action": "read_file", "path": "ch02.md"}]) == "wrong"
    assert files_effects.judge(label, [{"action": "read_file", "path": "no such chapter"}]) == "wrong"


def test_a_folder_and_an_edit_are_judged_where_they_land(files_effects):
    notes = [{"action": "list_files", "directory": "sample/notes"}]
    assert files_effects.judge(notes, [{"action": "list_files", "directory": "notes"}]) == "covered"
    assert files_effects.judge(notes, [{"action": "list_files", "directory": "chapters"}]) == "wrong"
    edit = {"action": "edit_file", "path": "sample/notes/a.md", "search_text": "teh", "replace_text": "the"}
    assert files_effects.judge([edit], [{**edit, "path": "a.md"}]) == "covered"
    assert files_effects.judge([edit], [{**edit, "path": "a.md", "replace_text": "tea"}]) == "wrong"


def test_a_new_file_is_where_the_pack_would_write_it(files_effects):
    """A bare new name is written in the current folder (the root), not beside the chapters."""
    label = [{"action": "write_file", "path": "sample/chapters/ch03.md", "content": "The sea."}]
    beside = [{"action": "write_file", "path": "sample/chapters/ch03.md", "content": "The sea."}]
    at_root = [{"action": "write_file", "path": "ch03.md", "content": "The sea."}]
    assert files_effects.judge(label, beside) == "covered"
    assert files_effects.judge(label, at_root) == "wrong"


def test_layers_by_the_name_they_resolve_to_and_a_box_in_any_corner_order(make_napari_viewer, workspace):
    effects = Effects(_session_on(make_napari_viewer(), "cells", workspace))
    label = [{"action": "layer_opacity", "name": "cell boundaries", "opacity": 0.5}]
    assert (
        effects.judge(label, [{"action": "layer_opacity", "name": "boundaries", "opacity": 0.5}]) == "covered"
    )
    assert effects.judge(label, [{"action": "layer_opacity", "name": "nuclei", "opacity": 0.5}]) == "wrong"
    assert (
        effects.judge(label, [{"action": "layer_opacity", "name": "boundaries", "opacity": 0.4}]) == "wrong"
    )
    box = [{"action": "zoom_box", "box": [100, 100, 300, 300]}]
    assert effects.judge(box, [{"action": "zoom_box", "box": [300, 300, 100, 100]}]) == "covered"
    assert effects.judge(box, [{"action": "zoom_box", "box": [300, 100, 100, 300]}]) == "covered"
    assert effects.judge(box, [{"action": "zoom_box", "box": [100, 100, 300, 200]}]) == "wrong"


def test_a_glass_and_its_edge_by_any_of_their_names(make_napari_viewer, workspace):
    effects = Effects(_session_on(make_napari_viewer(), "prism_demo", workspace))
    label = [{"action": "find_rays_crossing_edge", "glass_name": "Main Prism", "edge_label": "N"}]
    for glass, edge in (("main prism", "north edge"), ("prism", "North Edge"), ("Main Prism", "2")):
        said = [{"action": "find_rays_crossing_edge", "glass_name": glass, "edge_label": edge}]
        assert effects.judge(label, said) == "covered", (glass, edge)
    west = [{"action": "find_rays_crossing_edge", "glass_name": "prism", "edge_label": "west"}]
    assert effects.judge(label, west) == "wrong"


def test_a_part_by_its_name_and_a_material_by_what_it_picks(make_napari_viewer, workspace):
    session = _session_on(make_napari_viewer(), "mesh", workspace)
    assert session.attempt({"action": "request_segmentation"}).status == "success"
    effects = Effects(session)
    head = [{"action": "isolate_segment", "segment_id": 4}]
    assert session.state("mesh").model.names[3] == "head"
    assert effects.judge(head, [{"action": "isolate_segment", "segment_id": "head"}]) == "covered"
    assert effects.judge(head, [{"action": "isolate_segment", "segment_id": "torso"}]) == "wrong"
    leather = [{"action": "apply_material", "material_description": "red leather", "segment_id": 5}]
    said = {
        "action": "apply_material",
        "material_description": "a red leather material",
        "segment_id": "left arm",
    }
    assert effects.judge(leather, [said]) == "covered"
    assert effects.judge(leather, [{**said, "material_description": "brushed steel"}]) == "wrong"


def test_a_line_asking_nothing_is_right_only_when_nothing_runs(files_effects):
    assert files_effects.judge([], []) == "covered"
    assert files_effects.judge([], [{"action": "help"}]) == "covered"
    assert files_effects.judge([], [{"action": "list_files"}]) == "wrong"
    assert files_effects.judge([{"action": "list_files"}], []) == "unknown"


def test_two_similarity_queries_are_the_same_when_they_find_the_same(workspace):
    from napari_talk.core.running.session import Session

    session = Session(None, workspace=workspace)
    effects = Effects(session)
    label = [{"action": "find_similar", "query": "fire queen", "limit": 3}]
    shouted = [{"action": "find_similar", "query": "Fire queen!!", "limit": 3}]
    assert effects.judge(label, shouted) == "wrong"  # an empty catalogue: only the words can be compared
    said_with_article = [{"action": "find_similar", "query": "a fire queen", "limit": 3}]
    assert effects.judge(label, said_with_article) == "covered"
    assert session.run("load the sample catalogue").ok
    assert effects.judge(label, shouted) == "covered"
    assert (
        effects.judge(label, [{"action": "find_similar", "query": "underwater library", "limit": 3}])
        == "wrong"
    )
    assert effects.judge(label, [{"action": "find_similar", "query": "fire queen", "limit": 4}]) == "wrong"
    session.state("atlas").close()
