"""The sentence model is loaded once per process even when two threads ask at once (the atlas's
first search used to load a second copy beside the canonical stage's), and a thread that asks
while another holds the model in use waits for no more than the load."""

from __future__ import annotations

import threading
import time

from napari_talk.core import sentences


class SlowModel:
    made: list[SlowModel] = []

    def __init__(self, quantized: bool = True) -> None:
        time.sleep(0.3)  # a load: long enough for a second thread to ask meanwhile
        SlowModel.made.append(self)


def test_two_threads_asking_at_once_share_one_load(monkeypatch):
    monkeypatch.setattr(sentences.onnx_minilm, "OnnxMiniLM", SlowModel)
    SlowModel.made.clear()
    sentences.minilm.cache_clear()
    got: list[object] = []
    threads = [threading.Thread(target=lambda: got.append(sentences.minilm(True))) for _ in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(SlowModel.made) == 1 and got == [SlowModel.made[0]] * 3
    sentences.minilm.cache_clear()


def test_a_thread_holding_the_model_in_use_holds_up_no_load(monkeypatch):
    """The canonical stage holds the model in use through its whole set-up; a search asking for
    the model meanwhile gets it loaded without waiting for that set-up to end."""
    monkeypatch.setattr(sentences.onnx_minilm, "OnnxMiniLM", SlowModel)
    sentences.minilm.cache_clear()
    holding, release = threading.Event(), threading.Event()

    def busy() -> None:
        with sentences.in_use():
            holding.set()
            release.wait(30)

    worker = threading.Thread(target=busy)
    worker.start()
    holding.wait(10)
    got: list[object] = []
    asker = threading.Thread(target=lambda: got.append(sentences.minilm(True)))
    asker.start()
    asker.join(10)
    answered_while_in_use = bool(got) and not release.is_set()
    release.set()
    worker.join()
    asker.join()
    assert answered_while_in_use and got[0] is sentences.minilm(True)
    sentences.minilm.cache_clear()
