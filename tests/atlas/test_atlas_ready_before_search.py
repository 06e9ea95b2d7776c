"""The Atlas sample opened with the dock, as a newcomer does: what its first search needs is made
ready in the background from the moment the sample opens (the sentence model loaded, the sample's
texts embedded, its pictures drawn), before anything is typed, and the search does none of that
work again; "open it" and "the first one" then open what the search found."""

from __future__ import annotations

import threading

import pytest
from support.door import open_door, said, type_line

from napari_talk.core import sentences
from napari_talk.packs.atlas import embeddings, samples, store

needs_minilm = pytest.mark.skipif(not sentences.ready(), reason="the sentence model is not here")


@pytest.fixture
def embedded(monkeypatch):
    """Every batch the sentence model embeds during the test, with the thread that asked for it;
    new catalogues start on MiniLM, as they do for a person who has it."""
    monkeypatch.setattr(store, "default_model", lambda: embeddings.MINILM_INT8)
    batches: list[tuple[str, list[str]]] = []
    real = sentences.onnx_minilm.OnnxMiniLM.embed

    def recording(self, texts, **options):
        asker = threading.current_thread().name + (" (one thread)" if options.get("one_thread") else "")
        batches.append((asker, list(texts)))
        return real(self, texts, **options)

    monkeypatch.setattr(sentences.onnx_minilm.OnnxMiniLM, "embed", recording)
    return batches


def sample_texts() -> set[str]:
    return {samples.entity(s).text() for s in samples.ENTITIES}


@needs_minilm
def test_the_sample_opened_with_the_dock_is_ready_before_a_search_is_typed(
    make_napari_viewer_proxy, qtbot, workspace, embedded, monkeypatch
):
    from napari_talk.core.running import rephrasing

    monkeypatch.setattr(rephrasing, "_read", lambda path, rows: None)  # a first run: every phrasing
    monkeypatch.setattr(rephrasing, "_write", lambda path, vectors: None)  # is embedded, in steps
    samples.pictures.cache_clear()
    door = open_door(make_napari_viewer_proxy, workspace)
    door.viewer.open_sample("napari-talk", "atlas")  # in the same turn of the event loop as the dock
    wanted = sample_texts()
    seen = lambda: {text for _, batch in embedded for text in batch}  # noqa: E731
    qtbot.waitUntil(lambda: wanted <= seen(), timeout=120_000)  # nothing typed yet
    qtbot.waitUntil(lambda: samples.pictures.cache_info().currsize == 1, timeout=60_000)
    assert {asker for asker, batch in embedded if wanted & set(batch)} == {"napari-talk-packs"}
    assert not door.session.state("atlas").exists()  # nothing is written before a command asks
    before = len(embedded)
    type_line(qtbot, door, "find similar to void walker")
    assert "closest to 'void walker' (minilm-int8 embeddings" in said(door).text, said(door).text
    during = [batch for _, batch in embedded[before:]]
    assert ["void walker"] in during  # the query itself, embedded by the search
    assert not wanted & {text for batch in during for text in batch}  # the sample's texts were ready
    assert door.session.state("atlas").catalogue.count() == len(samples.ENTITIES)
    phrasings = lambda: [i for i, (asker, _) in enumerate(embedded) if asker.endswith("(one thread)")]  # noqa: E731
    qtbot.waitUntil(lambda: bool(phrasings()), timeout=240_000)  # the canonical stage's set-up, later
    door._ready.way.stop()  # the phrasings still to embed are left
    last_of_sample = max(i for i, (_, batch) in enumerate(embedded) if wanted & set(batch))
    assert min(phrasings()) > last_of_sample  # it came after the sample's, which the search needs


@needs_minilm
def test_a_sample_open_before_the_dock_is_made_ready_as_the_dock_warms_up(
    make_napari_viewer_proxy, qtbot, workspace, embedded
):
    """As ``napari-talk start --sample atlas`` opens it: the sample first, then the dock."""
    from napari_talk._qt.dock import ChatDock

    viewer = make_napari_viewer_proxy()
    viewer.open_sample("napari-talk", "atlas")
    dock = ChatDock(viewer)
    viewer.window.add_dock_widget(dock, name="Chat")
    dock.session.workspace = workspace
    qtbot.waitUntil(lambda: sample_texts() <= {t for _, batch in embedded for t in batch}, timeout=120_000)
    assert not dock.session.state("atlas").exists()


@pytest.fixture
def searched(make_napari_viewer_proxy, qtbot, workspace):
    """The dock on the Atlas sample after a search; the names it found, in order."""
    door = open_door(make_napari_viewer_proxy, workspace)
    door.viewer.open_sample("napari-talk", "atlas")
    type_line(qtbot, door, "find similar to void walker")
    found = list(door.session.state("atlas").last_results)
    assert len(found) >= 2, said(door).text
    return door, found


def layer_names(door) -> list[str]:
    return [layer.name for layer in door.viewer.layers]


def test_open_it_after_a_search_opens_the_first_result(searched, qtbot):
    door, found = searched
    type_line(qtbot, door, "open it")
    assert found[0] in layer_names(door), said(door).text
    assert found[1] not in layer_names(door)


def test_the_first_one_after_a_search_opens_it_and_undo_takes_it_away(searched, qtbot):
    door, found = searched
    type_line(qtbot, door, "open the first one")
    assert found[0] in layer_names(door), said(door).text
    type_line(qtbot, door, "undo")
    assert found[0] not in layer_names(door)
