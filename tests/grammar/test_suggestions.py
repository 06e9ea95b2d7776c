"""A line the parser misses, without a model, gets the nearest commands as suggestions: from the
packs in use (the viewer, a pack with live objects), and from another pack only on a strong match
(a word in common that is not a mere "make" or "what"). A mere slip is read, not suggested."""

from __future__ import annotations

import re

import pytest
from support.door import open_door, type_line


@pytest.fixture
def door(make_napari_viewer_proxy, workspace):
    dock = open_door(make_napari_viewer_proxy, workspace)
    dock.viewer.open_sample("napari-talk", "cells")
    return dock


def suggested(qtbot, dock, text) -> list[str]:
    entry = type_line(qtbot, dock, text)
    assert entry.kind == "error" and "did not understand" in entry.text, entry.text
    return re.findall(r'"([^"]+)"', entry.text.split("Nearest commands:", 1)[1].splitlines()[0])


def examples_of(dock, pack: str) -> set[str]:
    (found,) = [p for p in dock.session.registry.packs if p.name == pack]
    return {example for cls in found.commands for example in cls.examples}


def test_a_pack_with_nothing_live_is_not_suggested_on_a_common_word(qtbot, door):
    mesh, files, rays = examples_of(door, "mesh"), examples_of(door, "files"), examples_of(door, "rays")
    nuclei = suggested(qtbot, door, "make the nuclei dance")
    assert nuclei and not set(nuclei) & mesh, f"no model is loaded: {nuclei}"
    assert any("nuclei" in line for line in nuclei)
    answer = suggested(qtbot, door, "what is the answer")  # "what is the": no command's words
    assert answer and not set(answer) & (files | rays), answer


def test_a_pack_not_live_is_still_suggested_on_a_strong_match(qtbot, door):
    assert "rays inside Prism" in suggested(qtbot, door, "rays loitering inside Prism")  # "rays", "prism"
    index = suggested(qtbot, door, "what is the refractive index")  # a question the rays pack answers
    assert index and not any("Main Prism" in line for line in index), "no scene: no glass to name"


def test_a_pack_with_live_objects_is_suggested_like_the_viewer(qtbot, door):
    mesh = examples_of(door, "mesh")
    assert not set(suggested(qtbot, door, "make them wobble")) & mesh
    type_line(qtbot, door, "spawn a torus")
    assert set(suggested(qtbot, door, "make them wobble")) & mesh, "the model is live now"
