"""The files sample: a folder to try the files lines on, made fresh, never over the person's files."""

from __future__ import annotations

import os

from napari_talk.core.safety.workspace import Workspace
from napari_talk.packs.files import samples


def test_the_sample_is_made_in_a_fresh_folder_of_the_workspace(workspace):
    layers = samples.files_sample()
    ((picture, kwargs, kind),) = layers
    assert kind == "image" and kwargs["rgb"] and picture.ndim == 3 and picture.std() > 0
    assert kwargs["metadata"]["napari_talk"]["folder"] == str(workspace / "sample")
    for relative, text in samples.FILES.items():
        assert (workspace / "sample" / relative).read_text() == text


def test_the_persons_folder_of_that_name_is_left_alone(workspace):
    mine = workspace / "sample" / "notes" / "plan.md"
    mine.parent.mkdir(parents=True)
    mine.write_text("my own plan")
    samples.files_sample()
    assert mine.read_text() == "my own plan" and sorted(os.listdir(workspace / "sample")) == ["notes"]
    assert (workspace / "sample-2" / "notes" / "plan.md").read_text() == samples.FILES["notes/plan.md"]


def test_opened_again_the_sample_keeps_what_the_person_changed(workspace):
    samples.files_sample()
    edited = workspace / "sample" / "notes" / "a.md"
    edited.write_text("the cells divide\n")
    ((_, kwargs, _),) = samples.files_sample()
    assert edited.read_text() == "the cells divide\n"
    assert kwargs["metadata"]["napari_talk"]["written"] == [] and not (workspace / "sample-2").exists()


def test_a_symlink_of_the_samples_name_is_not_followed(workspace, tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    (workspace / "sample").symlink_to(outside)
    samples.make(Workspace(workspace))
    assert list(outside.iterdir()) == [] and (workspace / "sample-2" / "notes" / "a.md").exists()
